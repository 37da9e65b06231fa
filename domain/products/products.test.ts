import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { deliveryTime, PRODUCT_CATEGORIES, PRODUCT_MESSAGES, products, stockStatus, type ProductCommand, type ProductEvent } from './products';
import { formatUsd, parsePriceCents } from '../money';

const spec = deciderSpec(products);
const id = 'p-1';

const add: Extract<ProductCommand, { type: 'AddProduct' }> = {
  type: 'AddProduct',
  productId: id,
  name: 'HX-2400 24-port Managed Switch',
  priceCents: 129_900,
  category: 'Managed Switches',
  stockQuantity: 5,
  moq: 2,
  description: '24 gigabit ports, 4 SFP+ uplinks.',
  image: null,
};
const added: ProductEvent = {
  type: 'ProductAdded.v1',
  data: {
    productId: id,
    name: add.name,
    priceCents: 129_900,
    category: 'Managed Switches',
    stockQuantity: 5,
    moq: 2,
    description: add.description,
    image: null,
  },
};
const reserved = (orderId: string, quantity: number, stockQuantity: number): ProductEvent => ({
  type: 'StockReserved.v1',
  data: { productId: id, orderId, quantity, stockQuantity },
});
const released = (orderId: string, quantity: number, stockQuantity: number): ProductEvent => ({
  type: 'StockReleased.v1',
  data: { productId: id, orderId, quantity, stockQuantity },
});
const removed: ProductEvent = { type: 'ProductRemoved.v1', data: { productId: id } };
const update = (overrides: Partial<Extract<ProductCommand, { type: 'UpdateProduct' }>> = {}): ProductCommand => ({
  type: 'UpdateProduct',
  name: add.name,
  priceCents: add.priceCents,
  category: add.category,
  stockQuantity: add.stockQuantity,
  moq: add.moq,
  description: add.description,
  ...overrides,
});

describe('products', () => {
  describe('when no product exists', () => {
    it('adds a product, trimming its texts', () =>
      spec
        .given([])
        .when({ ...add, name: `  ${add.name} ` })
        .then([added]));
    it.each<[Partial<typeof add>, string]>([
      [{ name: '  ' }, PRODUCT_MESSAGES.nameRequired],
      [{ priceCents: -1 }, PRODUCT_MESSAGES.priceInvalid],
      [{ priceCents: 10.5 }, PRODUCT_MESSAGES.priceInvalid],
      [{ category: 'Routers' as never }, PRODUCT_MESSAGES.categoryInvalid],
      [{ category: '' as never }, PRODUCT_MESSAGES.categoryRequired],
      [{ stockQuantity: -1 }, PRODUCT_MESSAGES.stockInvalid],
      [{ stockQuantity: 1.5 }, PRODUCT_MESSAGES.stockInvalid],
      [{ moq: 0 }, PRODUCT_MESSAGES.moqInvalid],
      [{ description: '' }, PRODUCT_MESSAGES.descriptionRequired],
    ])('refuses %o', (overrides, message) =>
      spec
        .given([])
        .when({ ...add, ...overrides })
        .thenThrows(message, 'VALIDATION_ERROR'),
    );
    it('accepts a price of 0 and a stock of 0', () =>
      spec
        .given([])
        .when({ ...add, priceCents: 0, stockQuantity: 0 })
        .then([{ ...added, data: { ...added.data, priceCents: 0, stockQuantity: 0 } } as ProductEvent]));
    it.each<ProductCommand>([update(), { type: 'RemoveProduct' }, { type: 'ReserveStock', orderId: 'o-1', quantity: 1 }])('refuses $type', (command) =>
      spec.given([]).when(command).thenThrows(PRODUCT_MESSAGES.notFound, 'NOT_FOUND'),
    );
    it('releasing stock of an unknown product changes nothing', () => spec.given([]).when({ type: 'ReleaseStock', orderId: 'o-1' }).then([]));
  });

  describe('when listed', () => {
    it('refuses a second add', () => spec.given([added]).when(add).thenThrows(PRODUCT_MESSAGES.alreadyExists, 'CONFLICT'));
    it('updates every field and keeps the image unless a new one is given', () =>
      spec
        .given([{ ...added, data: { ...added.data, image: 'a.png' } } as ProductEvent])
        .when(update({ name: 'HX-2400X', priceCents: 99_00, stockQuantity: 40 }))
        .then([{ type: 'ProductUpdated.v1', data: { ...added.data, name: 'HX-2400X', priceCents: 99_00, stockQuantity: 40, image: 'a.png' } }]));
    it('replaces the image', () =>
      spec
        .given([added])
        .when(update({ image: 'b.svg' }))
        .then([{ type: 'ProductUpdated.v1', data: { ...added.data, image: 'b.svg' } }]));
    it('an unchanged edit appends nothing', () => spec.given([added]).when(update()).then([]));
    it('refuses an invalid edit', () =>
      spec
        .given([added])
        .when(update({ moq: 0 }))
        .thenThrows(PRODUCT_MESSAGES.moqInvalid));
    it('removes', () => spec.given([added]).when({ type: 'RemoveProduct' }).then([removed]));
  });

  describe('reserving stock', () => {
    it('takes the units off the stock', () =>
      spec
        .given([added])
        .when({ type: 'ReserveStock', orderId: 'o-1', quantity: 3 })
        .then([reserved('o-1', 3, 2)]));
    it('may take the last unit', () =>
      spec
        .given([added])
        .when({ type: 'ReserveStock', orderId: 'o-1', quantity: 5 })
        .then([reserved('o-1', 5, 0)]));
    it('refuses more than the stock', () =>
      spec
        .given([added, reserved('o-1', 3, 2)])
        .when({ type: 'ReserveStock', orderId: 'o-2', quantity: 3 })
        .thenThrows('Only 2 units of HX-2400 24-port Managed Switch are in stock.', 'INSUFFICIENT_STOCK'));
    it('refuses anything when out of stock', () =>
      spec
        .given([added, reserved('o-1', 5, 0)])
        .when({ type: 'ReserveStock', orderId: 'o-2', quantity: 1 })
        .thenThrows('HX-2400 24-port Managed Switch is out of stock.', 'INSUFFICIENT_STOCK'));
    it('is idempotent per order', () =>
      spec
        .given([added, reserved('o-1', 3, 2)])
        .when({ type: 'ReserveStock', orderId: 'o-1', quantity: 3 })
        .then([]));
    it('refuses a quantity below 1', () =>
      spec.given([added]).when({ type: 'ReserveStock', orderId: 'o-1', quantity: 0 }).thenThrows(PRODUCT_MESSAGES.quantityInvalid));
    it('refuses a removed product', () =>
      spec.given([added, removed]).when({ type: 'ReserveStock', orderId: 'o-1', quantity: 1 }).thenThrows('is no longer available', 'PRODUCT_UNAVAILABLE'));
    it('an edit of the stock sets what is available; reservations stay held', () =>
      spec
        .given([added, reserved('o-1', 3, 2), { type: 'ProductUpdated.v1', data: { ...added.data, stockQuantity: 10 } }])
        .when({ type: 'ReleaseStock', orderId: 'o-1' })
        .then([released('o-1', 3, 13)]));
  });

  describe('releasing stock', () => {
    it('gives the order’s units back', () =>
      spec
        .given([added, reserved('o-1', 3, 2)])
        .when({ type: 'ReleaseStock', orderId: 'o-1' })
        .then([released('o-1', 3, 5)]));
    it('releasing twice changes nothing the second time', () =>
      spec
        .given([added, reserved('o-1', 3, 2), released('o-1', 3, 5)])
        .when({ type: 'ReleaseStock', orderId: 'o-1' })
        .then([]));
    it('an order that holds nothing releases nothing', () =>
      spec
        .given([added, reserved('o-1', 3, 2)])
        .when({ type: 'ReleaseStock', orderId: 'o-2' })
        .then([]));
    it('still works on a removed product', () =>
      spec
        .given([added, reserved('o-1', 3, 2), removed])
        .when({ type: 'ReleaseStock', orderId: 'o-1' })
        .then([released('o-1', 3, 5)]));
    it('a released order may reserve again', () =>
      spec
        .given([added, reserved('o-1', 3, 2), released('o-1', 3, 5)])
        .when({ type: 'ReserveStock', orderId: 'o-1', quantity: 1 })
        .then([reserved('o-1', 1, 4)]));
  });

  describe('when removed', () => {
    it.each<ProductCommand>([update(), { type: 'RemoveProduct' }])('refuses $type', (command) =>
      spec.given([added, removed]).when(command).thenThrows(PRODUCT_MESSAGES.notFound, 'NOT_FOUND'),
    );
  });
});

describe('catalogue rules', () => {
  it('has the 7 fixed categories', () => {
    expect(PRODUCT_CATEGORIES).toHaveLength(7);
    expect(PRODUCT_CATEGORIES).toContain('Industrial Unmanaged Switches');
  });
  it.each([
    [0, 'out_of_stock', 'unavailable'],
    [1, 'low_stock', 'slow'],
    [10, 'low_stock', 'slow'],
    [11, 'in_stock', 'medium'],
    [50, 'in_stock', 'medium'],
    [51, 'in_stock', 'fast'],
  ])('stock %i is %s, delivery %s', (stock, status, delivery) => {
    expect(stockStatus(stock)).toBe(status);
    expect(deliveryTime(stock)).toBe(delivery);
  });
  it.each([
    ['129.99', 12999],
    ['129.9', 12990],
    ['0', 0],
    [' 5 ', 500],
    ['1.234', undefined],
    ['-1', undefined],
    ['abc', undefined],
    ['', undefined],
  ])('parses the price %j', (text, cents) => expect(parsePriceCents(text)).toBe(cents));
  it('formats USD with 2 decimals', () => expect(formatUsd(1234.5)).toBe('$1,234.50'));
});
