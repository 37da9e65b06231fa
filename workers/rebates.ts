import { centsToAmount, formatUsd } from '../domain/money';
import { rebateStatusLabel, type RebateEvent } from '../domain/rebates/rebates';
import type { RecordedEvent } from '../platform/eventstore';
import { activeAdminIds, organisationAndAuthorIds } from '../projections/users';
import { notificationJob } from './notifications';
import type { Reaction, ReactionTable } from './reactor';

type EventOf<Type extends RebateEvent['type']> = RecordedEvent<Type, Extract<RebateEvent, { type: Type }>['data']>;

/** Every active admin hears of a new claim (only admins who existed when it arrived, so a replay tells no one new). */
const notifyAdminsOfClaim: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'RebateSubmitted.v1'>;
  await context.readModelsInclude(event);
  const admins = await activeAdminIds(context.pool, event.metadata.occurredAt);
  const d = event.data;
  return admins.map((admin) =>
    notificationJob(event, admin, {
      kind: 'rebate-submitted',
      title: 'New rebate claim',
      body: `${d.companyName ?? 'A partner'} claimed a rebate on invoice ${d.invoiceNumber} (${formatUsd(centsToAmount(d.purchaseAmountCents))} of ${d.productName}). Review it under Rebate Management.`,
      link: '/adminpanel?tab=rebates',
    }),
  );
};

/** What the organisation reads about a decision. */
function decisionText(event: EventOf<'RebateProcessingStarted.v1' | 'RebateApproved.v1' | 'RebateRejected.v1'>): string {
  const invoice = event.data.invoiceNumber;
  switch (event.type) {
    case 'RebateProcessingStarted.v1':
      return `Your rebate claim for invoice ${invoice} is being processed.${event.data.reason ? ` Note: ${event.data.reason}` : ''}`;
    case 'RebateApproved.v1': {
      const data = (event as EventOf<'RebateApproved.v1'>).data;
      return `Your rebate claim for invoice ${invoice} was approved: ${formatUsd(centsToAmount(data.rebateAmountCents))}.${data.notes ? ` Note: ${data.notes}` : ''}`;
    }
    default:
      return `Your rebate claim for invoice ${invoice} was rejected. Reason: ${event.data.reason}`;
  }
}

/** The claiming organisation's account hears of each review decision, and so does the team member who submitted it. */
const notifyOrganisationOfReview: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'RebateProcessingStarted.v1' | 'RebateApproved.v1' | 'RebateRejected.v1'>;
  await context.readModelsInclude(event);
  const recipients = await organisationAndAuthorIds(
    context.pool,
    event.data.organisationId,
    { kind: 'rebate', id: event.data.rebateId },
    { activeOnly: false },
  );
  const status = event.data.status;
  return recipients.map((recipient) =>
    notificationJob(event, recipient, {
      kind: `rebate-${status}`,
      title: `Rebate ${event.data.invoiceNumber} ${rebateStatusLabel(status).toLowerCase()}`,
      body: decisionText(event),
      link: '/rebates?tab=history',
    }),
  );
};

export const rebateReactions: ReactionTable = {
  'RebateSubmitted.v1': [notifyAdminsOfClaim],
  'RebateProcessingStarted.v1': [notifyOrganisationOfReview],
  'RebateApproved.v1': [notifyOrganisationOfReview],
  'RebateRejected.v1': [notifyOrganisationOfReview],
};
