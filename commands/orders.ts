import { products, type ProductEvent } from '../domain/products/products';
import { fold, type CommandMetadata, type Decider, type DomainEvent } from '../domain/decider';
import { formatOrderNumber, orders, type CatalogueProduct, type OrderCommand, type OrderEvent, type OrderState, type Shipment } from '../domain/orders/orders';
import type { ShippingAddress } from '../domain/orders/shipping';
import { tierInForceAt } from '../projections/programme';
import { asDomainEvents, comparePositions, type GlobalPosition } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { CommandConflictError, handleCommand, type CommandResult } from '../platform/commands/commandHandler';
import { waitForReadModels } from '../platform/commands/dispatch';

type Deps = Pick<Services, 'store' | 'watcher' | 'pool'>;

/** How long a step keeps retrying when other orders keep changing the same product at the same moment. */
const CONTENTION_PATIENCE_MS = 15_000;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * handleCommand, tried again (with a growing, random pause) while concurrent writers keep winning
 * the race for the same stream. A product that many buyers order at once is such a stream: each
 * conflict means another order got its units, so waiting always makes progress.
 */
async function handlePatiently<State, Command, Event extends DomainEvent>(
  deps: Deps,
  decider: Decider<State, Command, Event>,
  id: string,
  command: Command,
  metadata: CommandMetadata,
): Promise<CommandResult<State, Event>> {
  const deadline = Date.now() + CONTENTION_PATIENCE_MS;
  for (let round = 0; ; round++) {
    try {
      return await handleCommand(deps.store, decider, id, command, metadata);
    } catch (error) {
      if (!(error instanceof CommandConflictError) || Date.now() > deadline) throw error;
      await delay(Math.random() * 10 * 2 ** Math.min(round, 5));
    }
  }
}

const latest = (positions: Array<GlobalPosition | undefined>) =>
  positions.reduce<GlobalPosition | undefined>((max, p) => (p && (!max || comparePositions(p, max) > 0) ? p : max), undefined);

/** The product as its own stream shows it now: the price, MOQ and stock an order is checked against. */
async function catalogueProduct(deps: Deps, productId: string): Promise<CatalogueProduct | null> {
  const state = fold(products, asDomainEvents<ProductEvent>(await deps.store.readStream(products.streamId(productId))));
  if (state.status === 'none') return null;
  return {
    productId,
    name: state.name,
    priceCents: state.priceCents,
    moq: state.moq,
    stockQuantity: state.stockQuantity,
    available: state.status === 'listed',
  };
}

export interface PlaceOrderInput {
  orderId: string;
  organisationId: string;
  companyName: string | null;
  placedBy: string;
  items: Array<{ productId: string; quantity: number }>;
  shippingAddress: ShippingAddress;
  estimatedDelivery: string;
  notes: string | null;
}

/**
 * Places an order across several streams: every product's stock is reserved on its own stream
 * (refused beyond what is available, idempotent per order), then the order is placed. If any step
 * fails, whatever was reserved is released, so neither an order nor a reservation remains.
 * Placing an order whose id already exists (a retried request) changes nothing.
 */
export async function placeOrder(deps: Deps, input: PlaceOrderInput, metadata: CommandMetadata): Promise<{ orderId: string; created: boolean }> {
  const existing = await deps.store.readStream(orders.streamId(input.orderId));
  if (existing.length) return { orderId: input.orderId, created: false };

  const lines = await Promise.all(input.items.map(async (item) => ({ ...item, product: await catalogueProduct(deps, item.productId) })));
  // The tier in force when the order is placed: its discount is recorded in the order, so a later change of tier leaves it as placed.
  const tier = await tierInForceAt(deps.pool, input.organisationId, metadata.now);
  const percent = tier?.benefits.catalogue_discount_percent ?? 0;
  const { rows } = await deps.pool.query<{ n: string }>(`SELECT nextval('order_numbers') AS n`);
  const command: Extract<OrderCommand, { type: 'PlaceOrder' }> = {
    type: 'PlaceOrder',
    orderId: input.orderId,
    orderNumber: formatOrderNumber(metadata.now, BigInt(rows[0].n)),
    organisationId: input.organisationId,
    companyName: input.companyName,
    placedBy: input.placedBy,
    lines,
    shippingAddress: input.shippingAddress,
    estimatedDelivery: input.estimatedDelivery,
    notes: input.notes,
    discount: tier && percent > 0 ? { tierId: tier.id, tierName: tier.name, percent } : null,
  };
  // The order's own rules first (MOQ, stock as seen now, address, date): nothing is reserved for an order that cannot be placed.
  orders.decide(command, orders.initialState(), metadata);

  const positions: Array<GlobalPosition | undefined> = [];
  try {
    // Always in the same order, so two orders for the same products meet on the first one.
    for (const line of [...lines].sort((a, b) => a.productId.localeCompare(b.productId))) {
      const reserved = await handlePatiently(
        deps,
        products,
        line.productId,
        { type: 'ReserveStock', orderId: input.orderId, quantity: line.quantity },
        metadata,
      );
      positions.push(reserved.position);
    }
    const placed = await handlePatiently(deps, orders, input.orderId, command, metadata);
    positions.push(placed.position);
  } catch (error) {
    // The refusal is answered once the catalogue shows the stock given back.
    await waitForReadModels(
      deps,
      latest(
        await releaseStock(
          deps,
          input.orderId,
          lines.map((l) => l.productId),
          metadata,
        ),
      ),
    );
    throw error;
  }
  await waitForReadModels(deps, latest(positions));
  return { orderId: input.orderId, created: true };
}

/** Gives back what an order holds on each product; a product where it holds nothing is left alone. */
async function releaseStock(deps: Deps, orderId: string, productIds: string[], metadata: CommandMetadata): Promise<Array<GlobalPosition | undefined>> {
  const positions: Array<GlobalPosition | undefined> = [];
  for (const productId of productIds) {
    const released = await handlePatiently(deps, products, productId, { type: 'ReleaseStock', orderId }, metadata);
    positions.push(released.position);
  }
  return positions;
}

/** Changes an order's status (administrators only); a cancellation gives the order's stock back. */
export async function changeOrderStatus(
  deps: Deps,
  orderId: string,
  status: string,
  notes: string | null,
  metadata: CommandMetadata,
  /** The carrier and tracking number: required when shipping, refused otherwise. */
  shipment: Shipment | null = null,
): Promise<CommandResult<OrderState, OrderEvent>> {
  const result = await handleCommand(deps.store, orders, orderId, { type: 'ChangeOrderStatus', status, notes, shipment }, metadata);
  const positions = [result.position];
  if (result.state.status === 'cancelled' && result.events.length && 'items' in result.state) {
    positions.push(
      ...(await releaseStock(
        deps,
        orderId,
        result.state.items.map((item) => item.productId),
        metadata,
      )),
    );
  }
  await waitForReadModels(deps, latest(positions));
  return result;
}

/**
 * Brings a product's reservation for an order in line with the order: it is released when the order
 * was never placed (its placing process stopped after reserving) or has been cancelled. Safe to run
 * any number of times.
 */
export async function reconcileReservation(deps: Deps, productId: string, orderId: string, metadata: CommandMetadata): Promise<'kept' | 'released'> {
  const order = fold(orders, asDomainEvents<OrderEvent>(await deps.store.readStream(orders.streamId(orderId))));
  if (order.status !== 'none' && order.status !== 'cancelled') return 'kept';
  const released = await handlePatiently(deps, products, productId, { type: 'ReleaseStock', orderId }, metadata);
  return released.events.length ? 'released' : 'kept';
}

/** Releases every reservation of a cancelled order; what is already given back is left alone. */
export async function releaseCancelledOrder(deps: Deps, orderId: string, metadata: CommandMetadata): Promise<void> {
  const order = fold(orders, asDomainEvents<OrderEvent>(await deps.store.readStream(orders.streamId(orderId))));
  if (order.status !== 'cancelled' || !('items' in order)) return;
  await releaseStock(
    deps,
    orderId,
    order.items.map((item) => item.productId),
    metadata,
  );
}
