import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../platform/services';
import { registerErrorHandling } from './errors';
import { IMAGE_TYPES, readMultipart, registerUploads } from './uploads';
import { storeUpload } from '../../platform/uploadStorage';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>');

let app: FastifyInstance;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'uploads-'));
  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  await registerUploads(app, { config: { UPLOAD_DIR: dir } } as Services);
  app.post('/logo', async (request) => {
    const form = await readMultipart(request, { logo: { label: 'Company logo', types: IMAGE_TYPES, maxBytes: 5 * 1024 * 1024, maxCount: 1 } });
    const names = [];
    for (const file of form.files.logo ?? []) names.push(await storeUpload(dir, file, 'public'));
    return { fields: form.fields, names };
  });
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function send(parts: Array<[string, string | Blob, string?]>) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  const request = new Request('http://x/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST',
    url: '/logo',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
}

describe('uploads', () => {
  it('accepts a real PNG and an SVG by content, stores and serves it', async () => {
    for (const [bytes, name] of [
      [PNG, 'logo.bin'],
      [SVG, 'logo.svg'],
    ] as const) {
      const response = await send([
        ['company', 'Fjord'],
        ['logo', new Blob([bytes]), name],
      ]);
      expect(response.statusCode).toBe(200);
      const stored = response.json().names[0];
      const served = await app.inject({ method: 'GET', url: `/uploads/${stored}` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    }
  });
  it('refuses a text file renamed .png with 415 and stores nothing', async () => {
    const before = await readdir(path.join(dir, 'public')).catch(() => []);
    const response = await send([['logo', new Blob(['just text, not an image']), 'logo.png']]);
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe('Company logo must be a PNG, JPG, GIF, WEBP, SVG file; "logo.png" is not.');
    expect(await readdir(path.join(dir, 'public')).catch(() => [])).toEqual(before);
  });
  it('refuses a file over the field limit with 413', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
    const response = await send([['logo', new Blob([big]), 'big.png']]);
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Company logo must be at most 5 MB.');
  });
  it('refuses a file over the overall limit with 413', async () => {
    const response = await send([['logo', new Blob([Buffer.alloc(11 * 1024 * 1024)]), 'huge.png']]);
    expect(response.statusCode).toBe(413);
  });
  it('refuses unexpected file fields and non-multipart bodies', async () => {
    expect((await send([['resume', new Blob([PNG]), 'a.png']])).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/logo', payload: { a: 1 } })).statusCode).toBe(415);
  });
  it('does not serve names outside the uploads area', async () => {
    expect((await app.inject({ method: 'GET', url: '/uploads/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/uploads/00000000-0000-4000-8000-000000000000.png' })).statusCode).toBe(404);
  });

  it('refuses a text field that is not valid UTF-8 with 400 naming the field, whatever charset the part claims', async () => {
    const broken = Buffer.from([0x46, 0x6a, 0xc3, 0x28, 0xff, 0xfe, 0x6f]); // "Fj" + a cut sequence + invalid bytes + "o"
    for (const declared of [undefined, 'text/plain; charset=utf-8', 'text/plain; charset=UTF-8']) {
      const response = await sendRaw([{ name: 'company', bytes: broken, contentType: declared }]);
      expect(response.statusCode, declared).toBe(400);
      expect(response.json().error.details).toEqual([{ field: 'company', message: expect.stringContaining('broken') }]);
    }
  });
  it('keeps valid UTF-8 text exactly, and refuses a text field over 100 KB instead of cutting it', async () => {
    const text = 'Zürich – 東京 😀 naïve';
    const kept = await sendRaw([{ name: 'company', bytes: Buffer.from(text) }]);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().fields).toEqual({ company: text });
    const long = await sendRaw([{ name: 'company', bytes: Buffer.alloc(100 * 1024 + 1, 'x') }]);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details).toEqual([{ field: 'company', message: expect.stringContaining('100 KB') }]);
  });
});

/** A multipart body built byte by byte, so a part can carry bytes no browser would send. */
async function sendRaw(parts: Array<{ name: string; bytes: Buffer; contentType?: string }>) {
  const boundary = '----partnerhub-raw';
  const payload = Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`,
      ),
      part.bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return app.inject({ method: 'POST', url: '/logo', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}
