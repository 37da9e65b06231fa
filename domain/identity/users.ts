import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/** Account status as it appears in the status history. */
export type UserStatus = 'active' | 'inactive' | 'deleted';

export interface UserProfile {
  email: string;
  fullName: string;
  companyName: string | null;
}

export type UserState =
  | { status: 'none' }
  | ({
      status: UserStatus;
      id: string;
      role: string;
      permissions: string[];
      parentUserId: string | null;
      /** An open invitation to set a password (team members invited by e-mail). */
      invitation: { invitationId: string; expiresAt: string } | null;
      /** Erased: the personal data is gone for good and the account with it (its status reads deleted). */
      erased: boolean;
    } & UserProfile);

// ---- events (past tense); data that changes a status carries `status` and `previousStatus` ----

export type UserEvent =
  | {
      type: 'UserRegistered.v1';
      data: UserProfile & {
        userId: string;
        role: string;
        permissions: string[];
        parentUserId: string | null;
        /** Only on the way into the store, which keeps it in secret.event_secrets: events read back never carry it. */
        passwordHash?: string;
        selfRegistered: boolean;
        status: 'active' | 'inactive';
        previousStatus: null;
      };
    }
  | { type: 'UserProfileUpdated.v1'; data: UserProfile & { userId: string } }
  | { type: 'UserPermissionsChanged.v1'; data: { userId: string; permissions: string[]; previousPermissions: string[] } }
  | { type: 'UserActivated.v1'; data: { userId: string; status: 'active'; previousStatus: UserStatus; reason: string | null } }
  | { type: 'UserDeactivated.v1'; data: { userId: string; status: 'inactive'; previousStatus: UserStatus; reason: string | null } }
  | { type: 'UserDeleted.v1'; data: { userId: string; email: string; status: 'deleted'; previousStatus: UserStatus } }
  /** `passwordHash` only on the way into the store (see UserRegistered.v1). */
  | { type: 'UserPasswordChanged.v1'; data: { userId: string; passwordHash?: string } }
  | { type: 'UserInvited.v1'; data: { userId: string; email: string; invitationId: string; expiresAt: string } }
  | { type: 'UserInvitationAccepted.v1'; data: { userId: string; invitationId: string } }
  /** Appending it deletes the person's key first: their personal fields in every event read as erased from then on. */
  | { type: 'UserErased.v1'; data: { userId: string; reason: string } };

// ---- commands (imperative) ----

export type UserCommand =
  | {
      type: 'RegisterUser';
      userId: string;
      email: string;
      fullName: string;
      companyName: string | null;
      role: string;
      permissions: string[];
      parentUserId: string | null;
      passwordHash: string;
      isActive: boolean;
      selfRegistered: boolean;
    }
  | {
      /** An admin's edit: every change it carries lands together or not at all. */
      type: 'UpdateUser';
      email: string;
      fullName: string;
      companyName: string | null;
      role?: string;
      isActive?: boolean;
      permissions?: string[];
      passwordHash?: string;
    }
  | { type: 'ChangeUserPermissions'; permissions: string[] }
  /** The account holder's own name replaces a placeholder (a partner registers with its company name). */
  | { type: 'RenameUser'; fullName: string }
  | { type: 'ActivateUser'; reason?: string | null }
  | { type: 'DeactivateUser'; reason?: string | null }
  | { type: 'DeleteUser' }
  | { type: 'ChangePassword'; passwordHash: string }
  /** The right to erasure: an administrator, with a reason, for anyone but themselves; deleted accounts too. */
  | { type: 'EraseUser'; reason: string };

export const USER_MESSAGES = {
  notFound: 'User not found.',
  alreadyExists: 'This user already exists.',
  deleted: 'This user has been deleted.',
  adminNotDeletable: 'Admin users cannot be deleted for security reasons.',
  onlyAdminsChangePermissions: 'Only administrators can update user permissions',
  roleFixed: "A user's role cannot be changed.",
  erased: 'This user has been erased.',
  onlyAdminsErase: 'Only administrators can erase a user.',
  eraseReasonRequired: 'A reason is required to erase a user.',
  alreadyErased: 'This user has already been erased.',
  notYourself: 'You cannot erase your own account.',
} as const;

const isAdmin = (role: string | null) => role === 'admin' || role === 'administrator';

type Existing = Exclude<UserState, { status: 'none' }>;

function existing(state: UserState): Existing {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', USER_MESSAGES.notFound);
  if (state.erased) throw new DomainError('not_found', 'NOT_FOUND', USER_MESSAGES.erased);
  if (state.status === 'deleted') throw new DomainError('not_found', 'NOT_FOUND', USER_MESSAGES.deleted);
  return state;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

export function decide(command: UserCommand, state: UserState, metadata: CommandMetadata): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser': {
      if (state.status !== 'none') throw new DomainError('conflict', 'CONFLICT', USER_MESSAGES.alreadyExists);
      const { type: _type, isActive, ...data } = command;
      return [{ type: 'UserRegistered.v1', data: { ...data, status: isActive ? 'active' : 'inactive', previousStatus: null } }];
    }
    case 'UpdateUser': {
      const user = existing(state);
      if (command.role !== undefined && command.role !== user.role) throw new DomainError('invalid', 'ROLE_FIXED', USER_MESSAGES.roleFixed);
      const events: UserEvent[] = [];
      if (command.email !== user.email || command.fullName !== user.fullName || command.companyName !== user.companyName) {
        events.push({
          type: 'UserProfileUpdated.v1',
          data: { userId: user.id, email: command.email, fullName: command.fullName, companyName: command.companyName },
        });
      }
      if (command.permissions) events.push(...decide({ type: 'ChangeUserPermissions', permissions: command.permissions }, state, metadata));
      if (command.isActive !== undefined) events.push(...decide({ type: command.isActive ? 'ActivateUser' : 'DeactivateUser' }, state, metadata));
      if (command.passwordHash) events.push(...decide({ type: 'ChangePassword', passwordHash: command.passwordHash }, state, metadata));
      return events;
    }
    case 'RenameUser': {
      const user = existing(state);
      const fullName = command.fullName.trim();
      if (!fullName || fullName === user.fullName) return [];
      return [{ type: 'UserProfileUpdated.v1', data: { userId: user.id, email: user.email, fullName, companyName: user.companyName } }];
    }
    case 'ChangeUserPermissions': {
      const user = existing(state);
      if (!isAdmin(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', USER_MESSAGES.onlyAdminsChangePermissions);
      if (sameList(command.permissions, user.permissions)) return [];
      return [{ type: 'UserPermissionsChanged.v1', data: { userId: user.id, permissions: command.permissions, previousPermissions: user.permissions } }];
    }
    case 'ActivateUser': {
      const user = existing(state);
      if (user.status === 'active') return [];
      return [{ type: 'UserActivated.v1', data: { userId: user.id, status: 'active', previousStatus: user.status, reason: command.reason ?? null } }];
    }
    case 'DeactivateUser': {
      const user = existing(state);
      if (user.status === 'inactive') return [];
      return [{ type: 'UserDeactivated.v1', data: { userId: user.id, status: 'inactive', previousStatus: user.status, reason: command.reason ?? null } }];
    }
    case 'DeleteUser': {
      const user = existing(state);
      if (isAdmin(user.role)) throw new DomainError('forbidden', 'ADMIN_NOT_DELETABLE', USER_MESSAGES.adminNotDeletable);
      return [{ type: 'UserDeleted.v1', data: { userId: user.id, email: user.email, status: 'deleted', previousStatus: user.status } }];
    }
    case 'ChangePassword': {
      const user = existing(state);
      return [{ type: 'UserPasswordChanged.v1', data: { userId: user.id, passwordHash: command.passwordHash } }];
    }
    case 'EraseUser': {
      if (!isAdmin(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', USER_MESSAGES.onlyAdminsErase);
      if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', USER_MESSAGES.notFound);
      if (state.erased) throw new DomainError('conflict', 'ALREADY_ERASED', USER_MESSAGES.alreadyErased);
      if (state.id === metadata.actorId) throw new DomainError('forbidden', 'CANNOT_ERASE_SELF', USER_MESSAGES.notYourself);
      const reason = command.reason.trim();
      if (!reason)
        throw new DomainError('invalid', 'VALIDATION_ERROR', USER_MESSAGES.eraseReasonRequired, [
          { field: 'reason', message: USER_MESSAGES.eraseReasonRequired },
        ]);
      return [{ type: 'UserErased.v1', data: { userId: state.id, reason } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserRegistered.v1') {
    const { userId, email, fullName, companyName, role, permissions, parentUserId, status } = event.data;
    return { status, id: userId, email, fullName, companyName, role, permissions, parentUserId, invitation: null, erased: false };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'UserProfileUpdated.v1':
      return { ...state, email: event.data.email, fullName: event.data.fullName, companyName: event.data.companyName };
    case 'UserPermissionsChanged.v1':
      return { ...state, permissions: event.data.permissions };
    case 'UserActivated.v1':
    case 'UserDeactivated.v1':
    case 'UserDeleted.v1':
      return { ...state, status: event.data.status };
    case 'UserPasswordChanged.v1':
      return state;
    case 'UserInvited.v1':
      return { ...state, invitation: { invitationId: event.data.invitationId, expiresAt: event.data.expiresAt } };
    case 'UserInvitationAccepted.v1':
      return { ...state, invitation: null };
    case 'UserErased.v1':
      return { ...state, status: 'deleted', erased: true, invitation: null };
    default:
      return assertNever(event);
  }
}

export const users: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `users-${id}`,
};
