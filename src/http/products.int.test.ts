import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CATEGORIES, PRODUCT_MESSAGES } from '../../domain/products/products';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);

let t: TestPortal;
let admin: Session;
let partner: Session;
let support: Session;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  [admin, partner, support] = await Promise.all(['admin', 'partner', 'support'].map((name) => login(t.app, `${name}@partnerhub.test`)));
});
afterAll(() => t?.close());

const call = (session: Session | undefined) => as(t.app, session);
const unique = () => Math.random().toString(36).slice(2, 8);

/** A multipart body as a browser sends it. */
async function multipart(fields: Record<string, string>, file?: { name: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('image', new Blob([file.bytes]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const productFields = (overrides: Record<string, string> = {}) => ({
  name: `HX-T${unique()} Test Switch`,
  price: '249.99',
  category: 'Managed Switches',
  stock_quantity: '25',
  moq: '2',
  description: 'A switch made for tests.',
  ...overrides,
});

async function addProduct(overrides: Record<string, string> = {}, file?: { name: string; bytes: Buffer }, session = admin) {
  const body = await multipart(productFields(overrides), file);
  return call(session)({ method: 'POST', url: '/api/products', ...body });
}

describe('listing products', () => {
  it('answers the specification shape: a data array of the seeded catalogue', async () => {
    const response = await call(partner)({ method: 'GET', url: '/api/products?limit=100' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.data.length).toBeGreaterThanOrEqual(21);
    expect(body.total).toBe(body.data.length);
    expect(new Set(body.data.map((p: { category: string }) => p.category))).toEqual(new Set(PRODUCT_CATEGORIES));
    expect(body.data[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        name: expect.any(String),
        price: expect.any(Number),
        stock_quantity: expect.any(Number),
        moq: expect.any(Number),
        stock_status: expect.any(String),
        delivery_time: expect.any(String),
      }),
    );
    const withImage = body.data.find((p: { image: string | null }) => p.image);
    const image = await call(undefined)({ method: 'GET', url: withImage.image_url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/svg+xml');
  });

  it('answers react-admin with an array and Content-Range, sorted and filtered', async () => {
    const url = `/api/products?sort=${encodeURIComponent('["price","DESC"]')}&range=${encodeURIComponent('[0,2]')}&filter=${encodeURIComponent('{"category":"Helix Xtreme Switches"}')}`;
    const response = await call(partner)({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows.map((p: { category: string }) => p.category)).toEqual(['Helix Xtreme Switches', 'Helix Xtreme Switches', 'Helix Xtreme Switches']);
    expect(rows.map((p: { price: number }) => p.price)).toEqual([...rows.map((p: { price: number }) => p.price)].sort((a, b) => b - a));
    expect(response.headers['content-range']).toMatch(/^products 0-2\/3$/);
  });

  it.each([
    ['stock=out_of_stock', (p: { stock_quantity: number }) => p.stock_quantity === 0],
    ['stock=low_stock', (p: { stock_quantity: number }) => p.stock_quantity >= 1 && p.stock_quantity <= 10],
    ['stock=in_stock', (p: { stock_quantity: number }) => p.stock_quantity > 10],
    ['delivery=fast', (p: { stock_quantity: number }) => p.stock_quantity > 50],
    ['delivery=medium', (p: { stock_quantity: number }) => p.stock_quantity >= 11 && p.stock_quantity <= 50],
  ])('filters by %s', async (filter, holds) => {
    const rows = (await call(partner)({ method: 'GET', url: `/api/products?limit=100&${filter}` })).json().data;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every(holds)).toBe(true);
  });

  it('searches names and descriptions ignoring case, and sorts by name, moq and stock', async () => {
    const found = (await call(partner)({ method: 'GET', url: '/api/products?search=din-RAIL' })).json().data;
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const field of ['name', 'moq', 'stock_quantity']) {
      const rows = (await call(partner)({ method: 'GET', url: `/api/products?sort=${encodeURIComponent(`["${field}","ASC"]`)}&range=[0,99]` })).json();
      const values = rows.map((p: Record<string, string | number>) => (typeof p[field] === 'string' ? (p[field] as string).toLowerCase() : p[field]));
      expect(values).toEqual([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  it('needs Orders.Browse', async () => {
    expect((await call(support)({ method: 'GET', url: '/api/products' })).statusCode).toBe(403);
    expect((await call(undefined)({ method: 'GET', url: '/api/products' })).statusCode).toBe(401);
  });
});

describe('managing products (admins)', () => {
  it('adds a product with an image recognised by its content, visible at once', async () => {
    const response = await addProduct({ name: 'HX-T100 Image Switch' }, { name: 'photo.bin', bytes: PNG });
    expect(response.statusCode).toBe(201);
    const { data, message, success } = response.json();
    expect({ success, message }).toEqual({ success: true, message: 'Product added successfully!' });
    expect(data).toMatchObject({
      name: 'HX-T100 Image Switch',
      price: 249.99,
      category: 'Managed Switches',
      stock_quantity: 25,
      moq: 2,
      stock_status: 'in_stock',
      delivery_time: '1-2 weeks',
    });
    expect(data.image).toMatch(/^[0-9a-f-]{36}\.png$/);
    const served = await call(undefined)({ method: 'GET', url: `/uploads/${data.image}` });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const listed = (await call(partner)({ method: 'GET', url: '/api/products?search=HX-T100' })).json().data;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([data.id]);
  });

  it('refuses a file that is not an image, whatever its name, and stores no product', async () => {
    const name = `HX-T${unique()} Not An Image`;
    const response = await addProduct({ name }, { name: 'switch.png', bytes: Buffer.from('%PDF-1.4 not an image') });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/^Product image must be a PNG, JPG, GIF, WEBP, SVG file/);
    expect((await call(admin)({ method: 'GET', url: `/api/products?search=${encodeURIComponent(name)}` })).json().data).toEqual([]);
  });

  it('refuses an image over 10 MB', async () => {
    const response = await addProduct({}, { name: 'big.png', bytes: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]) });
    expect(response.statusCode).toBe(413);
  });

  it.each([
    [{ name: '' }, 'name', PRODUCT_MESSAGES.nameRequired],
    [{ price: '-1' }, 'price', PRODUCT_MESSAGES.priceInvalid],
    [{ price: '12.345' }, 'price', PRODUCT_MESSAGES.priceInvalid],
    [{ price: 'cheap' }, 'price', PRODUCT_MESSAGES.priceInvalid],
    [{ category: 'Routers' }, 'category', PRODUCT_MESSAGES.categoryInvalid],
    [{ category: '' }, 'category', PRODUCT_MESSAGES.categoryRequired],
    [{ stock_quantity: '-3' }, 'stock_quantity', PRODUCT_MESSAGES.stockInvalid],
    [{ moq: '0' }, 'moq', PRODUCT_MESSAGES.moqInvalid],
    [{ description: ' ' }, 'description', PRODUCT_MESSAGES.descriptionRequired],
    [{ colour: 'blue' }, 'colour', 'Unknown field: colour. Remove it and try again.'],
  ])('%o → %s: %s', async (overrides, field, message) => {
    const response = await addProduct(overrides);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(expect.arrayContaining([{ field, message }]));
  });

  it('refuses JSON bodies', async () => {
    const response = await call(admin)({ method: 'POST', url: '/api/products', payload: productFields() });
    expect(response.statusCode).toBe(415);
  });

  it('edits a product and keeps its image unless a new one is sent', async () => {
    const created = (await addProduct({}, { name: 'a.png', bytes: PNG })).json().data;
    const edited = await call(admin)({
      method: 'PUT',
      url: `/api/products/${created.id}`,
      ...(await multipart(productFields({ name: 'HX-T200 Renamed', price: '199', stock_quantity: '0', moq: '1' }))),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      success: true,
      message: 'Product updated successfully!',
      data: {
        name: 'HX-T200 Renamed',
        price: 199,
        stock_quantity: 0,
        moq: 1,
        image: created.image,
        stock_status: 'out_of_stock',
        delivery_time: 'Out of Stock',
      },
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"></svg>');
    const replaced = await call(admin)({
      method: 'PUT',
      url: `/api/products/${created.id}`,
      ...(await multipart(productFields({ name: 'HX-T200 Renamed' }), { name: 'x.svg', bytes: svg })),
    });
    expect(replaced.json().data.image).toMatch(/\.svg$/);
  });

  it('deletes a product', async () => {
    const created = (await addProduct()).json().data;
    const deleted = await call(admin)({ method: 'DELETE', url: `/api/products/${created.id}` });
    expect(deleted.json()).toMatchObject({ success: true, message: 'Product deleted successfully!' });
    expect((await call(admin)({ method: 'GET', url: `/api/products/${created.id}` })).statusCode).toBe(404);
    expect((await call(admin)({ method: 'DELETE', url: `/api/products/${created.id}` })).statusCode).toBe(404);
  });

  it('refuses non-admins every change', async () => {
    const created = (await addProduct()).json().data;
    for (const session of [partner, support]) {
      expect((await addProduct({}, undefined, session)).statusCode).toBe(403);
      expect((await call(session)({ method: 'PUT', url: `/api/products/${created.id}`, ...(await multipart(productFields())) })).statusCode).toBe(403);
      expect((await call(session)({ method: 'DELETE', url: `/api/products/${created.id}` })).statusCode).toBe(403);
    }
    expect((await call(admin)({ method: 'GET', url: `/api/products/${created.id}` })).json().data.name).toBe(created.name);
  });
});

describe('deleting several products at once (admins)', () => {
  const bulkDelete = (payload: Record<string, unknown>, session = admin) => call(session)({ method: 'POST', url: '/api/products/bulk-delete', payload });
  const exists = async (id: string) => (await call(admin)({ method: 'GET', url: `/api/products/${id}` })).statusCode === 200;

  it('removes every chosen product, one removal each, and says how many', async () => {
    const [a, b] = await Promise.all([addProduct(), addProduct()]).then((answers) => answers.map((answer) => answer.json().data));
    const response = await bulkDelete({ ids: [a.id, b.id] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: '2 products deleted.', data: { deleted: [a.id, b.id], unchanged: [] } });
    expect(await exists(a.id)).toBe(false);
    expect(await exists(b.id)).toBe(false);
  });

  it('counts products removed earlier as done, so a retried request finishes the job', async () => {
    const [a, b] = await Promise.all([addProduct(), addProduct()]).then((answers) => answers.map((answer) => answer.json().data));
    expect((await call(admin)({ method: 'DELETE', url: `/api/products/${a.id}` })).statusCode).toBe(200);
    const response = await bulkDelete({ ids: [a.id, b.id] });
    expect(response.json()).toMatchObject({ message: '1 product deleted.', data: { deleted: [b.id], unchanged: [a.id] } });
    expect((await bulkDelete({ ids: [a.id, b.id] })).json().message).toBe('No product deleted: the chosen products were already deleted.');
  });

  it('removes nothing when one id is unknown, and names that row', async () => {
    const a = (await addProduct()).json().data;
    const missing = '00000000-0000-4000-8000-000000000001';
    const response = await bulkDelete({ ids: [a.id, missing] });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('No product was deleted: Product not found.');
    expect(response.json().error.rows).toEqual([{ id: missing, message: 'Product not found.' }]);
    expect(await exists(a.id)).toBe(true);
  });

  it('explains a bad list of ids', async () => {
    expect((await bulkDelete({ ids: [] })).json().message).toContain('Choose at least one product.');
    const many = Array.from({ length: 101 }, (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
    expect((await bulkDelete({ ids: many })).json().message).toContain('Choose at most 100 products at a time.');
    const a = (await addProduct()).json().data;
    const twice = await bulkDelete({ ids: [a.id, a.id] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('A product is listed twice.');
    expect((await bulkDelete({ ids: ['not-an-id'] })).json().message).toContain('Each product id must be a valid id.');
  });

  it('is refused to non-admins, like deleting one product', async () => {
    const a = (await addProduct()).json().data;
    for (const session of [partner, support]) expect((await bulkDelete({ ids: [a.id] }, session)).statusCode).toBe(403);
    expect(await exists(a.id)).toBe(true);
  });
});
