import type { CommandMetadata } from '../domain/decider';
import { team, type TeamCommand, type TeamOwner } from '../domain/team/team';
import type { Services } from '../platform/services';
import { checkCommand } from '../platform/commands/commandHandler';
import { runCommand } from '../platform/commands/dispatch';
import { releaseEmailOfDeleted, withEmailChanged, withEmailClaimed } from './users';

type Deps = Pick<Services, 'store' | 'watcher'>;
type NewMember = Extract<TeamCommand, { type: 'AddTeamMember' | 'InviteTeamMember' }>;
type MemberUpdate = Extract<TeamCommand, { type: 'UpdateTeamMember' }>;

/**
 * Adds (or invites) a team member across two streams: the member's e-mail claim, then the member.
 * The team's rules are checked first, then `admit` runs (the invitations' hourly limit), so a refused
 * command neither claims the address nor uses up the limit.
 */
export async function addTeamMember(deps: Deps, command: NewMember, metadata: CommandMetadata, admit: () => Promise<void> = async () => {}) {
  await checkCommand(deps.store, team, command.userId, command, metadata);
  await admit();
  return withEmailClaimed(deps, command.email, command.userId, metadata, () => runCommand(deps, team, command.userId, command, metadata));
}

/** Edits a member; a changed address is claimed before and the old one given back after. */
export async function updateTeamMember(deps: Deps, memberId: string, currentEmail: string, command: MemberUpdate, metadata: CommandMetadata) {
  await checkCommand(deps.store, team, memberId, command, metadata);
  return withEmailChanged(deps, memberId, currentEmail, command.email, metadata, () => runCommand(deps, team, memberId, command, metadata));
}

/** Removes a member and gives its address back. */
export async function removeTeamMember(deps: Deps, memberId: string, owner: TeamOwner, metadata: CommandMetadata) {
  const result = await runCommand(deps, team, memberId, { type: 'RemoveTeamMember', owner }, metadata);
  await releaseEmailOfDeleted(deps, result.events, memberId, metadata);
  return result;
}
