import { ADMIN_ROLES } from '../domain/access';
import type { UserEvent } from '../domain/identity/identity';
import type { RecordedEvent } from '../src/eventstore';
import { notificationJob } from './notifications';
import type { Reaction, ReactionTable } from './reactor';

type EventOf<Type extends UserEvent['type']> = RecordedEvent<Type, Extract<UserEvent, { type: Type }>['data']>;

/**
 * A partner who registered themselves waits for approval: every active admin hears of it.
 * Admins are read at reaction time; only those who already existed when the partner registered,
 * so a later replay of the log does not tell an admin who joined since about old applications.
 */
const notifyAdminsOfPartnerRegistration: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'UserRegistered.v1'>;
  if (event.data.selfRegistered !== true) return [];
  await context.readModelsInclude(event);
  const { rows } = await context.pool.query<{ id: string }>(
    `SELECT id FROM read.users WHERE role = ANY($1) AND is_active AND created_at <= $2 ORDER BY id`,
    [ADMIN_ROLES, event.metadata.occurredAt],
  );
  const { email, companyName, fullName } = event.data;
  const applicant = companyName ? `${companyName} (${email})` : fullName && fullName !== email ? `${fullName} (${email})` : email;
  return rows.map((admin) =>
    notificationJob(event, admin.id, {
      kind: 'partner-registered',
      title: 'New partner registration',
      body: `${applicant} registered as a partner and is waiting for approval.`,
      link: '/adminpanel',
    }),
  );
};

/**
 * An activation an admin makes by hand is announced here; one that is a step of a process (a partner
 * approval activates the applicant) is announced by that process, in its own words, so the user is
 * not told twice.
 */
const notifyActivatedUser: Reaction = async (recorded) => {
  const event = recorded as EventOf<'UserActivated.v1'>;
  if (event.metadata.causationId) return [];
  return [
    notificationJob(event, event.data.userId, {
      kind: 'account-activated',
      title: 'Your account is active',
      body: 'You can now sign in to PartnerHub.',
      link: '/',
    }),
  ];
};

export const identityReactions: ReactionTable = {
  'UserRegistered.v1': [notifyAdminsOfPartnerRegistration],
  'UserActivated.v1': [notifyActivatedUser],
};
