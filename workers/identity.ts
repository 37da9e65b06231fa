import type { UserEvent } from '../domain/identity/users';
import type { RecordedEvent } from '../platform/eventstore';
import { notificationJob } from './notifications';
import type { Reaction, ReactionTable } from './reactor';
import { announcePartnerRegistration } from './registrations';

type EventOf<Type extends UserEvent['type']> = RecordedEvent<Type, Extract<UserEvent, { type: Type }>['data']>;

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
  // A partner who registered themselves waits for approval: admins hear of it, in digests when sign-ups come in bursts.
  'UserRegistered.v1': [announcePartnerRegistration],
  'UserActivated.v1': [notifyActivatedUser],
};
