import { DomainError, type CommandMetadata } from '../../domain/decider';
import type { OrderStatus, Shipment } from '../../domain/orders/orders';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { changeOrderStatus, placeOrder } from '../../commands/orders';
import { demoProductId } from './products';
import { demoUserId } from './identity';
import type { Seeder } from './seeder';
import { ATLAS, NORTHWIND } from './addresses';
import { orderHistory, restockFor, STOCK_COUNT_DAYS_AGO, type DatedStep } from './historyOrders';

const DAY_MS = 24 * 60 * 60 * 1000;

interface DemoOrder {
  key: string;
  buyer: string; // e-mail of the demo account that orders
  placedDaysAgo: number;
  deliveryInDays: number;
  items: Array<[productKey: string, quantity: number]>;
  notes: string | null;
  /** The later status changes: status, days ago, the admin's note. */
  steps: Array<[OrderStatus, number, string | null]>;
}

/** Orders of the demo partner and distributor, in every status, each with its history. */
export const DEMO_ORDERS: readonly DemoOrder[] = [
  {
    key: 'northwind-1',
    buyer: 'partner@partnerhub.test',
    placedDaysAgo: 24,
    deliveryInDays: 10,
    items: [
      ['hx-m2424', 4],
      ['sfp-10g-sr', 20],
    ],
    notes: 'Campus refresh, building A.',
    steps: [
      ['approved', 23, 'Stock confirmed.'],
      ['shipped', 21, 'Tracking number 1Z 999 AA1 01 2345 6784.'],
      ['delivered', 17, 'Signed for by M. Ortega.'],
    ],
  },
  {
    key: 'northwind-2',
    buyer: 'partner@partnerhub.test',
    placedDaysAgo: 6,
    deliveryInDays: 12,
    items: [
      ['ims-810', 6],
      ['psu-150w', 2],
    ],
    notes: 'Water treatment plant, phase 2.',
    steps: [
      ['approved', 5, 'Approved for the Q4 allocation.'],
      ['shipped', 3, 'Left the Rotterdam warehouse.'],
    ],
  },
  {
    key: 'northwind-3',
    buyer: 'partner@partnerhub.test',
    placedDaysAgo: 2,
    deliveryInDays: 14,
    items: [['hx-m2408', 10]],
    notes: null,
    steps: [['approved', 1, null]],
  },
  {
    key: 'northwind-4',
    buyer: 'partner@partnerhub.test',
    placedDaysAgo: 0,
    deliveryInDays: 21,
    items: [
      ['hx-u105', 30],
      ['ius-5', 10],
    ],
    notes: 'Branch offices roll-out.',
    steps: [],
  },
  {
    key: 'atlas-1',
    buyer: 'distributor@partnerhub.test',
    placedDaysAgo: 40,
    deliveryInDays: 14,
    items: [
      ['xs-4800', 2],
      ['psu-740w', 2],
    ],
    notes: 'Data-centre expansion for a hosting customer.',
    steps: [
      ['approved', 39, null],
      ['shipped', 36, 'Two pallets, freight forwarder DHL.'],
      ['delivered', 31, null],
    ],
  },
  {
    key: 'atlas-2',
    buyer: 'distributor@partnerhub.test',
    placedDaysAgo: 9,
    deliveryInDays: 10,
    items: [['hx-u108p', 8]],
    notes: null,
    steps: [['cancelled', 8, 'The customer postponed the project to next year.']],
  },
  {
    key: 'atlas-3',
    buyer: 'distributor@partnerhub.test',
    placedDaysAgo: 1,
    deliveryInDays: 7,
    items: [
      ['ims-2804r', 2],
      ['sfp-10g-sr', 40],
    ],
    notes: 'Substation automation tender.',
    steps: [],
  },
];

export const demoOrderId = (key: string) => deterministicUuid(`demo-order:${key}`);

const dateOnly = (time: number) => new Date(time).toISOString().slice(0, 10);

/** A carrier and a tracking number of its usual shape, the same for a demo order on every run. */
export function demoShipment(key: string): Shipment {
  const digits = deterministicUuid(`demo-shipment:${key}`).replace(/\D/g, '').padEnd(12, '7').slice(0, 12);
  const carriers: Array<[string, (d: string) => string]> = [
    ['UPS', (d) => `1Z 999 AA1 ${d.slice(0, 2)} ${d.slice(2, 6)} ${d.slice(6, 10)}`],
    ['DHL Express', (d) => `JD01 4600 ${d.slice(0, 4)} ${d.slice(4, 8)}`],
    ['FedEx', (d) => d],
  ];
  const [carrier, format] = carriers[key.length % carriers.length];
  return { carrier, trackingNumber: format(digits) };
}

export const seedOrders: Seeder = {
  name: 'orders',
  async run(services, metadata) {
    const now = Date.parse(metadata.now);
    const at = (daysAgo: number, base: CommandMetadata): CommandMetadata => ({
      ...base,
      now: new Date(now - daysAgo * DAY_MS - 3 * 60 * 60 * 1000).toISOString(),
    });
    const history = orderHistory(services, metadata);
    const placeDemo = async (demo: DemoOrder): Promise<boolean> => {
      const buyer = await findUser(services.pool, demoUserId(demo.buyer));
      if (!buyer) return false;
      const orderId = demoOrderId(demo.key);
      const placedAt = at(demo.placedDaysAgo, { ...metadata, actorId: buyer.id, actorRole: buyer.role });
      // Amid months of history the warehouse may need a delivery first; before the closing stock count only.
      if (history.planned && demo.placedDaysAgo > STOCK_COUNT_DAYS_AGO)
        await restockFor(services, demo.items, at(demo.placedDaysAgo + 1, { ...metadata, actorId: demoUserId('admin@partnerhub.test'), actorRole: 'admin' }));
      const placed = await placeOrder(
        services,
        {
          orderId,
          organisationId: buyer.parent_user_id ?? buyer.id,
          companyName: buyer.company_name,
          placedBy: buyer.id,
          items: demo.items.map(([key, quantity]) => ({ productId: demoProductId(key), quantity })),
          shippingAddress: buyer.role === 'partner' ? NORTHWIND : ATLAS,
          estimatedDelivery: dateOnly(Date.parse(placedAt.now) + demo.deliveryInDays * DAY_MS),
          notes: demo.notes,
        },
        placedAt,
      ).catch((error: unknown) => {
        // A demo product an admin removed or sold out: this demo order is left out.
        if (error instanceof DomainError) return { created: false };
        throw error;
      });
      if (!placed.created) return false;
      for (const [status, daysAgo, note] of demo.steps) {
        await changeOrderStatus(services, orderId, status, note, at(daysAgo, metadata), status === 'shipped' ? demoShipment(demo.key) : null);
      }
      return true;
    };
    const steps: DatedStep[] = [...DEMO_ORDERS.map((demo) => ({ daysAgo: demo.placedDaysAgo, run: () => placeDemo(demo) })), ...history.steps];
    let created = 0;
    // Oldest first, so the order numbers follow the order dates.
    for (const step of steps.sort((a, b) => b.daysAgo - a.daysAgo)) if (await step.run()) created++;
    return `${created} of ${DEMO_ORDERS.length + history.planned} demo orders created`;
  },
};
