import { ORDER_LIST_MESSAGES } from './orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold } from '../../domain/decider';
import { products, type ProductEvent } from '../../domain/products/products';
import { ORDER_STATUSES, ORDER_STATUS_TRANSITIONS } from '../../domain/orders/orders';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partnerA: Session;
let partnerB: Session;
let teamMemberA: Session;
let distributor: Session;
let manufacturer: Session;
let support: Session;
const password = 'Partner2026';

beforeAll(async () => {
  t = await startTestPortal({ env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', JOB_BACKOFF_MS: '50' } });
  [admin, partnerA, teamMemberA, distributor, manufacturer] = await Promise.all(
    ['admin', 'partner', 'partner.user', 'distributor', 'manufacturer'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
  // A second partner organisation: registers itself, then an admin activates it with the partner permissions.
  const email = `fjord.${Date.now()}@example.test`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { full_name: 'Ingrid Berg', email, password, company_name: 'Fjord Networks' },
  });
  const id = registered.json().data.id;
  const activated = await as(
    t.app,
    admin,
  )({
    method: 'PUT',
    url: `/api/users/${id}`,
    payload: {
      full_name: 'Ingrid Berg',
      email,
      role: 'partner',
      is_active: true,
      permissions: ['Orders.Read', 'Orders.Track', 'Orders.Browse', 'Orders.Checkout', 'Orders.Shipping'],
    },
  });
  expect(activated.statusCode).toBe(200);
  partnerB = await login(t.app, email, password);
  // A support colleague allowed to read orders: support sees every organisation's.
  const jordan = (await as(t.app, admin)({ method: 'GET', url: '/api/users?search=jordan.lee' })).json().data.users[0];
  await as(
    t.app,
    admin,
  )({
    method: 'PUT',
    url: `/api/users/${jordan.id}`,
    payload: { full_name: jordan.full_name, email: jordan.email, role: 'support', is_active: true, permissions: ['Support.Read', 'Orders.Read'] },
  });
  support = await login(t.app, 'jordan.lee@partnerhub.test');
});
afterAll(() => t?.close());

const call = (session: Session | undefined) => as(t.app, session);
const unique = () => Math.random().toString(36).slice(2, 8);
const tomorrow = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

/** A multipart body as a browser sends it. */
async function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const productFields = (name: string, fields: { price?: string; stock?: number; moq?: number }) => ({
  name,
  price: fields.price ?? '100.00',
  category: 'Managed Switches',
  stock_quantity: String(fields.stock ?? 50),
  moq: String(fields.moq ?? 1),
  description: 'For order tests.',
});

async function addProduct(fields: { price?: string; stock?: number; moq?: number } = {}) {
  const response = await call(admin)({
    method: 'POST',
    url: '/api/products',
    ...(await multipart(productFields(`HX-O${unique()} Order Test Switch`, fields))),
  });
  expect(response.statusCode).toBe(201);
  return response.json().data as { id: string; name: string; price: number; stock_quantity: number };
}

async function setStock(product: { id: string; name: string }, stock: number) {
  const response = await call(admin)({ method: 'PUT', url: `/api/products/${product.id}`, ...(await multipart(productFields(product.name, { stock }))) });
  expect(response.statusCode).toBe(200);
}

const address = {
  firstName: 'Priya',
  lastName: 'Shah',
  email: 'priya@northwind.test',
  phone: '+1 206 555 0142',
  addressLine1: '410 Harbour Steps',
  city: 'Seattle',
  state: 'WA',
  zipCode: '98101',
  country: 'United States',
};

const orderBody = (items: Array<{ product_id: string; quantity: number; unit_price?: number }>, overrides: Record<string, unknown> = {}) => ({
  partner_id: undefined as unknown,
  estimated_delivery: tomorrow(),
  notes: 'Test order',
  items,
  shipping_address: address,
  ...overrides,
});

const placeOrder = (session: Session, body: ReturnType<typeof orderBody>, headers: Record<string, string> = {}) =>
  call(session)({ method: 'POST', url: '/api/orders', payload: body, headers });

const stockOf = async (productId: string) => (await call(admin)({ method: 'GET', url: `/api/products/${productId}` })).json().data.stock_quantity as number;

async function productState(productId: string) {
  const events = await t.portal.services.store.readStream(products.streamId(productId));
  return fold(products, events as unknown as ProductEvent[]);
}

/** Shipping names a carrier and a tracking number; no other change does. */
const shipment = { carrier: 'DHL Express', tracking_number: 'JD014600006281' };
const changeStatus = (session: Session, id: string, status: string, notes?: string) =>
  call(session)({
    method: 'PUT',
    url: `/api/orders/admin/${id}/status`,
    payload: { status, ...(notes === undefined ? {} : { notes }), ...(status === 'shipped' ? shipment : {}) },
  });

describe('placing an order', () => {
  it('takes the unit price from the catalogue, never from the client, and shows the order at once', async () => {
    const product = await addProduct({ price: '129.95', stock: 30, moq: 2 });
    const response = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 3, unit_price: 0.01 }], { partner_id: partnerA.user.id }));
    expect(response.statusCode).toBe(201);
    const { success, message, data } = response.json();
    expect({ success, message }).toEqual({ success: true, message: 'Order created successfully!' });
    expect(data).toMatchObject({
      status: 'pending',
      total_amount: 389.85,
      partner: { company_name: 'Northwind Networks' },
      items: [{ product_id: product.id, product_name: product.name, quantity: 3, unit_price: 129.95, line_total: 389.85 }],
      shipping_address: address,
      estimated_delivery: tomorrow(),
      notes: 'Test order',
      next_statuses: ['approved', 'cancelled'],
    });
    expect(data.order_number).toMatch(/^ORD-\d{4}-\d{6}$/);
    expect(data.order_id).toBe(data.order_number);
    expect(await stockOf(product.id)).toBe(27);
    const listed = (await call(partnerA)({ method: 'GET', url: `/api/orders?search=${data.order_number}` })).json().data;
    expect(listed.orders.map((o: { id: string }) => o.id)).toEqual([data.id]);
    expect(listed.total).toBe(1);
  });

  it('refuses a quantity below the MOQ and above the stock, leaving the stock as it was', async () => {
    const product = await addProduct({ stock: 5, moq: 2 });
    const below = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }]));
    expect(below.statusCode).toBe(400);
    expect(below.json().error).toMatchObject({ code: 'QUANTITY_BELOW_MOQ', message: `The minimum order quantity for ${product.name} is 2.` });
    const above = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 6 }]));
    expect(above.statusCode).toBe(409);
    expect(above.json().error).toMatchObject({ code: 'INSUFFICIENT_STOCK', message: `Only 5 units of ${product.name} are in stock.` });
    expect(await stockOf(product.id)).toBe(5);
    const mine = (await call(admin)({ method: 'GET', url: `/api/orders?limit=100&search=${encodeURIComponent('Northwind')}` })).json().data.orders;
    expect(mine.some((o: { items: Array<{ product_id: string }> }) => o.items.some((i) => i.product_id === product.id))).toBe(false);
  });

  it('20 concurrent orders against a stock of 5 sell exactly 5 units and leave no reservation behind', async () => {
    // Each order also takes one unit of a plentiful product, reserved first: the refused orders must give it back.
    const [first, second] = [await addProduct({ stock: 100 }), await addProduct({ stock: 100 })].sort((a, b) => a.id.localeCompare(b.id));
    const plentiful = first;
    const scarce = second;
    await setStock(scarce, 5);
    expect(await stockOf(scarce.id)).toBe(5);

    const buyers = [partnerA, partnerB, distributor];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        placeOrder(
          buyers[i % 3],
          orderBody([
            { product_id: plentiful.id, quantity: 1 },
            { product_id: scarce.id, quantity: 1 },
          ]),
        ),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(15);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json().error.code).toBe('INSUFFICIENT_STOCK');

    expect(await stockOf(scarce.id)).toBe(0);
    expect(await stockOf(plentiful.id)).toBe(95);
    const scarceState = await productState(scarce.id);
    const plentifulState = await productState(plentiful.id);
    const placedIds = answers
      .filter((a) => a.statusCode === 201)
      .map((a) => a.json().data.id)
      .sort();
    expect(Object.keys(scarceState.status === 'none' ? {} : scarceState.reservations).sort()).toEqual(placedIds);
    expect(Object.keys(plentifulState.status === 'none' ? {} : plentifulState.reservations).sort()).toEqual(placedIds);
    const { rows } = await t.db.pool.query<{ orders: string; units: string }>(
      'SELECT count(DISTINCT order_id) AS orders, sum(quantity) AS units FROM read.order_items WHERE product_id = $1',
      [scarce.id],
    );
    expect(rows[0]).toEqual({ orders: '5', units: '5' });
  });

  it('a retry with the same Idempotency-Key places one order', async () => {
    const product = await addProduct({ stock: 10 });
    const key = `checkout-${unique()}-${unique()}`;
    const first = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 2 }]), { 'idempotency-key': key });
    const again = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 2 }]), { 'idempotency-key': key });
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await stockOf(product.id)).toBe(8);
  });

  it('is placed for the caller’s organisation: a team member’s order belongs to the parent, and partner_id cannot name another', async () => {
    const product = await addProduct();
    const forOther = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }], { partner_id: partnerB.user.id }));
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().message).toBe('Orders can only be placed for your own organisation.');
    expect(await stockOf(product.id)).toBe(50);
  });

  it.each([
    [{ items: [] }, 'items', 'Please add items to cart before proceeding to checkout'],
    [{ shipping_address: { ...address, firstName: '' } }, 'shipping_address.firstName', 'First name is required'],
    [{ shipping_address: { ...address, email: 'nobody' } }, 'shipping_address.email', 'Please enter a valid email'],
    [
      { shipping_address: { ...address, country: 'Narnia' } },
      'shipping_address.country',
      'Country must be one of: United States, Canada, United Kingdom, Australia, Germany, France, Japan, Other',
    ],
    [{ estimated_delivery: undefined }, 'estimated_delivery', 'Delivery date is required'],
    [{ estimated_delivery: '2001-01-01' }, 'estimated_delivery', 'Delivery date cannot be in the past'],
  ])('refuses %o', async (overrides, field, message) => {
    const product = await addProduct();
    const response = await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }], overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(expect.arrayContaining([{ field, message }]));
    expect(await stockOf(product.id)).toBe(50);
  });

  it('refuses unknown fields, an unknown product and a fractional quantity', async () => {
    const product = await addProduct();
    expect((await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }], { discount: 50 }))).statusCode).toBe(400);
    expect((await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1.5 }]))).statusCode).toBe(400);
    const unknown = await placeOrder(partnerA, orderBody([{ product_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }]));
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().error.code).toBe('PRODUCT_UNAVAILABLE');
  });

  it('needs Orders.Checkout (or Orders.Create) and Orders.Shipping', async () => {
    const product = await addProduct();
    for (const session of [teamMemberA, manufacturer, support]) {
      const response = await placeOrder(session, orderBody([{ product_id: product.id, quantity: 1 }]));
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
    expect((await placeOrder(undefined as unknown as Session, orderBody([{ product_id: product.id, quantity: 1 }]))).statusCode).toBe(401);
  });
});

describe('who sees which orders', () => {
  let orderA: { id: string; order_number: string };
  let orderB: { id: string; order_number: string };
  beforeAll(async () => {
    const product = await addProduct({ stock: 20 });
    orderA = (await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }]))).json().data;
    orderB = (await placeOrder(partnerB, orderBody([{ product_id: product.id, quantity: 1 }]))).json().data;
  });

  const listIds = async (session: Session) => {
    const response = await call(session)({ method: 'GET', url: '/api/orders?limit=100' });
    expect(response.statusCode).toBe(200);
    return response.json().data.orders.map((o: { id: string }) => o.id) as string[];
  };

  it.each([
    ['partner A', () => partnerA, true, false],
    ['partner A’s team member', () => teamMemberA, true, false],
    ['partner B', () => partnerB, false, true],
    ['a distributor', () => distributor, false, false],
    ['an admin', () => admin, true, true],
    ['a manufacturer', () => manufacturer, true, true],
    ['support (with Orders.Read)', () => support, true, true],
  ])('%s: list, read, track and history', async (_who, session, seesA, seesB) => {
    const ids = await listIds(session());
    expect(ids.includes(orderA.id)).toBe(seesA);
    expect(ids.includes(orderB.id)).toBe(seesB);
    for (const [order, sees] of [
      [orderA, seesA],
      [orderB, seesB],
    ] as const) {
      for (const url of [`/api/orders/${order.id}`, `/api/orders/${order.order_number}`, `/api/orders/${order.id}/history`]) {
        expect((await call(session())({ method: 'GET', url })).statusCode, url).toBe(sees ? 200 : 404);
      }
      const tracked = await call(session())({ method: 'GET', url: `/api/orders/${order.id}/track` });
      // Tracking needs Orders.Track, which support was not given.
      expect(tracked.statusCode).toBe(session() === support ? 403 : sees ? 200 : 404);
    }
  });

  it('search by order id or company finds only the caller’s own orders', async () => {
    const byCompany = (await call(partnerA)({ method: 'GET', url: '/api/orders?search=fjord' })).json().data.orders;
    expect(byCompany).toEqual([]);
    const byNumber = (await call(partnerA)({ method: 'GET', url: `/api/orders?search=${orderB.order_number}` })).json().data.orders;
    expect(byNumber).toEqual([]);
    const adminByCompany = (await call(admin)({ method: 'GET', url: '/api/orders?search=FJORD' })).json().data.orders;
    expect(adminByCompany.map((o: { id: string }) => o.id)).toContain(orderB.id);
    const adminById = (await call(admin)({ method: 'GET', url: `/api/orders?search=${orderB.id}` })).json().data.orders;
    expect(adminById.map((o: { id: string }) => o.id)).toContain(orderB.id);
    // A whole number is looked up (any case, spaces around it); part of one is still searched for.
    const whole = (await call(admin)({ method: 'GET', url: `/api/orders?search=${encodeURIComponent(` ${orderB.order_number.toLowerCase()} `)}` })).json().data
      .orders;
    expect(whole.map((o: { id: string }) => o.id)).toEqual([orderB.id]);
    const part = (await call(admin)({ method: 'GET', url: `/api/orders?limit=100&search=${orderB.order_number.slice(0, -2)}` })).json().data.orders;
    expect(part.map((o: { id: string }) => o.id)).toContain(orderB.id);
  });

  it('answers react-admin lists too', async () => {
    const response = await call(partnerA)({
      method: 'GET',
      url: `/api/orders?sort=${encodeURIComponent('["created_at","DESC"]')}&range=${encodeURIComponent('[0,4]')}&filter=${encodeURIComponent('{"status":"pending"}')}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-range']).toMatch(/^orders 0-\d+\/\d+$/);
    expect(
      response
        .json()
        .every((o: { status: string; partner: { company_name: string } }) => o.status === 'pending' && o.partner.company_name === 'Northwind Networks'),
    ).toBe(true);
  });

  it('no one but an admin changes a status, not even of their own order', async () => {
    for (const session of [partnerA, partnerB, teamMemberA, distributor, manufacturer, support]) {
      for (const order of [orderA, orderB]) {
        const response = await changeStatus(session, order.id, 'approved');
        expect(response.statusCode).toBe(403);
      }
    }
    expect((await call(admin)({ method: 'GET', url: `/api/orders/${orderA.id}` })).json().data.status).toBe('pending');
  });
});

describe('changing the status', () => {
  it('an admin moves an order pending → approved → shipped → delivered; history, tracking and notifications follow', async () => {
    const product = await addProduct({ stock: 10 });
    const order = (await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 2 }]))).json().data;
    for (const [status, notes] of [
      ['approved', 'Stock confirmed'],
      ['shipped', 'Tracking 1Z999'],
      ['delivered', ''],
    ] as const) {
      const response = await changeStatus(admin, order.id, status, notes);
      expect(response.statusCode).toBe(200);
      const label = status.charAt(0).toUpperCase() + status.slice(1);
      expect(response.json()).toMatchObject({
        success: true,
        message: `Order ${order.order_number} status successfully updated to ${label}`,
        details: expect.stringContaining(`to ${status}`),
        data: { status },
      });
    }
    const history = (await call(partnerA)({ method: 'GET', url: `/api/orders/${order.id}/history` })).json().data;
    expect(history.map((h: { from_status: string | null; to_status: string; reason: string | null }) => [h.from_status, h.to_status, h.reason])).toEqual([
      [null, 'pending', null],
      ['pending', 'approved', 'Stock confirmed'],
      ['approved', 'shipped', 'Tracking 1Z999'],
      ['shipped', 'delivered', null],
    ]);
    expect(history[1]).toMatchObject({ actor_name: 'Alex Morgan', actor_role: 'admin' });
    const tracked = (await call(partnerA)({ method: 'GET', url: `/api/orders/${order.order_number}/track` })).json().data;
    expect(tracked.order).toMatchObject({ id: order.id, status: 'delivered', next_statuses: [] });
    expect(tracked.order.delivery_date).toEqual(expect.any(String));
    expect(tracked.timeline).toHaveLength(4);
    // The ordering organisation is told of each change (the worker delivers notifications).
    await expect
      .poll(
        async () =>
          (await call(partnerA)({ method: 'GET', url: '/api/notifications?limit=50' }))
            .json()
            .data.notifications.filter((n: { link: string }) => n.link === `/order/track/${order.id}`).length,
        { timeout: 15_000 },
      )
      .toBe(3);
    const notes = (await call(partnerA)({ method: 'GET', url: '/api/notifications?limit=50' })).json().data.notifications;
    expect(notes.map((n: { title: string }) => n.title)).toContain(`Order ${order.order_number}: Shipped`);
    // The carrier and tracking number travel on the event: the order, the tracking page and the notification show them.
    expect(tracked.order).toMatchObject({ carrier: 'DHL Express', tracking_number: 'JD014600006281' });
    expect(notes.find((n: { title: string }) => n.title === `Order ${order.order_number}: Shipped`).body).toContain(
      'Carrier: DHL Express, tracking number JD014600006281.',
    );
    // Partner B hears nothing of it.
    const others = (await call(partnerB)({ method: 'GET', url: '/api/notifications?limit=50' })).json().data.notifications;
    expect(others.some((n: { link: string }) => n.link === `/order/track/${order.id}`)).toBe(false);
  });

  it('refuses every transition the table does not allow, with the messages the client reads', async () => {
    const product = await addProduct({ stock: 30 });
    for (const from of ORDER_STATUSES) {
      const order = (await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }]))).json().data;
      const path = {
        pending: [],
        approved: ['approved'],
        shipped: ['approved', 'shipped'],
        delivered: ['approved', 'shipped', 'delivered'],
        cancelled: ['cancelled'],
      }[from];
      for (const step of path) expect((await changeStatus(admin, order.id, step)).statusCode).toBe(200);
      for (const to of [...ORDER_STATUSES, 'processing'].filter((s) => !(ORDER_STATUS_TRANSITIONS[from] as readonly string[]).includes(s))) {
        const response = await changeStatus(admin, order.id, to);
        expect(response.statusCode, `${from} → ${to}`).toBe(409);
        expect(response.json()).toEqual({
          success: false,
          message: 'Invalid status transition',
          details: `Cannot change status from ${from} to ${to}`,
          error: { code: 'INVALID_STATUS_TRANSITION', message: 'Invalid status transition', details: `Cannot change status from ${from} to ${to}` },
        });
      }
      expect((await call(admin)({ method: 'GET', url: `/api/orders/${order.id}` })).json().data.status).toBe(from);
    }
  });

  it('cancelling gives the stock back; an unknown order is 404; a bad body is 400', async () => {
    const product = await addProduct({ stock: 10 });
    const order = (await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 4 }]))).json().data;
    expect(await stockOf(product.id)).toBe(6);
    await changeStatus(admin, order.id, 'approved');
    const cancelled = await changeStatus(admin, order.id, 'cancelled', 'Customer withdrew');
    expect(cancelled.json()).toMatchObject({ success: true, data: { status: 'cancelled' } });
    expect(await stockOf(product.id)).toBe(10);
    expect((await changeStatus(admin, order.id, 'cancelled')).statusCode).toBe(409);
    expect(await stockOf(product.id)).toBe(10);
    expect((await changeStatus(admin, '00000000-0000-4000-8000-000000000000', 'approved')).statusCode).toBe(404);
    expect((await call(admin)({ method: 'PUT', url: `/api/orders/admin/${order.id}/status`, payload: { notes: 'x' } })).statusCode).toBe(400);
    expect((await call(admin)({ method: 'PUT', url: '/api/orders/admin/not-an-id/status', payload: { status: 'approved' } })).statusCode).toBe(400);
  });
});

describe('shipping details', () => {
  it('shipping without a carrier or tracking number is refused with field messages; other changes refuse them', async () => {
    const product = await addProduct({ stock: 10 });
    const order = (await placeOrder(partnerA, orderBody([{ product_id: product.id, quantity: 1 }]))).json().data;
    const put = (payload: Record<string, unknown>) => call(admin)({ method: 'PUT', url: `/api/orders/admin/${order.id}/status`, payload });
    const withCarrier = await put({ status: 'approved', carrier: 'UPS', tracking_number: '1Z999' });
    expect(withCarrier.statusCode).toBe(400);
    expect((await put({ status: 'approved' })).statusCode).toBe(200);
    const bare = await put({ status: 'shipped' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.details).toEqual([
      { field: 'carrier', message: 'Carrier is required to ship an order' },
      { field: 'tracking_number', message: 'Tracking number is required to ship an order' },
    ]);
    expect((await put({ status: 'shipped', carrier: 'UPS', tracking_number: '<b>' })).json().message).toBe(
      'Tracking number may hold only letters, digits, spaces and dashes (3 to 60 characters)',
    );
    expect((await call(admin)({ method: 'GET', url: `/api/orders/${order.id}` })).json().data).toMatchObject({
      status: 'approved',
      carrier: null,
      tracking_number: null,
    });
    expect((await put({ status: 'shipped', carrier: ' UPS ', tracking_number: '1Z 999 AA1' })).json().data).toMatchObject({
      status: 'shipped',
      carrier: 'UPS',
      tracking_number: '1Z 999 AA1',
    });
  });
});

describe('the orders list', () => {
  let organisationB = '';
  const placed: Array<{ id: string; order_number: string; total_amount: number; created_at: string }> = [];
  beforeAll(async () => {
    const product = await addProduct({ price: '1000.00', stock: 100 });
    for (const quantity of [1, 3, 7]) placed.push((await placeOrder(partnerB, orderBody([{ product_id: product.id, quantity }]))).json().data);
    await changeStatus(admin, placed[2].id, 'approved');
    organisationB = (await call(partnerB)({ method: 'GET', url: `/api/orders/${placed[0].id}` })).json().data.organisation_id;
  });
  const list = async (session: Session, filter: Record<string, unknown>, sort = ['created_at', 'DESC']) => {
    const response = await call(session)({
      method: 'GET',
      url: `/api/orders?sort=${encodeURIComponent(JSON.stringify(sort))}&range=${encodeURIComponent('[0,99]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return {
      rows: response.json() as Array<{ id: string; total_amount: number; status: string; organisation_id: string }>,
      total: Number(response.headers['content-range']!.toString().split('/')[1]),
    };
  };

  it('filters by organisation, total range, date range and status, and sorts by total', async () => {
    const mine = await list(admin, { organisation_id: organisationB, total_gte: 2000, total_lte: 7000 }, ['total_amount', 'ASC']);
    expect(mine.rows.map((o) => o.id)).toEqual([placed[1].id, placed[2].id]);
    expect(mine.total).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    const todays = await list(admin, { organisation_id: organisationB, date_gte: today, date_lte: today, status: 'approved' });
    expect(todays.rows.map((o) => o.id)).toEqual([placed[2].id]);
    expect((await list(admin, { organisation_id: organisationB, date_lte: '2020-01-01' })).total).toBe(0);
    const descending = await list(admin, { organisation_id: organisationB }, ['total_amount', 'DESC']);
    expect(descending.rows.map((o) => o.total_amount)).toEqual([...descending.rows.map((o) => o.total_amount)].sort((a, b) => b - a));
  });

  it('page numbers stop after the first 10,000 orders; the cursor goes on', async () => {
    const deep = await call(admin)({ method: 'GET', url: `/api/orders?range=${encodeURIComponent('[10000,10024]')}` });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toBe(ORDER_LIST_MESSAGES.tooDeep);
    expect((await call(admin)({ method: 'GET', url: '/api/orders?page=401&limit=25' })).statusCode).toBe(400);
    expect((await call(admin)({ method: 'GET', url: '/api/orders?page=400&limit=25' })).statusCode).toBe(200);
    const first = (await call(admin)({ method: 'GET', url: '/api/orders?limit=1' })).json().data;
    expect((await call(admin)({ method: 'GET', url: `/api/orders?limit=1&after=${first.nextCursor}` })).statusCode).toBe(200);
  });

  it('an organisation filter never widens what a partner sees', async () => {
    const other = await list(partnerA, { organisation_id: organisationB });
    expect(other.total).toBe(0);
  });

  it('counts each status tab under the other filters', async () => {
    const response = await call(admin)({
      method: 'GET',
      url: `/api/orders/counts?filter=${encodeURIComponent(JSON.stringify({ organisation_id: organisationB, status: 'approved', total_gte: 2000 }))}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ all: 2, pending: 1, approved: 1, shipped: 0 });
  });

  it('counts the tabs of the list as it opens from the statistics, the same as counting the orders', async () => {
    const counts = async (session: typeof admin, filter: Record<string, unknown> = {}) =>
      (await call(session)({ method: 'GET', url: `/api/orders/counts?filter=${encodeURIComponent(JSON.stringify(filter))}` })).json().data;
    const byStatus = async (organisationId?: string) => {
      const { rows } = await t.db.pool.query<{ status: string; n: number }>(
        `SELECT CASE WHEN status = 'processing' THEN 'pending' ELSE status END AS status, count(*)::int AS n FROM read.orders ${organisationId ? 'WHERE organisation_id = $1' : ''} GROUP BY 1`,
        organisationId ? [organisationId] : [],
      );
      const expected: Record<string, number> = { all: 0, pending: 0, approved: 0, shipped: 0, delivered: 0, cancelled: 0 };
      for (const row of rows) {
        expected[row.status] += row.n;
        expected.all += row.n;
      }
      return expected;
    };
    expect(await counts(admin)).toEqual(await byStatus());
    expect(await counts(admin, { organisation_id: organisationB })).toEqual(await byStatus(organisationB));
    expect(await counts(partnerA)).toEqual(await byStatus(partnerA.user.id));
    // Naming another organisation never widens a partner's counts.
    expect((await counts(partnerA, { organisation_id: organisationB })).all).toBe(0);
  });

  it('the Pending tab lists pending and processing orders, newest first', async () => {
    const listed = (await call(admin)({ method: 'GET', url: '/api/orders?status=pending&limit=100' })).json().data;
    const { rows } = await t.db.pool.query<{ id: string }>(
      "SELECT id::text FROM read.orders WHERE status IN ('pending', 'processing') ORDER BY created_at DESC, id DESC LIMIT 100",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(listed.orders.map((order: { id: string }) => order.id)).toEqual(rows.map((row) => row.id));
    expect(listed.total).toBe(Number((await t.db.pool.query("SELECT count(*) AS n FROM read.orders WHERE status IN ('pending', 'processing')")).rows[0].n));
  });

  it('exports exactly the filtered orders as CSV, in the list order', async () => {
    const response = await call(admin)({
      method: 'GET',
      url: `/api/orders/export?sort=${encodeURIComponent('["total_amount","DESC"]')}&filter=${encodeURIComponent(JSON.stringify({ organisation_id: organisationB, total_gte: 2000 }))}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'order_number,order_date,company_name,placed_by,status,units,total_amount,requested_delivery,country,shipped_at,carrier,tracking_number,delivered_at,cancelled_at,id',
    );
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([placed[2].order_number, placed[1].order_number]);
    expect(lines[1]).toContain(',Approved,7,7000.00,');
    // A partner's export holds only its own orders.
    const partners = await call(partnerA)({
      method: 'GET',
      url: `/api/orders/export?filter=${encodeURIComponent(JSON.stringify({ organisation_id: organisationB }))}`,
    });
    expect(
      partners.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
  });

  it('refuses filters it does not know or cannot read', async () => {
    for (const filter of [{ total_gte: -5 }, { total_gte: 'lots' }, { date_gte: '31/12/2026' }, { organisation_id: 'northwind' }, { colour: 'red' }]) {
      const response = await call(admin)({ method: 'GET', url: `/api/orders?filter=${encodeURIComponent(JSON.stringify(filter))}` });
      expect(response.statusCode, JSON.stringify(filter)).toBe(400);
    }
    expect((await call(admin)({ method: 'GET', url: '/api/orders?sort=%5B%22shipping_address%22%2C%22ASC%22%5D' })).statusCode).toBe(400);
  });

  it('names the organisations to filter by: all for admins, their own for a partner', async () => {
    const all = (await call(admin)({ method: 'GET', url: '/api/orders/organisations' })).json().data as Array<{ id: string; name: string }>;
    expect(all.map((o) => o.name)).toEqual(expect.arrayContaining(['Northwind Networks', 'Fjord Networks']));
    const own = (await call(partnerB)({ method: 'GET', url: '/api/orders/organisations' })).json().data;
    expect(own).toEqual([{ id: organisationB, name: 'Fjord Networks' }]);
  });

  it("prefills the shipping form from the organisation's profile", async () => {
    const profile = (await call(partnerA)({ method: 'GET', url: '/api/orders/shipping-profile' })).json().data;
    expect(profile).toMatchObject({
      company_name: 'Northwind Networks',
      profile_country: 'United Kingdom',
      address: {
        firstName: 'Priya',
        lastName: 'Shah',
        email: 'partner@partnerhub.test',
        addressLine1: '12 Harbour Exchange Square, London E14',
        city: 'London',
        state: 'Greater London',
        zipCode: 'E14 9GE',
        country: 'United Kingdom',
      },
    });
    // Only those who may send the shipping form read it: a team member without Orders.Shipping does not.
    expect((await call(teamMemberA)({ method: 'GET', url: '/api/orders/shipping-profile' })).statusCode).toBe(403);
  });
});

describe('statistics', () => {
  it('count pending, total this month ($x.xx / $x.xK) and average delivery days, per organisation', async () => {
    const before = (await call(partnerB)({ method: 'GET', url: '/api/orders/stats' })).json().data;
    const product = await addProduct({ price: '450.00', stock: 40 });
    const first = (await placeOrder(partnerB, orderBody([{ product_id: product.id, quantity: 2 }]))).json().data;
    await placeOrder(partnerB, orderBody([{ product_id: product.id, quantity: 1 }]));
    const third = (await placeOrder(partnerB, orderBody([{ product_id: product.id, quantity: 1 }]))).json().data;
    for (const status of ['approved', 'shipped', 'delivered']) await changeStatus(admin, first.id, status);
    await changeStatus(admin, third.id, 'cancelled');
    const after = (await call(partnerB)({ method: 'GET', url: '/api/orders/stats' })).json().data;
    expect(after.totalOrders - before.totalOrders).toBe(3);
    expect(after.pendingOrders - before.pendingOrders).toBe(1);
    expect(after.deliveredOrders - before.deliveredOrders).toBe(1);
    expect(after.cancelledOrders - before.cancelledOrders).toBe(1);
    expect(after.thisMonthTotal - before.thisMonthTotal).toBeCloseTo(1350, 2);
    expect(after.thisMonthTotalFormatted).toMatch(/^\$\d+\.\dK$/);
    expect(after.averageDeliveryDays).toEqual(expect.any(Number));
    // Partner A's statistics do not include partner B's orders; an admin's include both.
    const all = (await call(admin)({ method: 'GET', url: '/api/orders/stats' })).json().data;
    const mine = (await call(partnerA)({ method: 'GET', url: '/api/orders/stats' })).json().data;
    expect(all.totalOrders).toBeGreaterThanOrEqual(after.totalOrders + mine.totalOrders);
  });
});
