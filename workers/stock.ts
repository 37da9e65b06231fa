import type { Job, Processor } from 'bullmq';
import type { ProductEvent } from '../domain/products/products';
import type { OrderEvent } from '../domain/orders/orders';
import { metadataCausedBy } from '../platform/commands/dispatch';
import { reconcileReservation, releaseCancelledOrder } from '../commands/orders';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { SYSTEM_ACTOR } from './notifications';
import { QUEUES, reactionJobId } from '../platform/queues';
import type { Reaction, ReactionTable } from './reactor';

/**
 * Placing and cancelling an order touch several streams one after another. If the process stops
 * between them, these jobs finish the work: a reservation whose order never appeared is released
 * after a grace period, and a cancelled order's stock is released even if the request that
 * cancelled it did not get that far. Both steps are idempotent.
 */
export type StockJobData =
  { kind: 'check-reservation'; productId: string; orderId: string; cause: Cause } | { kind: 'release-cancelled-order'; orderId: string; cause: Cause };

interface Cause {
  eventId: string;
  correlationId: string;
}

type EventOf<Type extends string, Union extends { type: string; data: unknown }> = RecordedEvent<Type, Extract<Union, { type: Type }>['data']>;

const cause = (event: RecordedEvent): Cause => ({ eventId: event.id, correlationId: event.metadata.correlationId });

const checkReservationLater: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'StockReserved.v1', ProductEvent>;
  const { productId, orderId } = event.data;
  return [
    {
      queue: QUEUES.stockReservations,
      name: 'check-reservation',
      id: reactionJobId(event.id, 'check-reservation', productId),
      data: { kind: 'check-reservation', productId, orderId, cause: cause(event) } satisfies StockJobData,
      delayMs: context.config.RESERVATION_GRACE_MS,
    },
  ];
};

const releaseWhenCancelled: Reaction = async (recorded) => {
  const event = recorded as EventOf<'OrderStatusChanged.v1', OrderEvent>;
  if (event.data.status !== 'cancelled') return [];
  return [
    {
      queue: QUEUES.stockReservations,
      name: 'release-cancelled-order',
      id: reactionJobId(event.id, 'release-cancelled-order', event.data.orderId),
      data: { kind: 'release-cancelled-order', orderId: event.data.orderId, cause: cause(event) } satisfies StockJobData,
    },
  ];
};

export const stockReactions: ReactionTable = {
  'StockReserved.v1': [checkReservationLater],
  'OrderStatusChanged.v1': [releaseWhenCancelled],
};

export function stockProcessor(services: Pick<Services, 'store' | 'watcher' | 'pool'>): Processor<StockJobData, string> {
  return async (job: Job<StockJobData>) => {
    const data = job.data;
    const metadata = metadataCausedBy({ id: data.cause.eventId, metadata: { correlationId: data.cause.correlationId } }, SYSTEM_ACTOR);
    if (data.kind === 'check-reservation') return reconcileReservation(services, data.productId, data.orderId, metadata);
    await releaseCancelledOrder(services, data.orderId, metadata);
    return 'released';
  };
}
