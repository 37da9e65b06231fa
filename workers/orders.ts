import { statusLabel, type OrderEvent } from '../domain/orders/orders';
import type { RecordedEvent } from '../platform/eventstore';
import { organisationAndAuthorIds } from '../projections/users';
import { notificationJob } from './notifications';
import type { Reaction, ReactionTable } from './reactor';

type EventOf<Type extends OrderEvent['type']> = RecordedEvent<Type, Extract<OrderEvent, { type: Type }>['data']>;

/**
 * The ordering organisation hears of every status change: its account (the partner or distributor)
 * and, when a team member placed the order, that member too.
 */
const notifyOrganisationOfStatusChange: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'OrderStatusChanged.v1'>;
  const { orderId, orderNumber, organisationId, status, reason, carrier, trackingNumber } = event.data;
  await context.readModelsInclude(event);
  const recipients = await organisationAndAuthorIds(context.pool, organisationId, { kind: 'order', id: orderId }, { activeOnly: false });
  const label = statusLabel(status);
  const shipment = carrier ? ` Carrier: ${carrier}, tracking number ${trackingNumber ?? '—'}.` : '';
  const body = `Your order ${orderNumber} is now ${label.toLowerCase()}.${shipment}${reason ? ` Note: ${reason}` : ''}`;
  return recipients.map((recipient) =>
    notificationJob(event, recipient, {
      kind: 'order-status-changed',
      title: `Order ${orderNumber}: ${label}`,
      body,
      link: `/order/track/${orderId}`,
    }),
  );
};

export const orderReactions: ReactionTable = {
  'OrderStatusChanged.v1': [notifyOrganisationOfStatusChange],
};
