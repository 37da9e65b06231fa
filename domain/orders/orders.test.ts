import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import {
  discountedPriceCents,
  formatOrderNumber,
  formatOrderTotal,
  nextStatuses,
  ORDER_MESSAGES,
  ORDER_STATUS_TRANSITIONS,
  ORDER_STATUSES,
  orders,
  SERIAL_NUMBER_PATTERN,
  serialNumbersOf,
  type CatalogueProduct,
  type OrderLine,
  type OrderCommand,
  type OrderEvent,
  type OrderStatus,
} from './orders';
import { estimatedDeliveryProblem, SHIPPING_MESSAGES, type ShippingAddress } from './shipping';

const spec = deciderSpec(orders);
const id = 'o-1';
const now = '2026-11-21T10:00:00.000Z';

const switchProduct: CatalogueProduct = { productId: 'p-1', name: 'HX-2400 Switch', priceCents: 129_950, moq: 2, stockQuantity: 5, available: true };
const psu: CatalogueProduct = { productId: 'p-2', name: 'Helix 150 W PSU', priceCents: 4_999, moq: 1, stockQuantity: 100, available: true };
const address: ShippingAddress = {
  firstName: 'Priya',
  lastName: 'Shah',
  email: 'priya@northwind.test',
  phone: '+1 555 0100',
  addressLine1: '1 Harbour Way',
  city: 'Seattle',
  state: 'WA',
  zipCode: '98101',
  country: 'United States',
};

const place = (overrides: Partial<Extract<OrderCommand, { type: 'PlaceOrder' }>> = {}): OrderCommand => ({
  type: 'PlaceOrder',
  orderId: id,
  orderNumber: 'ORD-2026-000001',
  organisationId: 'org-1',
  companyName: 'Northwind Networks',
  placedBy: 'user-1',
  lines: [
    { productId: 'p-1', quantity: 2, product: switchProduct },
    { productId: 'p-2', quantity: 3, product: psu },
  ],
  shippingAddress: address,
  estimatedDelivery: '2026-12-01',
  notes: '  Deliver to loading dock B ',
  discount: null,
  ...overrides,
});

const placed: OrderEvent = {
  type: 'OrderPlaced.v1',
  data: {
    orderId: id,
    orderNumber: 'ORD-2026-000001',
    organisationId: 'org-1',
    companyName: 'Northwind Networks',
    placedBy: 'user-1',
    items: [
      { productId: 'p-1', productName: 'HX-2400 Switch', quantity: 2, unitPriceCents: 129_950, lineTotalCents: 259_900 },
      { productId: 'p-2', productName: 'Helix 150 W PSU', quantity: 3, unitPriceCents: 4_999, lineTotalCents: 14_997 },
    ],
    totalCents: 274_897,
    shippingAddress: address,
    estimatedDelivery: '2026-12-01',
    notes: 'Deliver to loading dock B',
    status: 'pending',
    previousStatus: null,
  },
};

const shipment = { carrier: 'DHL Express', trackingNumber: '1Z 999 AA1 01' };

const changed = (previousStatus: OrderStatus, status: OrderStatus, reason: string | null = null): OrderEvent => ({
  type: 'OrderStatusChanged.v1',
  data: { orderId: id, orderNumber: 'ORD-2026-000001', organisationId: 'org-1', status, previousStatus, reason, ...(status === 'shipped' ? shipment : {}) },
});

/** The events that bring an order to `status` by the shortest allowed path. */
const historyTo: Record<OrderStatus, OrderEvent[]> = {
  pending: [placed],
  approved: [placed, changed('pending', 'approved')],
  shipped: [placed, changed('pending', 'approved'), changed('approved', 'shipped')],
  delivered: [placed, changed('pending', 'approved'), changed('approved', 'shipped'), changed('shipped', 'delivered')],
  cancelled: [placed, changed('pending', 'cancelled')],
};

/** Shipping serialises every unit of the order. */
const serialised = (to: string): OrderEvent[] =>
  to === 'shipped'
    ? [
        {
          type: 'OrderUnitsSerialised.v1',
          data: {
            orderId: id,
            orderNumber: 'ORD-2026-000001',
            organisationId: 'org-1',
            units: serialNumbersOf('ORD-2026-000001', (placed.data as { items: OrderLine[] }).items),
          },
        },
      ]
    : [];

/** Shipping names its carrier and tracking number; no other change does. */
const change = (status: string, notes: string | null = null): OrderCommand => ({
  type: 'ChangeOrderStatus',
  status,
  notes,
  ...(status === 'shipped' ? { shipment } : {}),
});

describe('orders', () => {
  describe('placing an order', () => {
    it('takes the prices from the catalogue and totals the lines', () => spec.given([]).when(place(), { now }).then([placed]));
    it('placing the same order again changes nothing', () => spec.given([placed]).when(place(), { now }).then([]));
    it('refuses an empty cart', () =>
      spec
        .given([])
        .when(place({ lines: [] }), { now })
        .thenThrows(ORDER_MESSAGES.noItems, 'VALIDATION_ERROR'));
    it('refuses a quantity below the MOQ', () =>
      spec
        .given([])
        .when(place({ lines: [{ productId: 'p-1', quantity: 1, product: switchProduct }] }), { now })
        .thenThrows('The minimum order quantity for HX-2400 Switch is 2.', 'QUANTITY_BELOW_MOQ'));
    it('refuses more than the stock', () =>
      spec
        .given([])
        .when(place({ lines: [{ productId: 'p-1', quantity: 6, product: switchProduct }] }), { now })
        .thenThrows('Only 5 units of HX-2400 Switch are in stock.', 'INSUFFICIENT_STOCK'));
    it('accepts exactly the stock', () => {
      const events = orders.decide(place({ lines: [{ productId: 'p-1', quantity: 5, product: switchProduct }] }) as never, orders.initialState(), {
        now,
        actorId: 'user-1',
        actorRole: 'partner',
        correlationId: 'c',
        causationId: null,
      });
      expect(events[0].data).toMatchObject({ totalCents: 649_750 });
    });
    it('refuses a product that is not in the catalogue', () =>
      spec
        .given([])
        .when(place({ lines: [{ productId: 'p-9', quantity: 1, product: null }] }), { now })
        .thenThrows('This product is no longer available.', 'PRODUCT_UNAVAILABLE'));
    it('refuses a removed product', () =>
      spec
        .given([])
        .when(place({ lines: [{ productId: 'p-1', quantity: 2, product: { ...switchProduct, available: false } }] }), { now })
        .thenThrows('HX-2400 Switch is no longer available.', 'PRODUCT_UNAVAILABLE'));
    it('refuses the same product twice', () =>
      spec
        .given([])
        .when(
          place({
            lines: [
              { productId: 'p-2', quantity: 1, product: psu },
              { productId: 'p-2', quantity: 1, product: psu },
            ],
          }),
          { now },
        )
        .thenThrows(ORDER_MESSAGES.duplicateProduct));
    it.each<[Partial<ShippingAddress>, string]>([
      [{ firstName: ' ' }, SHIPPING_MESSAGES.firstName],
      [{ lastName: '' }, SHIPPING_MESSAGES.lastName],
      [{ email: '' }, SHIPPING_MESSAGES.email],
      [{ email: 'priya@' }, SHIPPING_MESSAGES.emailInvalid],
      [{ phone: '' }, SHIPPING_MESSAGES.phone],
      [{ addressLine1: '' }, SHIPPING_MESSAGES.addressLine1],
      [{ city: '' }, SHIPPING_MESSAGES.city],
      [{ state: '' }, SHIPPING_MESSAGES.state],
      [{ zipCode: '' }, SHIPPING_MESSAGES.zipCode],
      [{ country: 'Narnia' }, SHIPPING_MESSAGES.countryInvalid],
    ])('refuses the address %o', (overrides, message) =>
      spec
        .given([])
        .when(place({ shippingAddress: { ...address, ...overrides } }), { now })
        .thenThrows(message, 'VALIDATION_ERROR'),
    );
    it.each([
      ['', SHIPPING_MESSAGES.estimatedDelivery],
      ['01/12/2026', SHIPPING_MESSAGES.estimatedDeliveryInvalid],
      ['2026-02-30', SHIPPING_MESSAGES.estimatedDeliveryInvalid],
      ['2026-11-19', SHIPPING_MESSAGES.estimatedDeliveryPast],
      ['2028-01-01', SHIPPING_MESSAGES.estimatedDeliveryTooFar],
    ])('refuses the delivery date %j', (estimatedDelivery, message) =>
      spec.given([]).when(place({ estimatedDelivery }), { now }).thenThrows(message, 'VALIDATION_ERROR'),
    );
    it('accepts a delivery date of the ordering day, or the day before for buyers behind UTC', () => {
      expect(estimatedDeliveryProblem('2026-11-21', now)).toBeUndefined();
      expect(estimatedDeliveryProblem('2026-11-20', now)).toBeUndefined();
    });
  });

  // Every row of the transition table of spec 001 §4, and every refusal.
  const allowed = ORDER_STATUSES.flatMap((from) => ORDER_STATUS_TRANSITIONS[from].map((to) => [from, to] as const));
  const refused = ORDER_STATUSES.flatMap((from) =>
    [...ORDER_STATUSES, 'processing', 'unknown'].filter((to) => !ORDER_STATUS_TRANSITIONS[from].includes(to as OrderStatus)).map((to) => [from, to] as const),
  );

  describe('changing the status', () => {
    it('follows the table of spec 001 §4', () => {
      expect(ORDER_STATUS_TRANSITIONS).toEqual({
        pending: ['approved', 'cancelled'],
        approved: ['shipped', 'cancelled'],
        shipped: ['delivered'],
        delivered: [],
        cancelled: [],
      });
      expect(allowed).toHaveLength(5);
    });
    it.each(allowed)('when %s, an admin moves it to %s', (from, to) =>
      spec
        .given(historyTo[from])
        .when(change(to, ' Checked stock '))
        .then([changed(from, to, 'Checked stock'), ...serialised(to)]),
    );
    it.each(allowed)('when %s, an administrator may move it to %s too', (from, to) =>
      spec
        .given(historyTo[from])
        .when(change(to), { actorRole: 'administrator' })
        .then([changed(from, to), ...serialised(to)]),
    );
    it('gives each shipped unit a serial number made of the order number, the line and the unit', () => {
      expect(serialised('shipped')[0].data).toMatchObject({
        units: [
          { serialNumber: 'SN-2026-000001-01001', productId: 'p-1', productName: 'HX-2400 Switch' },
          { serialNumber: 'SN-2026-000001-01002', productId: 'p-1', productName: 'HX-2400 Switch' },
          { serialNumber: 'SN-2026-000001-02001', productId: 'p-2', productName: 'Helix 150 W PSU' },
          { serialNumber: 'SN-2026-000001-02002', productId: 'p-2', productName: 'Helix 150 W PSU' },
          { serialNumber: 'SN-2026-000001-02003', productId: 'p-2', productName: 'Helix 150 W PSU' },
        ],
      });
      expect(SERIAL_NUMBER_PATTERN.test('SN-2026-000001-02003')).toBe(true);
    });
    it.each(refused)('when %s, moving to %s is refused', (from, to) =>
      spec
        .given(historyTo[from])
        .when(change(to))
        .thenThrows(/^Invalid status transition$/, 'INVALID_STATUS_TRANSITION'),
    );
    it.each(refused)('when %s, the refusal of %s says "Cannot change status from"', (from, to) => {
      let details: unknown;
      try {
        orders.decide(change(to), historyTo[from].reduce(orders.evolve, orders.initialState()), {
          now,
          actorId: 'a',
          actorRole: 'admin',
          correlationId: 'c',
          causationId: null,
        });
      } catch (error) {
        details = (error as { details?: unknown }).details;
      }
      expect(details).toBe(`Cannot change status from ${from} to ${to}`);
    });
    it.each(ORDER_STATUSES)('when %s, choosing the same status again is refused', (status) =>
      spec.given(historyTo[status]).when(change(status)).thenThrows(ORDER_MESSAGES.invalidTransition, 'INVALID_STATUS_TRANSITION'),
    );
    it.each(['partner', 'distributor', 'manufacturer', 'support', 'partner_user', null])('a %s may not change it', (actorRole) =>
      spec.given(historyTo.pending).when(change('approved'), { actorRole }).thenThrows(ORDER_MESSAGES.onlyAdminsChangeStatus, 'INSUFFICIENT_PERMISSIONS'),
    );
    it('shipping keeps the carrier and tracking number on the event, trimmed', () =>
      spec
        .given(historyTo.approved)
        .when({ type: 'ChangeOrderStatus', status: 'shipped', notes: null, shipment: { carrier: ' DHL Express ', trackingNumber: ' 1Z 999 AA1 01 ' } })
        .then([changed('approved', 'shipped'), ...serialised('shipped')]));
    it.each<[Partial<{ carrier: string; trackingNumber: string }> | undefined, string]>([
      [undefined, ORDER_MESSAGES.carrierRequired],
      [{ carrier: ' ', trackingNumber: '1Z999' }, ORDER_MESSAGES.carrierRequired],
      [{ carrier: 'UPS', trackingNumber: '' }, ORDER_MESSAGES.trackingNumberRequired],
      [{ carrier: 'UPS', trackingNumber: '1Z<script>' }, ORDER_MESSAGES.trackingNumberInvalid],
      [{ carrier: 'x'.repeat(61), trackingNumber: '1Z999' }, ORDER_MESSAGES.carrierTooLong],
    ])('shipping with the shipment %o is refused', (given, message) =>
      spec
        .given(historyTo.approved)
        .when({ type: 'ChangeOrderStatus', status: 'shipped', notes: null, shipment: given as never })
        .thenThrows(message, 'VALIDATION_ERROR'),
    );
    it('a carrier on any other change is refused', () =>
      spec
        .given(historyTo.pending)
        .when({ type: 'ChangeOrderStatus', status: 'approved', notes: null, shipment })
        .thenThrows(ORDER_MESSAGES.shipmentOnlyWhenShipping, 'VALIDATION_ERROR'));
    it('refuses an unknown order', () => spec.given([]).when(change('approved')).thenThrows(ORDER_MESSAGES.notFound, 'NOT_FOUND'));
    it('delivered and cancelled are terminal', () => {
      expect(nextStatuses('delivered')).toEqual([]);
      expect(nextStatuses('cancelled')).toEqual([]);
      expect(nextStatuses('processing')).toEqual([]);
    });
  });
});

describe('the programme tier’s catalogue discount', () => {
  const gold = { tierId: 't-gold', tierName: 'Gold', percent: 5 };
  it('takes the percentage off the list price, to the nearest cent', () => {
    expect(discountedPriceCents(129_950, 5)).toBe(123_453);
    expect(discountedPriceCents(4_999, 5)).toBe(4_749);
    expect(discountedPriceCents(25_000, 3)).toBe(24_250);
    expect(discountedPriceCents(25_000, 0)).toBe(25_000);
  });
  it('records the list price, the discounted price and the tier in the placed order', () => {
    spec
      .given([])
      .when(place({ discount: gold }))
      .then([
        {
          ...placed,
          data: {
            ...placed.data,
            items: [
              { productId: 'p-1', productName: 'HX-2400 Switch', quantity: 2, unitPriceCents: 123_453, lineTotalCents: 246_906, listPriceCents: 129_950 },
              { productId: 'p-2', productName: 'Helix 150 W PSU', quantity: 3, unitPriceCents: 4_749, lineTotalCents: 14_247, listPriceCents: 4_999 },
            ],
            totalCents: 261_153,
            discount: gold,
          },
        } as OrderEvent,
      ]);
  });
  it('records nothing of a tier whose discount is zero', () => {
    spec
      .given([])
      .when(place({ discount: { ...gold, percent: 0 } }))
      .then([placed]);
  });
});

describe('order formatting', () => {
  it.each([
    [0, '$0.00'],
    [999.99, '$999.99'],
    [1000, '$1.0K'],
    [12_345.67, '$12.3K'],
    [1_000_000, '$1.0M'],
    [2_750_000, '$2.8M'],
  ])('this month total %d → %s', (amount, text) => expect(formatOrderTotal(amount)).toBe(text));
  it('numbers orders by year', () => expect(formatOrderNumber('2026-03-04T00:00:00Z', 123)).toBe('ORD-2026-000123'));
  it('the status update message names the order and the status', () =>
    expect(ORDER_MESSAGES.statusUpdated('ORD-2026-000123', 'shipped')).toBe('Order ORD-2026-000123 status successfully updated to Shipped'));
});
