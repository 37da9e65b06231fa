/**
 * Team management: partner and distributor accounts manage the team members of their own
 * organisation. A team member is a user (its events are the identity module's, in its `users-<id>`
 * stream); this decider holds the rules a parent must follow, so every change is refused or allowed here
 * and nowhere else.
 */

import { grantablePermissions, normalizePermission, SUB_USER_ROLE_OF_PARENT, type Permission } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { evolve, users, type UserEvent, type UserState } from '../identity/users';

/** The account acting on its team, with the permissions it holds now. */
export interface TeamOwner {
  id: string;
  role: string;
  permissions: readonly string[];
  companyName: string | null;
}

export interface TeamMemberDetails {
  email: string;
  fullName: string;
  permissions: readonly string[];
}

export type TeamCommand =
  | ({ type: 'AddTeamMember'; owner: TeamOwner; userId: string; passwordHash: string; isActive: boolean } & TeamMemberDetails)
  | ({ type: 'InviteTeamMember'; owner: TeamOwner; userId: string; invitationId: string; expiresAt: string } & TeamMemberDetails)
  | ({ type: 'UpdateTeamMember'; owner: TeamOwner; isActive: boolean; passwordHash?: string } & TeamMemberDetails)
  | { type: 'ResetTeamMemberPassword'; owner: TeamOwner; passwordHash: string }
  | { type: 'RemoveTeamMember'; owner: TeamOwner }
  | { type: 'AcceptInvitation'; invitationId: string; passwordHash: string }
  /** The owner's permissions were narrowed: the member keeps only what the owner still holds. */
  | { type: 'FollowOwnerPermissions'; ownerPermissions: readonly string[] };

export const TEAM_MESSAGES = {
  notAnOwner: 'Only partner and distributor accounts manage team members.',
  notFound: 'Team member not found.',
  permissionsRequired: 'Please select at least one permission',
  unknownPermission: (names: string[]) => `Unknown permission${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`,
  notGrantable: (names: string[]) => `You cannot give a team member permissions you do not hold: ${names.join(', ')}.`,
  fullNameRequired: 'First name and last name are required',
  alreadyExists: 'This team member already exists.',
  invitationInvalid: 'This invitation link is not valid. Ask your team administrator for a new one.',
  invitationUsed: 'This invitation has already been used. Sign in with the password you chose.',
  invitationExpired: 'This invitation link has expired. Ask your team administrator for a new one.',
} as const;

/** The role of the members an owner manages, or a refusal for accounts that have no team. */
function memberRoleOf(owner: TeamOwner): string {
  const role = Object.hasOwn(SUB_USER_ROLE_OF_PARENT, owner.role) ? SUB_USER_ROLE_OF_PARENT[owner.role as keyof typeof SUB_USER_ROLE_OF_PARENT] : undefined;
  if (!role) throw new DomainError('forbidden', 'NOT_A_TEAM_OWNER', TEAM_MESSAGES.notAnOwner);
  return role;
}

type Member = Exclude<UserState, { status: 'none' }>;

/** A member of this owner's team; anyone else's account is answered as not found. */
function memberOf(owner: TeamOwner, state: UserState): Member {
  const role = memberRoleOf(owner);
  if (state.status === 'none' || state.status === 'deleted' || state.parentUserId !== owner.id || state.role !== role) {
    throw new DomainError('not_found', 'NOT_FOUND', TEAM_MESSAGES.notFound);
  }
  return state;
}

/** The permissions as the server enforces them (`Category.Action`), each one the owner may give. */
function grantedBy(owner: TeamOwner, memberRole: string, requested: readonly string[]): Permission[] {
  if (requested.length === 0)
    throw new DomainError('invalid', 'PERMISSIONS_REQUIRED', TEAM_MESSAGES.permissionsRequired, [
      { field: 'permissions', message: TEAM_MESSAGES.permissionsRequired },
    ]);
  const unknown = requested.filter((name) => normalizePermission(name) === null);
  if (unknown.length)
    throw new DomainError('invalid', 'UNKNOWN_PERMISSION', TEAM_MESSAGES.unknownPermission(unknown), [
      { field: 'permissions', message: TEAM_MESSAGES.unknownPermission(unknown) },
    ]);
  const permissions = [...new Set(requested.map((name) => normalizePermission(name)!))];
  const grantable = new Set(grantablePermissions(owner, memberRole));
  const refused = permissions.filter((permission) => !grantable.has(permission));
  if (refused.length)
    throw new DomainError('forbidden', 'PERMISSION_NOT_GRANTABLE', TEAM_MESSAGES.notGrantable(refused), [
      { field: 'permissions', message: TEAM_MESSAGES.notGrantable(refused) },
    ]);
  return permissions;
}

function checkName(fullName: string): void {
  if (!fullName.trim())
    throw new DomainError('invalid', 'VALIDATION_ERROR', TEAM_MESSAGES.fullNameRequired, [{ field: 'full_name', message: TEAM_MESSAGES.fullNameRequired }]);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

function registered(
  command: Extract<TeamCommand, { type: 'AddTeamMember' | 'InviteTeamMember' }>,
  state: UserState,
  active: boolean,
  passwordHash: string,
): UserEvent {
  const role = memberRoleOf(command.owner);
  if (state.status !== 'none') throw new DomainError('conflict', 'CONFLICT', TEAM_MESSAGES.alreadyExists);
  checkName(command.fullName);
  return {
    type: 'UserRegistered.v1',
    data: {
      userId: command.userId,
      email: command.email,
      fullName: command.fullName.trim(),
      companyName: command.owner.companyName,
      role,
      permissions: grantedBy(command.owner, role, command.permissions),
      parentUserId: command.owner.id,
      passwordHash,
      selfRegistered: false,
      status: active ? 'active' : 'inactive',
      previousStatus: null,
    },
  };
}

export function decide(command: TeamCommand, state: UserState, metadata: CommandMetadata): UserEvent[] {
  switch (command.type) {
    case 'AddTeamMember':
      return [registered(command, state, command.isActive, command.passwordHash)];
    case 'InviteTeamMember': {
      // No password yet: the account cannot sign in until the invitation sets one.
      const event = registered(command, state, false, '');
      return [
        event,
        { type: 'UserInvited.v1', data: { userId: command.userId, email: command.email, invitationId: command.invitationId, expiresAt: command.expiresAt } },
      ];
    }
    case 'UpdateTeamMember': {
      const member = memberOf(command.owner, state);
      checkName(command.fullName);
      const permissions = grantedBy(command.owner, member.role, command.permissions);
      const events: UserEvent[] = [];
      const fullName = command.fullName.trim();
      if (command.email !== member.email || fullName !== member.fullName) {
        events.push({ type: 'UserProfileUpdated.v1', data: { userId: member.id, email: command.email, fullName, companyName: member.companyName } });
      }
      if (!sameList(permissions, member.permissions)) {
        events.push({ type: 'UserPermissionsChanged.v1', data: { userId: member.id, permissions, previousPermissions: member.permissions } });
      }
      // An invited member becomes active by accepting, not by an edit.
      const active = command.isActive && !member.invitation;
      if (active !== (member.status === 'active')) {
        events.push(
          active
            ? { type: 'UserActivated.v1', data: { userId: member.id, status: 'active', previousStatus: member.status, reason: null } }
            : { type: 'UserDeactivated.v1', data: { userId: member.id, status: 'inactive', previousStatus: member.status, reason: null } },
        );
      }
      if (command.passwordHash) events.push({ type: 'UserPasswordChanged.v1', data: { userId: member.id, passwordHash: command.passwordHash } });
      return events;
    }
    case 'ResetTeamMemberPassword': {
      const member = memberOf(command.owner, state);
      return [{ type: 'UserPasswordChanged.v1', data: { userId: member.id, passwordHash: command.passwordHash } }];
    }
    case 'RemoveTeamMember': {
      const member = memberOf(command.owner, state);
      return [{ type: 'UserDeleted.v1', data: { userId: member.id, email: member.email, status: 'deleted', previousStatus: member.status } }];
    }
    case 'AcceptInvitation': {
      if (state.status === 'none' || state.status === 'deleted') throw new DomainError('not_found', 'INVITATION_INVALID', TEAM_MESSAGES.invitationInvalid);
      if (!state.invitation) throw new DomainError('conflict', 'INVITATION_USED', TEAM_MESSAGES.invitationUsed);
      if (state.invitation.invitationId !== command.invitationId) throw new DomainError('not_found', 'INVITATION_INVALID', TEAM_MESSAGES.invitationInvalid);
      if (metadata.now >= state.invitation.expiresAt) throw new DomainError('conflict', 'INVITATION_EXPIRED', TEAM_MESSAGES.invitationExpired);
      return [
        { type: 'UserPasswordChanged.v1', data: { userId: state.id, passwordHash: command.passwordHash } },
        { type: 'UserInvitationAccepted.v1', data: { userId: state.id, invitationId: command.invitationId } },
        ...(state.status === 'active'
          ? []
          : [
              {
                type: 'UserActivated.v1' as const,
                data: { userId: state.id, status: 'active' as const, previousStatus: state.status, reason: 'Invitation accepted' },
              },
            ]),
      ];
    }
    case 'FollowOwnerPermissions': {
      if (state.status === 'none' || state.status === 'deleted') return [];
      const held = new Set(command.ownerPermissions.map((name) => normalizePermission(name)).filter(Boolean));
      const kept = state.permissions.filter((name) => held.has(normalizePermission(name)));
      if (kept.length === state.permissions.length) return [];
      return [{ type: 'UserPermissionsChanged.v1', data: { userId: state.id, permissions: kept, previousPermissions: state.permissions } }];
    }
    default:
      return assertNever(command);
  }
}

/** The team's decider works on the member's own user stream, with the identity module's events and `evolve`. */
export const team: Decider<UserState, TeamCommand, UserEvent> = {
  initialState: users.initialState,
  evolve,
  decide,
  streamId: users.streamId,
};
