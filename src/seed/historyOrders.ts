import { fold, type CommandMetadata } from '../../domain/decider';
import { products, type ProductEvent } from '../../domain/products/products';
import type { OrderStatus, Shipment } from '../../domain/orders/orders';
import type { ShippingAddress } from '../../domain/orders/shipping';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { changeOrderStatus, placeOrder } from '../../commands/orders';
import { asDomainEvents } from '../../platform/eventstore';
import type { Services } from '../../platform/services';
import { DEMO_PRODUCTS, demoProductId } from './products';
import { demoUserId } from './identity';
import { ATLAS, NORTHWIND } from './addresses';
import { between, DAY_MS, demoCalendar, pick, randomFor } from './timeline';

/** Who buys what: the organisations that order, when they start (days before now at most), what they favour. */
interface Buyer {
  email: string;
  /** Orders per week on average. */
  weeklyRate: number;
  /** Ordering starts no earlier than this many days ago (the partner was approved around then). */
  sinceDaysAgo: number;
  basket: ReadonlyArray<readonly [productKey: string, minimum: number, maximum: number]>;
  address: ShippingAddress;
}

const address = (
  firstName: string,
  lastName: string,
  email: string,
  phone: string,
  addressLine1: string,
  city: string,
  state: string,
  zipCode: string,
  country: string,
): ShippingAddress => ({
  firstName,
  lastName,
  email,
  phone,
  addressLine1,
  city,
  state,
  zipCode,
  country,
});

const BUYERS: readonly Buyer[] = [
  {
    email: 'partner@partnerhub.test',
    weeklyRate: 1.2,
    sinceDaysAgo: 180,
    basket: [
      ['hx-m2408', 4, 20],
      ['hx-m2424', 2, 8],
      ['hx-u105', 10, 60],
      ['sfp-10g-sr', 10, 80],
      ['psu-150w', 1, 6],
      ['hx-m2448p', 1, 3],
    ],
    address: NORTHWIND,
  },
  {
    email: 'distributor@partnerhub.test',
    weeklyRate: 1.6,
    sinceDaysAgo: 190,
    basket: [
      ['xs-4800', 1, 4],
      ['xs-6400', 1, 2],
      ['psu-740w', 1, 6],
      ['sfp-10g-sr', 40, 200],
      ['dac-25g-3m', 10, 60],
      ['hx-m2424', 4, 16],
      ['rmk-19', 2, 10],
    ],
    address: ATLAS,
  },
  {
    email: 'olivia.brown@meridian-supply.test',
    weeklyRate: 0.8,
    sinceDaysAgo: 170,
    basket: [
      ['ims-810', 2, 12],
      ['ius-5', 10, 80],
      ['ius-8p', 2, 10],
      ['drp-240', 2, 10],
      ['ims-2804r', 1, 4],
    ],
    address: address('Olivia', 'Brown', 'olivia.brown@meridian-supply.test', '+1 312 555 0164', '2200 S Archer Ave', 'Chicago', 'IL', '60616', 'United States'),
  },
  {
    email: 'lucia.fernandez@pampas-digital.test',
    weeklyRate: 0.6,
    sinceDaysAgo: 145,
    basket: [
      ['hx-m2408', 2, 10],
      ['hx-u108p', 4, 16],
      ['ims-1612p', 1, 4],
      ['sfp-10g-sr', 10, 40],
    ],
    address: address(
      'Lucía',
      'Fernández',
      'lucia.fernandez@pampas-digital.test',
      '+54 11 5555 0190',
      'Av. Corrientes 1234',
      'Buenos Aires',
      'CABA',
      'C1043',
      'Other',
    ),
  },
  {
    email: 'kenji.mori@sakura-netcom.test',
    weeklyRate: 0.5,
    sinceDaysAgo: 105,
    basket: [
      ['ims-2804r', 1, 6],
      ['ims-810', 4, 20],
      ['xs-2400', 1, 4],
      ['psu-150w', 2, 8],
    ],
    address: address('Kenji', 'Mori', 'kenji.mori@sakura-netcom.test', '+81 6 5555 0131', '3-6-1 Umeda, Kita-ku', 'Osaka', 'Osaka', '530-0001', 'Japan'),
  },
  {
    email: 'amani.otieno@kilima-tech.test',
    weeklyRate: 0.3,
    sinceDaysAgo: 55,
    basket: [
      ['hx-u105', 10, 30],
      ['hx-m2408', 2, 6],
      ['ius-5', 10, 20],
    ],
    address: address('Amani', 'Otieno', 'amani.otieno@kilima-tech.test', '+254 20 555 0177', 'Ngong Road, Kilimani', 'Nairobi', 'Nairobi', '00100', 'Other'),
  },
];

const NOTES = [
  'Campus refresh.',
  'Stock for the spring installations.',
  'Replacement units for a customer site.',
  'Tender won: phase 1.',
  'Branch roll-out.',
  null,
  null,
  null,
];
const CARRIERS = ['DHL Express', 'UPS', 'FedEx', 'DB Schenker'];

/** The history's last orders are placed this many days ago; the newest demo orders (src/seed/orders.ts) follow. */
const HISTORY_ENDS_DAYS_AGO = 4;
export const STOCK_COUNT_DAYS_AGO = 3;

export const historyOrderId = (email: string, week: number, index: number) => deterministicUuid(`history-order:${email}:${week}:${index}`);

async function productState(services: Services, productId: string) {
  return fold(products, asDomainEvents<ProductEvent>(await services.store.readStream(products.streamId(productId))));
}

/** Sets a product's stock as an administrator would after a delivery or a stock count. */
async function setStock(services: Services, productId: string, stockQuantity: number, metadata: CommandMetadata): Promise<void> {
  const state = await productState(services, productId);
  if (state.status !== 'listed' || state.stockQuantity === stockQuantity) return;
  const { name, priceCents, category, moq, description, image } = state;
  await runCommand(services, products, productId, { type: 'UpdateProduct', name, priceCents, category, moq, description, image, stockQuantity }, metadata);
}

/** The delivery a warehouse receives when an order's lines would not fit the stock (the demo history never turns a buyer away). */
export async function restockFor(
  services: Services,
  lines: ReadonlyArray<readonly [productKey: string, quantity: number]>,
  metadata: CommandMetadata,
): Promise<void> {
  for (const [key, quantity] of lines) {
    const state = await productState(services, demoProductId(key));
    if (state.status === 'listed' && state.stockQuantity < quantity)
      await setStock(services, demoProductId(key), state.stockQuantity + quantity * 4 + 50, metadata);
  }
}

/** One dated step of the order history: an order with its later status changes, or the closing stock count. */
export interface DatedStep {
  daysAgo: number;
  run(): Promise<boolean>;
}

/**
 * Months of ordering around the recent demo orders: each buying organisation orders most weeks from
 * around its approval, in realistic quantities of what it usually buys; each order is approved the
 * next day, shipped a few days later and delivered within the week, and a few are cancelled. The
 * warehouse is restocked when a line would not fit, and a stock count a few days ago brings the stock
 * back to the catalogue's levels, so the newest demo orders and the catalogue screens find what they expect.
 */
export function orderHistory(services: Services, metadata: CommandMetadata): { steps: DatedStep[]; planned: number } {
  const calendar = demoCalendar(services, metadata);
  if (calendar.historyDays <= HISTORY_ENDS_DAYS_AGO) return { steps: [], planned: 0 };
  const admin = { actorId: demoUserId('admin@partnerhub.test'), actorRole: 'admin' };
  const planned: Array<{ buyer: Buyer; week: number; index: number; daysAgo: number }> = [];
  for (const buyer of BUYERS) {
    const random = randomFor(`history-orders:${buyer.email}`);
    const firstDay = Math.min(buyer.sinceDaysAgo, calendar.historyDays);
    for (let week = 0; firstDay - week * 7 > HISTORY_ENDS_DAYS_AGO; week++) {
      // Around the buyer's weekly rate: busy weeks and quiet ones.
      const count = Math.floor(buyer.weeklyRate + random() * 1.2 - 0.3);
      for (let index = 0; index < count; index++)
        planned.push({ buyer, week, index, daysAgo: Math.max(HISTORY_ENDS_DAYS_AGO, firstDay - week * 7 - between(random, 0, 4)) });
    }
  }
  const steps = planned.map(({ buyer, week, index, daysAgo }): DatedStep => ({
    daysAgo,
    async run() {
      const account = await findUser(services.pool, demoUserId(buyer.email));
      if (!account?.is_active) return false;
      const orderId = historyOrderId(buyer.email, week, index);
      if ((await services.store.readStream(`orders-${orderId}`)).length) return false;
      const random = randomFor(`history-order:${orderId}`);
      const lines = new Map<string, number>();
      for (let n = between(random, 1, 3); n > 0; n--) {
        const [key, minimum, maximum] = pick(random, buyer.basket);
        const product = DEMO_PRODUCTS.find((candidate) => candidate.key === key)!;
        lines.set(key, Math.max(product.moq, between(random, minimum, maximum)));
      }
      const placedAt = calendar.at(daysAgo, between(random, 8, 17));
      await restockFor(services, [...lines], { ...calendar.at(daysAgo + 1, 7), ...admin });
      const placed = await placeOrder(
        services,
        {
          orderId,
          organisationId: account.parent_user_id ?? account.id,
          companyName: account.company_name,
          placedBy: account.id,
          items: [...lines].map(([key, quantity]) => ({ productId: demoProductId(key), quantity })),
          shippingAddress: buyer.address,
          estimatedDelivery: new Date(Date.parse(placedAt.now) + between(random, 7, 21) * DAY_MS).toISOString().slice(0, 10),
          notes: pick(random, NOTES),
        },
        { ...placedAt, actorId: account.id, actorRole: account.role },
      );
      if (!placed.created) return false;
      // Every step stays in the past: recent orders are still on their way.
      const step = async (status: OrderStatus, days: number, notes: string | null, shipment: Shipment | null = null) => {
        if (days >= 0) await changeOrderStatus(services, orderId, status, notes, { ...calendar.at(days, between(random, 9, 16)), ...admin }, shipment);
      };
      if (random() < 0.06) {
        await step('cancelled', daysAgo - 1, pick(random, ['The customer postponed the project.', 'Ordered twice by mistake.', 'Replaced by a larger order.']));
        return true;
      }
      const approved = daysAgo - 1;
      const shipped = approved - between(random, 1, 4);
      const delivered = shipped - between(random, 2, 6);
      await step('approved', approved, random() < 0.5 ? 'Stock confirmed.' : null);
      // Shipping names its carrier and tracking number (drawn as before, so the world stays the same).
      await step('shipped', shipped, null, {
        carrier: pick(random, CARRIERS),
        trackingNumber: `${between(random, 100000, 999999)}${between(random, 1000, 9999)}`,
      });
      await step('delivered', delivered, random() < 0.3 ? 'Signed for at the loading dock.' : null);
      return true;
    },
  }));
  // The stock count that closes the history: the catalogue's levels, as the demo catalogue describes them.
  steps.push({
    daysAgo: STOCK_COUNT_DAYS_AGO,
    async run() {
      for (const product of DEMO_PRODUCTS)
        await setStock(services, demoProductId(product.key), product.stock, { ...calendar.at(STOCK_COUNT_DAYS_AGO, 18), ...admin });
      return false;
    },
  });
  return { steps, planned: planned.length };
}
