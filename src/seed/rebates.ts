import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError, type CommandMetadata } from '../../domain/decider';
import { rebates, type RebateDocument } from '../../domain/rebates/rebates';
import { quarterOf } from '../../domain/rebates/tiers';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { rebateIdFor } from '../../commands/rebates';
import type { Services } from '../../platform/services';
import { demoOrderId } from './orders';
import { badgePng } from './partners';
import { demoUserId } from './identity';
import type { Seeder } from './seeder';
import type { DemoRebate } from './demoRebate';
import { historyRebates } from './historyRebates';
import { demoCalendar } from './timeline';

const DAY_MS = 86_400_000;

const NORTHWIND = 'partner@partnerhub.test';
const PAMPAS = 'lucia.fernandez@pampas-digital.test';
const SAKURA = 'kenji.mori@sakura-netcom.test';

/** Claims of three partner organisations over two quarters, in every status, each with documents. */
export const DEMO_REBATES: readonly DemoRebate[] = [
  {
    organisation: NORTHWIND,
    quarter: 'previous',
    day: 12,
    invoice: 'NW-INV-20417',
    product: 'HX-M2424 24-Port Gigabit Managed Switch',
    category: 'Managed Switches',
    type: 'Volume Rebate',
    amount: 42_600,
    description: 'Hospital campus network refresh, 30 access switches.',
    documents: ['invoice', 'delivery-note'],
    steps: [{ status: 'processing' }, { status: 'approved', ratePercent: 3.5, note: 'Approved after review' }],
  },
  {
    organisation: NORTHWIND,
    quarter: 'previous',
    day: 40,
    invoice: 'NW-QUOTE-3310',
    product: 'Helix 150 W Power Supply',
    category: 'Helix Power Supply',
    type: 'Promotional Rebate',
    amount: 1_980,
    description: 'Spring power-supply promotion.',
    documents: ['invoice'],
    steps: [{ status: 'rejected', reason: 'The document is a quotation, not a tax invoice. Please claim again with the invoice.' }],
  },
  {
    organisation: NORTHWIND,
    quarter: 'current',
    day: 3,
    invoice: 'NW-INV-21088',
    product: 'IMS-810 Industrial Managed Switch',
    category: 'Industrial Managed Switches',
    type: 'Project Rebate',
    amount: 8_400,
    description: 'Water treatment plant, phase 1 control network.',
    documents: ['invoice', 'delivery-note'],
    steps: [{ status: 'approved', ratePercent: 2, note: 'Approved after review' }],
  },
  {
    organisation: NORTHWIND,
    quarter: 'current',
    day: 38,
    invoice: 'NW-INV-21102',
    product: 'HX-U105 5-Port Unmanaged Switch',
    category: 'Unmanaged Switches',
    type: 'Volume Rebate',
    amount: 6_600,
    description: 'Branch offices roll-out, first wave.',
    documents: ['invoice'],
    steps: [{ status: 'approved', ratePercent: 2, note: 'Approved after review' }],
  },
  {
    organisation: NORTHWIND,
    quarter: 'current',
    day: 20,
    invoice: 'NW-INV-21190',
    product: 'SFP-10G-SR Transceiver',
    category: 'Helix Accessories',
    type: 'Growth Incentive',
    amount: 3_200,
    description: 'Fibre uplinks for the campus core.',
    documents: ['invoice'],
    steps: [{ status: 'processing', note: 'Checking the serial numbers with the distributor.' }],
  },
  {
    organisation: NORTHWIND,
    quarter: 'current',
    day: 30,
    invoice: 'order:northwind-1',
    product: 'HX-M2424 24-Port Gigabit Managed Switch',
    category: 'Managed Switches',
    type: 'Volume Rebate',
    amount: 0,
    description: 'Campus refresh, building A (ordered through the portal).',
    documents: ['invoice', 'delivery-note'],
    steps: [],
  },
  {
    organisation: NORTHWIND,
    quarter: 'current',
    day: 45,
    invoice: 'NW-INV-21254',
    product: 'Helix Xtreme XS-4800',
    category: 'Helix Xtreme Switches',
    type: 'Co-op Marketing',
    amount: 1_150,
    description: 'Trade-show demo unit, co-op marketing fund.',
    documents: ['invoice'],
    steps: [],
  },
  {
    organisation: PAMPAS,
    quarter: 'previous',
    day: 20,
    invoice: 'PD-0009871',
    product: 'HX-M2408 8-Port Gigabit Managed Switch',
    category: 'Managed Switches',
    type: 'Volume Rebate',
    amount: 12_000,
    description: 'Retail chain store networks.',
    documents: ['invoice'],
    steps: [{ status: 'approved', ratePercent: 2, note: 'Approved after review' }],
  },
  {
    organisation: PAMPAS,
    quarter: 'current',
    day: 6,
    invoice: 'PD-0010220',
    product: 'IUS-5 Industrial Unmanaged Switch',
    category: 'Industrial Unmanaged Switches',
    type: 'Project Rebate',
    amount: 31_000,
    description: 'Mining site telemetry, 120 units.',
    documents: ['invoice', 'delivery-note'],
    steps: [{ status: 'approved', ratePercent: 3.5, note: 'Approved after review' }],
  },
  {
    organisation: PAMPAS,
    quarter: 'current',
    day: 25,
    invoice: 'PD-0010388',
    product: 'Helix 740 W Power Supply',
    category: 'Helix Power Supply',
    type: 'Volume Rebate',
    amount: 4_500,
    description: 'Spare supplies for the data-centre customer.',
    documents: ['invoice'],
    steps: [],
  },
  {
    organisation: SAKURA,
    quarter: 'previous',
    day: 5,
    invoice: 'SKN-77-1201',
    product: 'Helix Xtreme XS-4800',
    category: 'Helix Xtreme Switches',
    type: 'Volume Rebate',
    amount: 80_000,
    description: 'Metro carrier aggregation layer.',
    documents: ['invoice', 'delivery-note'],
    steps: [{ status: 'approved', ratePercent: 5, note: 'Approved after review' }],
  },
  {
    organisation: SAKURA,
    quarter: 'current',
    day: 8,
    invoice: 'SKN-77-1320',
    product: 'IMS-2804R Industrial Rack Switch',
    category: 'Industrial Managed Switches',
    type: 'Project Rebate',
    amount: 18_000,
    description: 'Rail signalling upgrade.',
    documents: ['invoice'],
    steps: [{ status: 'processing' }],
  },
  {
    organisation: SAKURA,
    quarter: 'current',
    day: 15,
    invoice: 'SKN-77-1333',
    product: 'Unknown third-party switch',
    category: 'Other',
    type: 'Promotional Rebate',
    amount: 2_000,
    description: 'Competitive replacement.',
    documents: ['invoice'],
    steps: [{ status: 'rejected', reason: 'Third-party equipment is not covered by the programme.' }],
  },
];

/** A one-page PDF saying what the invoice is for. */
function invoicePdf(title: string, lines: string[]): Buffer {
  const text = [title, ...lines].map((line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${760 - i * 22} Td (${line.replace(/[()\\]/g, '')}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Writes a demo document into the private uploads under a name derived from the claim, unless it is there already. */
async function ensureDocument(
  services: Services,
  key: string,
  kind: 'invoice' | 'delivery-note',
  demo: DemoRebate,
  invoice: string,
  company: string,
): Promise<RebateDocument> {
  const type = kind === 'invoice' ? 'pdf' : 'png';
  const file = `${deterministicUuid(`demo-rebate-document:${key}:${kind}`)}.${type}`;
  const target = path.join(services.config.UPLOAD_DIR, 'private', file);
  const bytes =
    kind === 'invoice'
      ? invoicePdf(`Invoice ${invoice}`, [company, `${demo.product}`, `Amount: USD ${demo.amount.toFixed(2)}`, demo.description])
      : badgePng('#2e7d32', '#a5d6a7');
  const exists = await access(target).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
  return { file, name: kind === 'invoice' ? `invoice-${invoice.toLowerCase()}.pdf` : 'delivery-note.png', type, size: bytes.length };
}

export const seedRebates: Seeder = {
  name: 'rebates',
  async run(services, metadata) {
    const now = Date.parse(metadata.now);
    const quarterStart = (back: number): number => {
      let start = Date.parse(quarterOf(metadata.now).start);
      for (let step = 0; step < back; step++) start = Date.parse(quarterOf(new Date(start - DAY_MS)).start);
      return start;
    };
    const quartersBack = (quarter: DemoRebate['quarter']) => (quarter === 'current' ? 0 : quarter === 'previous' ? 1 : quarter);
    const dayIn = (quarter: DemoRebate['quarter'], day: number) => Math.min(quarterStart(quartersBack(quarter)) + (day - 1) * DAY_MS, now - 2 * 60 * 60 * 1000);
    const worldBegan = now - demoCalendar(services, metadata).historyDays * DAY_MS;
    const all = [...DEMO_REBATES, ...historyRebates().filter((demo) => dayIn(demo.quarter, demo.day) > worldBegan)];
    let created = 0;
    for (const [index, demo] of all.entries()) {
      const account = await findUser(services.pool, demoUserId(demo.organisation));
      if (!account?.is_active) continue;
      let invoice = demo.invoice;
      let amount = demo.amount;
      if (invoice.startsWith('order:')) {
        const { rows } = await services.pool.query<{ order_number: string; total_amount: string }>(
          'SELECT order_number, total_amount FROM read.orders WHERE id = $1',
          [demoOrderId(invoice.slice(6))],
        );
        if (!rows[0]) continue;
        invoice = rows[0].order_number;
        amount = Number(rows[0].total_amount);
      }
      const purchasedAt = dayIn(demo.quarter, demo.day);
      // Claims arrive the next working morning, reviews a day or so later, in office hours.
      const submittedAt = Math.min(purchasedAt + DAY_MS + 9.5 * 60 * 60 * 1000, now - 60 * 60 * 1000);
      const at = (time: number, base: CommandMetadata): CommandMetadata => ({ ...base, now: new Date(Math.min(time, now)).toISOString() });
      const key = `${demo.organisation}:${index}`;
      const company = account.company_name ?? '';
      const documents = await Promise.all(demo.documents.map((kind) => ensureDocument(services, key, kind, { ...demo, amount }, invoice, company)));
      const rebateId = rebateIdFor(account.id, invoice);
      try {
        await runCommand(
          services,
          rebates,
          rebateId,
          {
            type: 'SubmitRebate',
            rebateId,
            organisationId: account.id,
            companyName: account.company_name,
            submittedBy: account.id,
            productName: demo.product,
            productCategory: demo.category,
            purchaseDate: new Date(purchasedAt).toISOString().slice(0, 10),
            invoiceNumber: invoice,
            purchaseAmountCents: Math.round(amount * 100),
            rebateType: demo.type,
            description: demo.description,
            documents,
          },
          at(submittedAt, { ...metadata, actorId: account.id, actorRole: account.role }),
        );
      } catch (error) {
        // Claimed already (an earlier seed), or no longer valid: left as it is.
        if (error instanceof DomainError) continue;
        throw error;
      }
      for (const [step, review] of demo.steps.entries()) {
        const reviewAt = at(submittedAt + (step + 1) * DAY_MS + 4.25 * 60 * 60 * 1000, metadata);
        await runCommand(
          services,
          rebates,
          rebateId,
          review.status === 'approved'
            ? { type: 'ReviewRebate', status: 'approved', notes: review.note ?? null, rebateAmountCents: Math.round(amount * review.ratePercent) }
            : review.status === 'rejected'
              ? { type: 'ReviewRebate', status: 'rejected', notes: review.reason, rebateAmountCents: null }
              : { type: 'ReviewRebate', status: 'processing', notes: review.note ?? null, rebateAmountCents: null },
          reviewAt,
        );
      }
      created++;
    }
    return `${created} of ${all.length} demo rebates created`;
  },
};
