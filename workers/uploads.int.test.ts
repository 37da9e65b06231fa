import { randomUUID } from 'node:crypto';
import { access, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { products } from '../domain/products/products';
import { runCommand } from '../platform/commands/dispatch';
import { badgePng } from '../src/seed/partners';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers, type Workers } from '.';
import { createQueue, QUEUES, reactionJobId } from '../platform/queues';
import { REACTOR_CHECKPOINT, reactorCheckpoints } from './reactor';
import { REMOVE_UPLOAD_JOB, removeUnreferencedUpload } from './uploads';
import { isUploadReferenced } from '../projections/uploads';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>');

let t: TestPortal;
let admin: Session;
let uploadDir: string;
let workers: Workers | undefined;
let uploadsQueue: Queue;
const log: string[] = [];

beforeAll(async () => {
  // The workers are started by the tests, so a test can stop them and replay the log.
  t = await startTestPortal({
    processes: ['api', 'projector'],
    env: {
      JOB_BACKOFF_MS: '50',
      LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000',
      UPLOAD_DIR: path.join(process.env.TMPDIR ?? '/tmp', `partnerhub-uploads-${randomUUID()}`),
    },
  });
  uploadDir = t.portal.services.config.UPLOAD_DIR;
  uploadsQueue = createQueue(t.portal.services.config, QUEUES.uploads);
  workers = await startWorkers(t.portal.services, { log: (line) => log.push(line) });
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(async () => {
  await workers?.stop();
  await uploadsQueue?.close();
  await t?.close();
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
});

/** The reactor has reached the head of the log and no removal is waiting or running. */
async function settled() {
  const { pool, store } = t.portal.services;
  await vi.waitFor(
    async () => {
      expect(await reactorCheckpoints.load(pool, REACTOR_CHECKPOINT)).toEqual(await store.headPosition());
      expect(await uploadsQueue.getJobCounts('wait', 'active', 'delayed', 'prioritized')).toEqual({ wait: 0, active: 0, delayed: 0, prioritized: 0 });
    },
    { timeout: 30_000, interval: 100 },
  );
}

const onDisk = (name: string) =>
  access(path.join(uploadDir, 'public', name)).then(
    () => true,
    () => false,
  );
const served = async (name: string) => (await t.app.inject({ method: 'GET', url: `/uploads/${name}` })).statusCode;

async function multipart(fields: Record<string, string>, field: string, file?: { name: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(field, new Blob([file.bytes]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const productFields = {
  name: `HX-T${randomUUID().slice(0, 6)} Test Switch`,
  price: '249.99',
  category: 'Managed Switches',
  stock_quantity: '25',
  moq: '2',
  description: 'A switch made for tests.',
};

async function addProduct(file: { name: string; bytes: Buffer }) {
  const response = await as(
    t.app,
    admin,
  )({ method: 'POST', url: '/api/products', ...(await multipart({ ...productFields, name: `HX-T${randomUUID().slice(0, 6)} Test Switch` }, 'image', file)) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; image: string };
}

async function replaceImage(id: string, file: { name: string; bytes: Buffer }) {
  const response = await as(t.app, admin)({ method: 'PUT', url: `/api/products/${id}`, ...(await multipart(productFields, 'image', file)) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { id: string; image: string };
}

const waitUntilGone = (name: string) => vi.waitFor(async () => expect(await onDisk(name)).toBe(false), { timeout: 20_000, interval: 100 });

describe('uploads nothing refers to any more', () => {
  it("a product's replaced image is removed from disk and no longer served; the new one is", async () => {
    const created = await addProduct({ name: 'switch.png', bytes: PNG });
    expect(await onDisk(created.image)).toBe(true);
    expect(await served(created.image)).toBe(200);

    const updated = await replaceImage(created.id, { name: 'switch.svg', bytes: SVG });
    expect(updated.image).not.toBe(created.image);
    await waitUntilGone(created.image);
    expect(await served(created.image)).toBe(404);
    expect(await onDisk(updated.image)).toBe(true);
    expect(await served(updated.image)).toBe(200);
  });

  it("a deleted product's image is removed from disk and no longer served", async () => {
    const created = await addProduct({ name: 'switch.png', bytes: PNG });
    const deleted = await as(t.app, admin)({ method: 'DELETE', url: `/api/products/${created.id}` });
    expect(deleted.statusCode).toBe(200);
    await waitUntilGone(created.image);
    expect(await served(created.image)).toBe(404);
  });

  it('an edit that keeps the image keeps its file', async () => {
    const created = await addProduct({ name: 'switch.png', bytes: PNG });
    const edited = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: `/api/products/${created.id}`, ...(await multipart({ ...productFields, description: 'Edited.' }, 'image')) });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.image).toBe(created.image);
    // A later replacement's removal shows the reactor has passed the edit.
    const other = await addProduct({ name: 'other.png', bytes: PNG });
    await replaceImage(other.id, { name: 'other.svg', bytes: SVG });
    await waitUntilGone(other.image);
    expect(await onDisk(created.image)).toBe(true);
    expect(await served(created.image)).toBe(200);
  });

  it('a file another record still names is kept', async () => {
    const first = await addProduct({ name: 'shared.png', bytes: PNG });
    // A second product naming the same file (as demo data may).
    const secondId = randomUUID();
    const metadata = { now: new Date().toISOString(), actorId: admin.user.id, actorRole: 'admin', correlationId: randomUUID(), causationId: null };
    await runCommand(
      t.portal.services,
      products,
      secondId,
      {
        type: 'AddProduct',
        productId: secondId,
        name: `Shared ${secondId.slice(0, 6)}`,
        priceCents: 1000,
        category: 'Managed Switches',
        stockQuantity: 5,
        moq: 1,
        description: 'Shares an image.',
        image: first.image,
      },
      metadata,
    );
    await replaceImage(first.id, { name: 'mine.svg', bytes: SVG });
    await settled();
    const removals = (await uploadsQueue.getCompleted(0, -1)).filter((job) => job.data.name === first.image);
    expect(removals.map((job) => job.returnvalue)).toEqual(['still referenced']);
    expect(await onDisk(first.image)).toBe(true);
    expect(await served(first.image)).toBe(200);
  });

  it("an applicant's replaced company logo is removed", async () => {
    const email = `applicant.${randomUUID().slice(0, 8)}@example.test`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/user/register/',
      payload: { email, password: 'Welcome2026', full_name: 'Fjord Networks', company_name: 'Fjord Networks' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { onboardingToken, data } = registered.json();
    const submit = async (bytes: Buffer) => {
      const body = await multipart({ company_name: 'Fjord Networks', user_id: data.id }, 'company_logo', { name: 'logo.png', bytes });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/partner/onboarding',
        headers: { ...body.headers, authorization: `Bearer ${onboardingToken}` },
        payload: body.payload,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.company_logo as string;
    };
    const first = await submit(badgePng('#0d5ea8', '#90caf9'));
    const second = await submit(badgePng('#2e7d32', '#66bb6a'));
    await waitUntilGone(first);
    expect(await served(first)).toBe(404);
    expect(await served(second)).toBe(200);
  });

  it('removal is safe to repeat: a file already gone is no error, a file named again is kept', async () => {
    const services = t.portal.services;
    const gone = `${randomUUID()}.png`;
    await expect(removeUnreferencedUpload(services, gone, 'public')).resolves.toBe('removed');
    const product = await addProduct({ name: 'kept.png', bytes: PNG });
    expect(await isUploadReferenced(services.pool, product.image, 'public')).toBe(true);
    await expect(removeUnreferencedUpload(services, product.image, 'public')).resolves.toBe('still referenced');
    expect(await onDisk(product.image)).toBe(true);
  });

  it('a replay of the log, with the finished jobs forgotten, removes no file that is named again and fails on none already gone', async () => {
    const { pool } = t.portal.services;
    const product = await addProduct({ name: 'replay.png', bytes: PNG });
    const first = product.image;
    const second = (await replaceImage(product.id, { name: 'replay.svg', bytes: SVG })).image;
    await waitUntilGone(first);
    // The first file comes back (restored from a backup, say) and the product names it once more.
    await writeFile(path.join(uploadDir, 'public', first), PNG);
    await runCommand(
      t.portal.services,
      products,
      product.id,
      {
        type: 'UpdateProduct',
        name: productFields.name,
        priceCents: 24999,
        category: 'Managed Switches',
        stockQuantity: 25,
        moq: 2,
        description: 'Named again.',
        image: first,
      },
      { now: new Date().toISOString(), actorId: admin.user.id, actorRole: 'admin', correlationId: randomUUID(), causationId: null },
    );
    await waitUntilGone(second);
    await settled();
    const named = (await pool.query<{ image: string }>('SELECT image FROM read.products WHERE image IS NOT NULL')).rows.map((row) => row.image);
    expect(named).toContain(first);

    await workers!.stop();
    await uploadsQueue.clean(0, 10_000, 'completed');
    await pool.query('DELETE FROM subscription_checkpoints WHERE name = $1', [REACTOR_CHECKPOINT]);
    workers = await startWorkers(t.portal.services, { log: (line) => log.push(line) });
    await settled();

    // The removal asked for when the first file was dropped ran again and kept it.
    const replayed = (await uploadsQueue.getCompleted(0, -1)).filter((job) => job.data.name === first);
    expect(replayed.map((job) => job.returnvalue)).toEqual(['still referenced']);
    expect(replayed[0].id).toBe(reactionJobId(replayed[0].data.cause.eventId, REMOVE_UPLOAD_JOB, first));
    expect(await uploadsQueue.getFailedCount()).toBe(0);
    for (const name of named) expect(await onDisk(name), name).toBe(true);
    expect(await served(first)).toBe(200);
    expect(await served(second)).toBe(404);
  });
});
