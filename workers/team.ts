import type { Job, Processor } from 'bullmq';
import type { UserEvent } from '../domain/identity/users';
import { team } from '../domain/team/team';
import { teamMemberIdsOf } from '../projections/team';
import { findUser } from '../projections/users';
import { metadataCausedBy, runCommand } from '../platform/commands/dispatch';
import type { RecordedEvent } from '../platform/eventstore';
import { invitationPath, invitationToken, portalAddress } from '../platform/invitations';
import type { Services } from '../platform/services';
import { escapeHtml, mailSentKey, SYSTEM_ACTOR, type Mailer } from './notifications';
import { QUEUES, reactionJobId } from '../platform/queues';
import type { Reaction, ReactionTable } from './reactor';

type EventOf<Type extends UserEvent['type']> = RecordedEvent<Type, Extract<UserEvent, { type: Type }>['data']>;

export type TeamJobData =
  | { kind: 'invitation-mail'; userId: string; invitationId: string; email: string; expiresAt: string }
  | { kind: 'follow-owner'; ownerId: string; permissions: string[]; cause: { eventId: string; correlationId: string } };

/** An invitation is mailed with its link; the link is computed here and never stored. */
const mailInvitation: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'UserInvited.v1'>;
  // The mail names the member and its organisation, read from the read models: they must include the invitation first.
  await context.readModelsInclude(recorded);
  const { userId, invitationId, email, expiresAt } = event.data;
  return [
    {
      queue: QUEUES.team,
      name: 'invitation-mail',
      id: reactionJobId(event.id, 'invitation-mail', userId),
      data: { kind: 'invitation-mail', userId, invitationId, email, expiresAt } satisfies TeamJobData,
    },
  ];
};

/** When an owner's permissions change, its members keep only what the owner still holds. */
const followOwner: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'UserPermissionsChanged.v1'>;
  const lost = event.data.previousPermissions.filter((permission) => !event.data.permissions.includes(permission));
  if (lost.length === 0) return [];
  await context.readModelsInclude(recorded);
  const owner = await findUser(context.pool, event.data.userId);
  if (!owner || owner.parent_user_id) return [];
  return [
    {
      queue: QUEUES.team,
      name: 'follow-owner',
      id: reactionJobId(event.id, 'follow-owner', owner.id),
      data: {
        kind: 'follow-owner',
        ownerId: owner.id,
        permissions: event.data.permissions,
        cause: { eventId: event.id, correlationId: event.metadata.correlationId },
      } satisfies TeamJobData,
    },
  ];
};

export const teamReactions: ReactionTable = {
  'UserInvited.v1': [mailInvitation],
  'UserPermissionsChanged.v1': [followOwner],
};

export function invitationMail(
  config: Services['config'],
  data: Extract<TeamJobData, { kind: 'invitation-mail' }>,
  member: { full_name: string; company_name: string | null },
) {
  const url = new URL(invitationPath(invitationToken(config.JWT_SECRET, data.userId, data.invitationId)), portalAddress(config)).toString();
  const team = member.company_name ? `the ${member.company_name} team` : 'your team';
  const until = new Date(data.expiresAt).toUTCString();
  return {
    to: data.email,
    subject: `You are invited to join ${team} on PartnerHub`,
    text: [
      `Hello ${member.full_name},`,
      '',
      `You are invited to join ${team} on PartnerHub. Choose your password here (the link works once, until ${until}):`,
      '',
      url,
      '',
      '— PartnerHub',
      '',
    ].join('\n'),
    html: [
      `<p>Hello ${escapeHtml(member.full_name)},</p>`,
      `<p>You are invited to join ${escapeHtml(team)} on PartnerHub. The link works once, until ${escapeHtml(until)}.</p>`,
      `<p><a href="${escapeHtml(url)}">Choose your password</a></p>`,
      '<p>— PartnerHub</p>',
    ].join('\n'),
  };
}

export type TeamJobOutcome = 'sent' | 'already-sent' | 'no-smtp' | 'recipient-gone' | { followed: number };

export function teamProcessor(
  services: Pick<Services, 'store' | 'pool' | 'redis' | 'watcher' | 'config'>,
  mailer: Mailer | undefined,
): Processor<TeamJobData, TeamJobOutcome> {
  return async (job: Job<TeamJobData>) => {
    const data = job.data;
    if (data.kind === 'follow-owner') {
      const metadata = metadataCausedBy({ id: data.cause.eventId, metadata: { correlationId: data.cause.correlationId } }, SYSTEM_ACTOR);
      const members = await teamMemberIdsOf(services.pool, data.ownerId);
      // Each command changes nothing when the member already holds only what the owner holds, so a retry is harmless.
      for (const memberId of members)
        await runCommand(services, team, memberId, { type: 'FollowOwnerPermissions', ownerPermissions: data.permissions }, metadata);
      return { followed: members.length };
    }
    if (!mailer) return 'no-smtp';
    const sentKey = mailSentKey(services.config, job.id ?? `${data.userId}.${data.invitationId}`);
    if (await services.redis.exists(sentKey)) return 'already-sent';
    const member = await findUser(services.pool, data.userId);
    if (!member) return 'recipient-gone';
    await mailer.send(invitationMail(services.config, data, member));
    await services.redis.set(sentKey, new Date().toISOString(), 'NX');
    return 'sent';
  };
}
