import { describe, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { users, USER_MESSAGES, type UserCommand, type UserEvent } from './users';
import { emailClaims, EMAIL_TAKEN_MESSAGE } from './emailClaims';

const spec = deciderSpec(users);
const id = 'u-1';

const register: Extract<UserCommand, { type: 'RegisterUser' }> = {
  type: 'RegisterUser',
  userId: id,
  email: 'dana@example.test',
  fullName: 'Dana Reseller',
  companyName: 'Dana Networks',
  role: 'distributor',
  permissions: ['Orders.Read'],
  parentUserId: null,
  passwordHash: 'hash-1',
  isActive: false,
  selfRegistered: false,
};

const registered = (overrides: Partial<Extract<UserEvent, { type: 'UserRegistered.v1' }>['data']> = {}): UserEvent => ({
  type: 'UserRegistered.v1',
  data: {
    userId: id,
    email: register.email,
    fullName: register.fullName,
    companyName: register.companyName,
    role: register.role,
    permissions: register.permissions,
    parentUserId: null,
    passwordHash: 'hash-1',
    selfRegistered: false,
    status: 'inactive',
    previousStatus: null,
    ...overrides,
  },
});
const activated: UserEvent = { type: 'UserActivated.v1', data: { userId: id, status: 'active', previousStatus: 'inactive', reason: null } };
const deleted: UserEvent = { type: 'UserDeleted.v1', data: { userId: id, email: register.email, status: 'deleted', previousStatus: 'inactive' } };

describe('users', () => {
  describe('when no user exists', () => {
    it('registers an inactive user', () => spec.given([]).when(register).then([registered()]));
    it('registers an active user', () =>
      spec
        .given([])
        .when({ ...register, isActive: true })
        .then([registered({ status: 'active' })]));
    it.each<UserCommand>([
      { type: 'ActivateUser' },
      { type: 'DeactivateUser' },
      { type: 'DeleteUser' },
      { type: 'ChangePassword', passwordHash: 'x' },
      { type: 'ChangeUserPermissions', permissions: [] },
      { type: 'UpdateUser', email: 'a@b.c', fullName: 'A', companyName: null },
    ])('refuses $type', (command) => spec.given([]).when(command).thenThrows(USER_MESSAGES.notFound, 'NOT_FOUND'));
  });

  describe('when registered and inactive', () => {
    it('refuses a second registration', () => spec.given([registered()]).when(register).thenThrows(USER_MESSAGES.alreadyExists));
    it('activates', () =>
      spec
        .given([registered()])
        .when({ type: 'ActivateUser', reason: 'Approved' })
        .then([{ ...activated, data: { ...activated.data, reason: 'Approved' } } as UserEvent]));
    it('deactivating again changes nothing', () => spec.given([registered()]).when({ type: 'DeactivateUser' }).then([]));
    it('updates the profile', () =>
      spec
        .given([registered()])
        .when({ type: 'UpdateUser', email: 'new@example.test', fullName: 'Dana R.', companyName: null, role: 'distributor' })
        .then([{ type: 'UserProfileUpdated.v1', data: { userId: id, email: 'new@example.test', fullName: 'Dana R.', companyName: null } }]));
    it('an unchanged profile appends nothing', () =>
      spec.given([registered()]).when({ type: 'UpdateUser', email: register.email, fullName: register.fullName, companyName: register.companyName }).then([]));
    it('an edit that changes everything lands as one set of events', () =>
      spec
        .given([registered()])
        .when({
          type: 'UpdateUser',
          email: register.email,
          fullName: 'Dana R.',
          companyName: null,
          isActive: true,
          permissions: ['Orders.Track'],
          passwordHash: 'hash-2',
        })
        .then([
          { type: 'UserProfileUpdated.v1', data: { userId: id, email: register.email, fullName: 'Dana R.', companyName: null } },
          { type: 'UserPermissionsChanged.v1', data: { userId: id, permissions: ['Orders.Track'], previousPermissions: ['Orders.Read'] } },
          activated,
          { type: 'UserPasswordChanged.v1', data: { userId: id, passwordHash: 'hash-2' } },
        ]));
    it('an edit by a non-admin that changes permissions is refused whole', () =>
      spec
        .given([registered()])
        .when({ type: 'UpdateUser', email: register.email, fullName: 'Other', companyName: null, permissions: ['Orders.Track'] }, { actorRole: 'partner' })
        .thenThrows(USER_MESSAGES.onlyAdminsChangePermissions));
    it('refuses a role change', () =>
      spec
        .given([registered()])
        .when({ type: 'UpdateUser', email: register.email, fullName: 'X', companyName: null, role: 'support' })
        .thenThrows(USER_MESSAGES.roleFixed));
    it('an admin changes permissions', () =>
      spec
        .given([registered()])
        .when({ type: 'ChangeUserPermissions', permissions: ['Orders.Read', 'Orders.Track'] })
        .then([
          { type: 'UserPermissionsChanged.v1', data: { userId: id, permissions: ['Orders.Read', 'Orders.Track'], previousPermissions: ['Orders.Read'] } },
        ]));
    it.each(['partner', 'distributor', 'support', 'manufacturer', null])('a %s may not change permissions', (actorRole) =>
      spec
        .given([registered()])
        .when({ type: 'ChangeUserPermissions', permissions: [] }, { actorRole })
        .thenThrows(USER_MESSAGES.onlyAdminsChangePermissions, 'INSUFFICIENT_PERMISSIONS'),
    );
    it('the same permissions in another order append nothing', () =>
      spec
        .given([registered({ permissions: ['A', 'B'] })])
        .when({ type: 'ChangeUserPermissions', permissions: ['B', 'A'] })
        .then([]));
    it('changes the password', () =>
      spec
        .given([registered()])
        .when({ type: 'ChangePassword', passwordHash: 'hash-2' })
        .then([{ type: 'UserPasswordChanged.v1', data: { userId: id, passwordHash: 'hash-2' } }]));
    it('deletes', () => spec.given([registered()]).when({ type: 'DeleteUser' }).then([deleted]));
    it("takes the account holder's own name, keeping e-mail and company", () =>
      spec
        .given([registered({ fullName: 'Dana Networks' })])
        .when({ type: 'RenameUser', fullName: '  Dana Reseller ' })
        .then([{ type: 'UserProfileUpdated.v1', data: { userId: id, email: register.email, fullName: 'Dana Reseller', companyName: register.companyName } }]));
    it('renaming to the same or a blank name changes nothing', () => {
      spec.given([registered()]).when({ type: 'RenameUser', fullName: register.fullName }).then([]);
      spec.given([registered()]).when({ type: 'RenameUser', fullName: '  ' }).then([]);
    });
  });

  describe('when active', () => {
    it('deactivates with a reason', () =>
      spec
        .given([registered(), activated])
        .when({ type: 'DeactivateUser', reason: 'Left the company' })
        .then([{ type: 'UserDeactivated.v1', data: { userId: id, status: 'inactive', previousStatus: 'active', reason: 'Left the company' } }]));
    it('activating again changes nothing', () => spec.given([registered(), activated]).when({ type: 'ActivateUser' }).then([]));
  });

  describe('when an admin', () => {
    it.each(['admin', 'administrator'])('a %s cannot be deleted', (role) =>
      spec
        .given([registered({ role })])
        .when({ type: 'DeleteUser' })
        .thenThrows(USER_MESSAGES.adminNotDeletable, 'ADMIN_NOT_DELETABLE'),
    );
  });

  describe('when deleted', () => {
    it.each<UserCommand>([{ type: 'ActivateUser' }, { type: 'DeleteUser' }, { type: 'ChangePassword', passwordHash: 'x' }])('refuses $type', (command) =>
      spec.given([registered(), deleted]).when(command).thenThrows(USER_MESSAGES.deleted),
    );
  });
});

describe('erasing a user', () => {
  const erase: UserCommand = { type: 'EraseUser', reason: ' Asked for erasure by e-mail on 2 March ' };
  const erased: UserEvent = { type: 'UserErased.v1', data: { userId: id, reason: 'Asked for erasure by e-mail on 2 March' } };
  it('erases an account with the reason given', () => spec.given([registered(), activated]).when(erase).then([erased]));
  it('erases a deleted account too: a former contact is usually deleted already', () => spec.given([registered(), deleted]).when(erase).then([erased]));
  it.each(['partner', 'support', 'distributor', null])('refuses a %s caller', (actorRole) =>
    spec.given([registered()]).when(erase, { actorRole }).thenThrows(USER_MESSAGES.onlyAdminsErase, 'INSUFFICIENT_PERMISSIONS'),
  );
  it.each(['', '   '])('refuses no reason (%j)', (reason) =>
    spec.given([registered()]).when({ type: 'EraseUser', reason }).thenThrows(USER_MESSAGES.eraseReasonRequired, 'VALIDATION_ERROR'),
  );
  it('refuses an account that does not exist', () => spec.given([]).when(erase).thenThrows(USER_MESSAGES.notFound, 'NOT_FOUND'));
  it('refuses erasing twice', () => spec.given([registered(), erased]).when(erase).thenThrows(USER_MESSAGES.alreadyErased, 'ALREADY_ERASED'));
  it('refuses erasing yourself', () => spec.given([registered()]).when(erase, { actorId: id }).thenThrows(USER_MESSAGES.notYourself, 'CANNOT_ERASE_SELF'));
  it.each<UserCommand>([
    { type: 'ActivateUser' },
    { type: 'ChangePassword', passwordHash: 'x' },
    { type: 'UpdateUser', email: 'a@b.c', fullName: 'A', companyName: null },
    { type: 'DeleteUser' },
  ])('an erased account refuses $type', (command) => spec.given([registered(), erased]).when(command).thenThrows(USER_MESSAGES.erased, 'NOT_FOUND'));
});

describe('email claims', () => {
  const claims = deciderSpec(emailClaims);
  const claimed = { type: 'EmailClaimed.v1' as const, data: { email: 'dana@example.test', userId: 'u-1' } };
  it('claims a free address, normalised', () => claims.given([]).when({ type: 'ClaimEmail', email: ' Dana@Example.TEST ', userId: 'u-1' }).then([claimed]));
  it('claiming again for the same user is a no-op', () =>
    claims.given([claimed]).when({ type: 'ClaimEmail', email: 'dana@example.test', userId: 'u-1' }).then([]));
  it('refuses another user', () =>
    claims.given([claimed]).when({ type: 'ClaimEmail', email: 'dana@example.test', userId: 'u-2' }).thenThrows(EMAIL_TAKEN_MESSAGE, 'EMAIL_TAKEN'));
  it('a released address can be claimed again', () =>
    claims
      .given([claimed, { type: 'EmailReleased.v1', data: { email: 'dana@example.test', userId: 'u-1' } }])
      .when({ type: 'ClaimEmail', email: 'dana@example.test', userId: 'u-2' })
      .then([{ type: 'EmailClaimed.v1', data: { email: 'dana@example.test', userId: 'u-2' } }]));
  it('only the holder releases', () => claims.given([claimed]).when({ type: 'ReleaseEmail', email: 'dana@example.test', userId: 'u-2' }).then([]));
});
