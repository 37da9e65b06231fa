import { describe, it } from 'vitest';
import type { UserEvent } from '../identity/users';
import { deciderSpec } from '../deciderSpec';
import { team, TEAM_MESSAGES, type TeamCommand, type TeamOwner } from './team';

const spec = deciderSpec(team);

const partner: TeamOwner = {
  id: 'partner-1',
  role: 'partner',
  permissions: ['Projects.Read', 'Projects.Create', 'Orders.Browse', 'Orders.Track', 'Support.Read'],
  companyName: 'Northwind Networks',
};
const otherPartner: TeamOwner = { ...partner, id: 'partner-2', companyName: 'Fjord Networks' };
const distributor: TeamOwner = { id: 'distributor-1', role: 'distributor', permissions: ['Orders.Read', 'Orders.Create'], companyName: 'Atlas Distribution' };

const add: Extract<TeamCommand, { type: 'AddTeamMember' }> = {
  type: 'AddTeamMember',
  owner: partner,
  userId: 'member-1',
  email: 'lena@northwind.test',
  fullName: 'Lena Fischer',
  permissions: ['projects_read', 'Orders.Track'],
  passwordHash: 'hash-1',
  isActive: true,
};

const memberRegistered: UserEvent = {
  type: 'UserRegistered.v1',
  data: {
    userId: 'member-1',
    email: 'lena@northwind.test',
    fullName: 'Lena Fischer',
    companyName: 'Northwind Networks',
    role: 'partner_user',
    permissions: ['Projects.Read', 'Orders.Track'],
    parentUserId: 'partner-1',
    passwordHash: 'hash-1',
    selfRegistered: false,
    status: 'active',
    previousStatus: null,
  },
};

const update = (overrides: Partial<Extract<TeamCommand, { type: 'UpdateTeamMember' }>> = {}): TeamCommand => ({
  type: 'UpdateTeamMember',
  owner: partner,
  email: 'lena@northwind.test',
  fullName: 'Lena Fischer',
  permissions: ['Projects.Read', 'Orders.Track'],
  isActive: true,
  ...overrides,
});

describe('adding a team member', () => {
  it('registers a member of the owner’s organisation, in the Category.Action form, active by default', () => {
    spec.given([]).when(add).then([memberRegistered]);
  });

  it('gives a distributor’s member the distributor_user role', () => {
    spec
      .given([])
      .when({ ...add, owner: distributor, permissions: ['orders_read'] })
      .then([
        {
          ...memberRegistered,
          data: {
            ...memberRegistered.data,
            role: 'distributor_user',
            permissions: ['Orders.Read'],
            parentUserId: 'distributor-1',
            companyName: 'Atlas Distribution',
          },
        } as UserEvent,
      ]);
  });

  it('refuses permissions the owner does not hold', () => {
    spec
      .given([])
      .when({ ...add, permissions: ['Projects.Read', 'Rebates.Read'] })
      .thenThrows(TEAM_MESSAGES.notGrantable(['Rebates.Read']), 'PERMISSION_NOT_GRANTABLE');
  });

  it('refuses permissions no team member may hold, even when the owner holds them', () => {
    spec
      .given([])
      .when({ ...add, owner: { ...partner, permissions: [...partner.permissions, 'Partners.Read'] }, permissions: ['Partners.Read'] })
      .thenThrows(TEAM_MESSAGES.notGrantable(['Partners.Read']), 'PERMISSION_NOT_GRANTABLE');
  });

  it('needs at least one permission', () => {
    spec
      .given([])
      .when({ ...add, permissions: [] })
      .thenThrows(TEAM_MESSAGES.permissionsRequired, 'PERMISSIONS_REQUIRED');
  });

  it('refuses names that are not permissions', () => {
    spec
      .given([])
      .when({ ...add, permissions: ['projects_fly'] })
      .thenThrows(TEAM_MESSAGES.unknownPermission(['projects_fly']), 'UNKNOWN_PERMISSION');
  });

  it('needs a name', () => {
    spec
      .given([])
      .when({ ...add, fullName: '  ' })
      .thenThrows(TEAM_MESSAGES.fullNameRequired);
  });

  it.each(['manufacturer', 'support', 'admin', 'partner_user'])('is not for a %s account', (role) => {
    spec
      .given([])
      .when({ ...add, owner: { ...partner, role } })
      .thenThrows(TEAM_MESSAGES.notAnOwner, 'NOT_A_TEAM_OWNER');
  });

  it('cannot register an existing account again', () => {
    spec.given([memberRegistered]).when(add).thenThrows(TEAM_MESSAGES.alreadyExists, 'CONFLICT');
  });
});

describe('inviting a team member', () => {
  const invite: TeamCommand = {
    type: 'InviteTeamMember',
    owner: partner,
    userId: 'member-1',
    email: 'lena@northwind.test',
    fullName: 'Lena Fischer',
    permissions: ['Projects.Read'],
    invitationId: 'inv-1',
    expiresAt: '2026-11-28T10:00:00.000Z',
  };
  const invited: UserEvent[] = [
    { ...memberRegistered, data: { ...memberRegistered.data, permissions: ['Projects.Read'], passwordHash: '', status: 'inactive' } } as UserEvent,
    { type: 'UserInvited.v1', data: { userId: 'member-1', email: 'lena@northwind.test', invitationId: 'inv-1', expiresAt: '2026-11-28T10:00:00.000Z' } },
  ];

  it('registers the member inactive, without a password, with an open invitation', () => {
    spec.given([]).when(invite).then(invited);
  });

  it('is accepted once, before it expires: the password is set and the member active', () => {
    spec
      .given(invited)
      .when({ type: 'AcceptInvitation', invitationId: 'inv-1', passwordHash: 'hash-2' })
      .then([
        { type: 'UserPasswordChanged.v1', data: { userId: 'member-1', passwordHash: 'hash-2' } },
        { type: 'UserInvitationAccepted.v1', data: { userId: 'member-1', invitationId: 'inv-1' } },
        { type: 'UserActivated.v1', data: { userId: 'member-1', status: 'active', previousStatus: 'inactive', reason: 'Invitation accepted' } },
      ]);
  });

  it('cannot be used twice', () => {
    spec
      .given([...invited, { type: 'UserInvitationAccepted.v1', data: { userId: 'member-1', invitationId: 'inv-1' } }])
      .when({ type: 'AcceptInvitation', invitationId: 'inv-1', passwordHash: 'hash-3' })
      .thenThrows(TEAM_MESSAGES.invitationUsed, 'INVITATION_USED');
  });

  it('cannot be used after it expires', () => {
    spec
      .given(invited)
      .when({ type: 'AcceptInvitation', invitationId: 'inv-1', passwordHash: 'hash-2' }, { now: '2026-11-28T10:00:00.000Z' })
      .thenThrows(TEAM_MESSAGES.invitationExpired, 'INVITATION_EXPIRED');
  });

  it('refuses another invitation’s id', () => {
    spec
      .given(invited)
      .when({ type: 'AcceptInvitation', invitationId: 'inv-2', passwordHash: 'hash-2' })
      .thenThrows(TEAM_MESSAGES.invitationInvalid, 'INVITATION_INVALID');
  });

  it('keeps an invited member inactive through an edit', () => {
    spec
      .given(invited)
      .when(update({ permissions: ['Projects.Read'] }))
      .then([]);
  });
});

describe('changing a team member', () => {
  it('records the profile, permissions, activity and password it changes, and nothing else', () => {
    spec
      .given([memberRegistered])
      .when(update({ fullName: 'Lena Fischer-Kurz', permissions: ['Projects.Read'], isActive: false, passwordHash: 'hash-9' }))
      .then([
        {
          type: 'UserProfileUpdated.v1',
          data: { userId: 'member-1', email: 'lena@northwind.test', fullName: 'Lena Fischer-Kurz', companyName: 'Northwind Networks' },
        },
        {
          type: 'UserPermissionsChanged.v1',
          data: { userId: 'member-1', permissions: ['Projects.Read'], previousPermissions: ['Projects.Read', 'Orders.Track'] },
        },
        { type: 'UserDeactivated.v1', data: { userId: 'member-1', status: 'inactive', previousStatus: 'active', reason: null } },
        { type: 'UserPasswordChanged.v1', data: { userId: 'member-1', passwordHash: 'hash-9' } },
      ]);
  });

  it('keeps the password when none is given', () => {
    spec.given([memberRegistered]).when(update()).then([]);
  });

  it('refuses to grant more than the owner holds', () => {
    spec
      .given([memberRegistered])
      .when(update({ permissions: ['Projects.Read', 'Rebates.Overview'] }))
      .thenThrows(TEAM_MESSAGES.notGrantable(['Rebates.Overview']), 'PERMISSION_NOT_GRANTABLE');
  });

  it.each<[string, TeamCommand]>([
    ['an update', update({ owner: otherPartner })],
    ['a password reset', { type: 'ResetTeamMemberPassword', owner: otherPartner, passwordHash: 'x' }],
    ['a removal', { type: 'RemoveTeamMember', owner: otherPartner }],
  ])('answers %s by another organisation as if the member did not exist', (_, command) => {
    spec.given([memberRegistered]).when(command).thenThrows(TEAM_MESSAGES.notFound, 'NOT_FOUND');
  });

  it('does not let a distributor manage a partner’s member', () => {
    spec
      .given([memberRegistered])
      .when({ type: 'RemoveTeamMember', owner: { ...distributor, id: 'partner-1' } })
      .thenThrows(TEAM_MESSAGES.notFound, 'NOT_FOUND');
  });

  it('does not reach accounts that are not team members (an owner, an admin)', () => {
    const ownerAccount: UserEvent = {
      ...memberRegistered,
      data: { ...memberRegistered.data, userId: 'partner-1', role: 'partner', parentUserId: null },
    } as UserEvent;
    spec.given([ownerAccount]).when({ type: 'RemoveTeamMember', owner: partner }).thenThrows(TEAM_MESSAGES.notFound, 'NOT_FOUND');
  });

  it('resets the password', () => {
    spec
      .given([memberRegistered])
      .when({ type: 'ResetTeamMemberPassword', owner: partner, passwordHash: 'hash-7' })
      .then([{ type: 'UserPasswordChanged.v1', data: { userId: 'member-1', passwordHash: 'hash-7' } }]);
  });

  it('removes the member', () => {
    spec
      .given([memberRegistered])
      .when({ type: 'RemoveTeamMember', owner: partner })
      .then([{ type: 'UserDeleted.v1', data: { userId: 'member-1', email: 'lena@northwind.test', status: 'deleted', previousStatus: 'active' } }]);
  });

  it('cannot change a removed member', () => {
    spec
      .given([
        memberRegistered,
        { type: 'UserDeleted.v1', data: { userId: 'member-1', email: 'lena@northwind.test', status: 'deleted', previousStatus: 'active' } },
      ])
      .when(update())
      .thenThrows(TEAM_MESSAGES.notFound, 'NOT_FOUND');
  });
});

describe("following the owner's permissions", () => {
  it('drops what the owner no longer holds', () => {
    spec
      .given([memberRegistered])
      .when({ type: 'FollowOwnerPermissions', ownerPermissions: ['Projects.Read', 'Support.Read'] })
      .then([
        {
          type: 'UserPermissionsChanged.v1',
          data: { userId: 'member-1', permissions: ['Projects.Read'], previousPermissions: ['Projects.Read', 'Orders.Track'] },
        },
      ]);
  });

  it('changes nothing when the owner still holds everything (a replay is harmless)', () => {
    spec.given([memberRegistered]).when({ type: 'FollowOwnerPermissions', ownerPermissions: partner.permissions }).then([]);
  });
});
