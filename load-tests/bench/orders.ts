/**
 * Section "orders": concurrent buyers place orders while administrators move them through their
 * statuses, all over HTTP against the real portal (API and projector, demo data seeded).
 *
 * Each client loops: a buyer (partner or distributor, alternately) places an order of 1–3 random
 * products; another session then polls GET /api/orders until the order is listed; an administrator
 * approves it, and then ships it, ships and delivers it, or cancels it. Reported: commands per
 * second (every accepted POST /api/orders and PUT /api/orders/admin/:id/status), latency per command,
 * and the lag from the moment a placement was accepted (its 201 arrived) to the moment another
 * session's GET /api/orders lists the order.
 */

import { performance } from 'node:perf_hooks';
import { callApi, CommandMeter, runReportedSection, signInForBench, startBenchPortal, untilListed, warmedUp } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { formatCount, latencyTable, commandsLine } from './reportTables';

export interface OrderBenchSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  warmupSeconds: number;
  clients: number;
}

export interface OrderBenchSection {
  clients: number;
  seconds: number;
  commands: number;
  commandsPerSecond: number;
  ordersPlaced: number;
  statusChanges: number;
  refused: number;
  errors: number;
  firstError: string | undefined;
  place: LatencySummary;
  status: LatencySummary;
  visibleLag: LatencySummary;
  products: number;
}

const PRODUCTS = 24;
const STOCK = 10_000_000;

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];

const address = {
  firstName: 'Bench',
  lastName: 'Buyer',
  email: 'bench@example.test',
  phone: '+1 206 555 0100',
  addressLine1: '1 Load Street',
  city: 'Seattle',
  state: 'WA',
  zipCode: '98101',
  country: 'United States',
};

export async function runOrderBench(settings: OrderBenchSettings, log: (line: string) => void): Promise<OrderBenchSection> {
  const bench = await startBenchPortal(settings);
  const { prefix, baseUrl } = bench;
  try {
    const [admin, partner, distributor, reader] = await Promise.all(
      ['admin@partnerhub.test', 'partner@partnerhub.test', 'distributor@partnerhub.test', 'manufacturer@partnerhub.test'].map((email) =>
        signInForBench(baseUrl, email),
      ),
    );

    // The products the bench orders: plenty of stock, so refusals come only from real contention bugs.
    const productIds: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const form = new FormData();
      for (const [name, value] of Object.entries({
        name: `BX-${i} Bench Switch ${prefix}`,
        price: (49 + i * 10).toFixed(2),
        category: 'Managed Switches',
        stock_quantity: String(STOCK),
        moq: '1',
        description: 'A product for the load test.',
      })) {
        form.append(name, value);
      }
      const created = await callApi(baseUrl, admin, 'POST', '/api/products', form);
      if (created.status !== 201) throw new Error(`Adding a bench product answered ${created.status}: ${JSON.stringify(created.json)}`);
      productIds.push(created.json.data.id);
    }
    const delivery = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

    const run = async (seconds: number, record: boolean) => {
      const placeLatency: number[] = [];
      const statusLatency: number[] = [];
      const visibleLag: number[] = [];
      let accepted = 0;
      let refused = 0;
      const meter = new CommandMeter();
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const fail = (message: string) => meter.fail(message);
      const timed = <T>(latencies: number[], work: () => Promise<T>) => meter.timed(latencies, work);

      await Promise.all(
        Array.from({ length: settings.clients }, async (_, client) => {
          let n = 0;
          while (performance.now() < deadline) {
            const buyer = (client + n++) % 2 === 0 ? partner : distributor;
            const chosen = [...new Set(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => pick(productIds)))];
            const placed = await timed(placeLatency, () =>
              callApi(baseUrl, buyer, 'POST', '/api/orders', {
                estimated_delivery: delivery,
                items: chosen.map((id) => ({ product_id: id, quantity: 1 + Math.floor(Math.random() * 5) })),
                shipping_address: address,
              }),
            );
            const acceptedAt = performance.now();
            if (placed.status === 409) {
              refused++;
              continue;
            }
            if (placed.status !== 201) {
              fail(`POST /api/orders answered ${placed.status}: ${JSON.stringify(placed.json)}`);
              continue;
            }
            accepted++;
            const order = placed.json.data as { id: string; order_number: string };

            // Another session's list: how long until it shows the order just accepted.
            const lag = await untilListed(
              baseUrl,
              reader,
              `/api/orders?search=${order.order_number}`,
              (data) => (data.orders as Array<{ id: string }>).some((o) => o.id === order.id),
              acceptedAt,
              fail,
              `Order ${order.order_number}`,
            );
            if (lag !== undefined) visibleLag.push(lag);

            const roll = Math.random();
            const path = roll < 0.1 ? ['cancelled'] : roll < 0.4 ? ['approved'] : roll < 0.7 ? ['approved', 'shipped'] : ['approved', 'shipped', 'delivered'];
            for (const status of path) {
              const changed = await timed(statusLatency, () =>
                callApi(baseUrl, admin, 'PUT', `/api/orders/admin/${order.id}/status`, {
                  status,
                  notes: `Bench: ${status}`,
                  // Shipping names its carrier and tracking number.
                  ...(status === 'shipped' ? { carrier: 'UPS', tracking_number: `BENCH-${order.order_number}` } : {}),
                }),
              );
              if (changed.status !== 200) {
                fail(`PUT status ${status} answered ${changed.status}: ${JSON.stringify(changed.json)}`);
                break;
              }
              accepted++;
            }
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      if (!record) return undefined;
      return { elapsed, placeLatency, statusLatency, visibleLag, refused, errors: meter.errors, firstError: meter.firstError, commands: accepted };
    };

    const measured = await warmedUp(settings, run, log);
    return {
      clients: settings.clients,
      seconds: measured.elapsed,
      commands: measured.commands,
      commandsPerSecond: measured.commands / measured.elapsed,
      ordersPlaced: measured.placeLatency.length - measured.refused,
      statusChanges: measured.statusLatency.length,
      refused: measured.refused,
      errors: measured.errors,
      firstError: measured.firstError,
      place: summarize(measured.placeLatency),
      status: summarize(measured.statusLatency),
      visibleLag: summarize(measured.visibleLag),
      products: PRODUCTS,
    };
  } finally {
    await bench.stop();
  }
}

export function orderBenchTable(section: OrderBenchSection): string {
  return [
    latencyTable(`Orders (${section.clients} concurrent clients, ${section.products} products)`, [
      ['POST /api/orders (place)', section.place],
      ['PUT /api/orders/admin/:id/status', section.status],
      ['accepted → listed in GET /api/orders', section.visibleLag],
    ]),
    commandsLine(
      section,
      `${formatCount(section.ordersPlaced)} orders placed, ${formatCount(section.statusChanges)} status changes, ${section.refused} refused, `,
    ),
    '   each order reserves stock on 1-3 product streams before it is placed; clients run in the bench process;',
    '   "listed" is measured from the 201 of the placement to the first GET /api/orders of another session that shows the order',
  ].join('\n');
}

export function runOrderSection(settings: OrderBenchSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'orders',
    'Orders: placing orders and changing statuses from concurrent clients',
    () => runOrderBench(settings, log),
    orderBenchTable,
    log,
    results,
  );
}
