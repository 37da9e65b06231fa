import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * Every route that serves an uploaded file names the download itself: a safe name (no control or
 * bidirectional characters, no path) whose extension is the one of the content the upload was checked to be.
 */

let t: TestPortal;
let admin: Session;
let partner: Session;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** What a browser shows as "invoicexte.html" reads right to left after U+202E: it is a PDF in truth. */
const NAMES = { html: 'evil.html', rlo: 'invoice\u202Elmth.pdf' };

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
});
afterAll(() => t?.close());

const call = (session: Session) => as(t.app, session);
const unique = () => Math.random().toString(36).slice(2, 8);

async function multipart(fields: Record<string, string>, file: { field: string; filename: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(file.field, new Blob([new Uint8Array(PDF)], { type: 'text/html' }), file.filename);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** Uploads a PDF under `filename` through one route and answers the URL it is downloaded from. */
const uploads: Record<string, (filename: string) => Promise<string>> = {
  async rebate(filename) {
    const fields = {
      product_name: 'HX-M2424 Switch',
      product_category: 'Managed Switches',
      purchase_date: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
      invoice_number: `INV-${unique()}`,
      purchase_amount: '1250.00',
      rebate_type: 'Volume Rebate',
      description: 'Downloads test.',
    };
    const response = await call(partner)({ method: 'POST', url: '/api/rebates/submit', ...(await multipart(fields, { field: 'attachments', filename })) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.attachments[0].url;
  },
  async ticket(filename) {
    const response = await call(partner)({
      method: 'POST',
      url: '/api/tickets',
      ...(await multipart({ title: 'Downloads test', description: 'A file.' }, { field: 'attachments', filename })),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.attachments[0].url;
  },
  async resource(filename) {
    const response = await call(admin)({
      method: 'POST',
      url: '/api/resources',
      ...(await multipart({ title: `Sheet ${unique()}`, category: 'Datasheet', roles: 'partner' }, { field: 'file', filename })),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.url;
  },
  async boq(filename) {
    const fields = { title: `Project ${unique()}`, expected_closure_date: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10), value: '1000.50' };
    const response = await call(partner)({ method: 'POST', url: '/api/projects', ...(await multipart(fields, { field: 'boq_file', filename })) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.boq_file_url;
  },
};

/** The name a browser saves the download as: filename* wins over filename. */
function savedName(disposition: string | undefined): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  return encoded ? decodeURIComponent(encoded) : (/filename="([^"]*)"/.exec(disposition ?? '')?.[1] ?? '');
}

describe('downloads of uploaded files', () => {
  for (const [route, upload] of Object.entries(uploads)) {
    it(`${route}: an attachment with a safe name ending in .pdf, however the uploader named it`, async () => {
      for (const filename of Object.values(NAMES)) {
        const url = await upload(filename);
        const response = await call(admin)({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        const disposition = String(response.headers['content-disposition']);
        expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.pdf"; filename\*=UTF-8''[\w.%~-]+\.pdf$/);
        const name = savedName(disposition);
        expect(name, `${route} ${filename}`).toMatch(/\.pdf$/);
        expect(name).not.toMatch(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069/\\]/);
        expect(name).not.toMatch(/html/i.test(filename) && !filename.includes('\u202E') ? /\.html/ : /\u202E/);
      }
    });
  }
});
