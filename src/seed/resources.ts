import { resources } from '../../domain/resources/resources';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { storeUpload } from '../../platform/uploadStorage';
import type { Seeder } from './seeder';

/** A one-page PDF whose page reads `text`: real documents for the demo library. */
export function onePagePdf(text: string): Buffer {
  const safe = text.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const DEMO_RESOURCES = [
  {
    key: 'hx-m2424-datasheet',
    title: 'HX-M2424 datasheet',
    category: 'Datasheet',
    description: '24-port gigabit managed switch: ports, PoE budget, dimensions and certifications.',
    roles: ['partner', 'distributor', 'partner_user', 'distributor_user', 'support', 'manufacturer'],
  },
  {
    key: 'firmware-421-notes',
    title: 'Firmware 4.2.1 release notes',
    category: 'Firmware Notes',
    description: 'Fixes the nightly watchdog reset (HX-311) and the SFP detection on port 48.',
    roles: ['partner', 'distributor', 'support'],
  },
  {
    key: 'distributor-price-list',
    title: 'Distributor price list Q4 2026',
    category: 'Price List',
    description: 'Net prices and volume breaks for distributors.',
    roles: ['distributor', 'support'],
  },
  {
    key: 'ims-810-manual',
    title: 'IMS-810 installation manual',
    category: 'Manual',
    description: 'DIN-rail mounting, power and first configuration.',
    roles: ['partner', 'distributor', 'partner_user', 'distributor_user', 'support'],
  },
] as const;

export const demoResourceId = (key: string) => deterministicUuid(`demo-resource:${key}`);

export const seedResources: Seeder = {
  name: 'resources',
  async run(services, metadata) {
    let created = 0;
    for (const demo of DEMO_RESOURCES) {
      const resourceId = demoResourceId(demo.key);
      if ((await services.store.readStream(resources.streamId(resourceId))).length) continue;
      const originalName = `${demo.title}.pdf`;
      const name = await storeUpload(services.config.UPLOAD_DIR, { originalName, type: 'pdf', bytes: onePagePdf(demo.title) }, 'private');
      await runCommand(
        services,
        resources,
        resourceId,
        {
          type: 'PublishResource',
          resourceId,
          title: demo.title,
          category: demo.category,
          description: demo.description,
          roles: [...demo.roles],
          file: { name, originalName, type: 'pdf' },
        },
        metadata,
      );
      created++;
    }
    return `${created} of ${DEMO_RESOURCES.length} demo resources published`;
  },
};
