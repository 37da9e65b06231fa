import { randomUUID } from 'node:crypto';
import { answerCreated, earlierCreation, newRecordId } from './created';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ASSIGNABLE_PERMISSIONS_BY_ROLE,
  DEFAULT_PERMISSIONS_BY_ROLE,
  grantablePermissions,
  isAdminRole,
  isRole,
  normalizePermission,
  normalizePermissions,
  permissionLabel,
  ROLE_LABELS,
  ROLES,
  SUB_USER_ROLE_OF_PARENT,
  toSubUserPermission,
  type Permission,
  type Role,
} from '../../domain/access';
import { team, TEAM_MESSAGES, type TeamCommand, type TeamOwner } from '../../domain/team/team';
import { asOfRecordAnswer, idAnswer, messageAnswer } from '../../contracts/identity';
import {
  acceptInvitationBody,
  hierarchyAnswer,
  invitationAnswer,
  invitationQuery,
  MEMBER_READ_ONLY_FIELDS,
  PASSWORD_REQUIRED,
  permissionGroupsAnswer,
  permissionsAnswer,
  permissionsQuery,
  resetPasswordBody,
  roleAnswer,
  roleParam,
  rolesAnswer,
  teamListAnswer,
  teamMemberAnswer,
  teamMemberCreateBody,
  teamMemberCreatedAnswers,
  teamMemberEditFields,
  validatePermissionsAnswer,
  validatePermissionsBody,
  type PermissionEntry,
  type TeamMember,
} from '../../contracts/team';
import { findTeamMember, invitationOf, listTeamMembers, type TeamScope } from '../../projections/team';
import { findUser } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { addTeamMember, removeTeamMember, updateTeamMember } from '../../commands/team';
import { HttpError } from '../plugins/errors';
import { invitationPath, invitationToken, readInvitationToken } from '../../platform/invitations';
import { AttemptLimit } from '../plugins/throttle';
import { hashPassword } from '../../platform/passwords';
import type { SessionStore } from '../plugins/sessions';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { booleanFilter, listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';

/** "45 seconds", "12 minutes": an hour's wait in words a person reads. */
const waitOf = (seconds: number) => (seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

export const TEAM_ROUTE_MESSAGES = {
  added: 'Team member added successfully!',
  invited: (email: string) => `Invitation sent to ${email}.`,
  tooManyInvitations: (perHour: number) => (seconds: number) =>
    `Your organisation has sent ${perHour} invitations in the last hour, the most allowed. Please wait ${waitOf(seconds)} and try again.`,
  updated: 'Team member updated successfully!',
  deleted: 'Team member deleted successfully!',
  passwordReset: "The team member's password has been reset. They sign in with the new password.",
  ownTeamOnly: 'You can only manage the members of your own team.',
  parentRequired: (role: string) => `Choose the ${role} account whose team this member joins (parentUserId).`,
  passwordRequired: PASSWORD_REQUIRED,
  nameRequired: 'First name is required',
  invitationAccepted: 'Your password is set. You can sign in now.',
} as const;

const editBody = updateBody(teamMemberEditFields, MEMBER_READ_ONLY_FIELDS).meta({
  example: { full_name: 'Mara Lindqvist', email: 'mara.lindqvist@northwind.example', permissions: ['projects_read'], is_active: true, password: '' },
});

const listQuery = listQuerySchema({ isActive: booleanFilter.optional(), is_active: booleanFilter.optional() }, [
  'full_name',
  'email',
  'is_active',
  'created_at',
]);

/** The picker's entries: what the caller may give, in both spellings, grouped by category. */
function permissionEntry(permission: Permission): PermissionEntry {
  const [category, action] = permission.split('.');
  return { name: permission, key: toSubUserPermission(permission), category, action, label: permissionLabel(permission) };
}

/** `full_name` as the specification's form sends it (first and last joined); else the two names. */
const fullNameOf = (body: { full_name?: string; firstName?: string; lastName?: string }) => {
  const fullName = body.full_name?.trim() || [body.firstName, body.lastName].filter(Boolean).join(' ').trim();
  if (!fullName)
    throw new HttpError(400, 'VALIDATION_ERROR', TEAM_ROUTE_MESSAGES.nameRequired, [{ field: 'firstName', message: TEAM_ROUTE_MESSAGES.nameRequired }]);
  return fullName;
};

/**
 * One team's routes, for the partner (`/partner/management/sub-users`, members `partner_user`) or the
 * distributor (`/distributor/management/sub-users`, members `distributor_user`). The owner manages its
 * own team; an administrator may act on any team of that kind, for the member's owner.
 */
function teamRoutesFor(app: FastifyInstance, services: Services, sessions: SessionStore, ownerRole: 'partner' | 'distributor', invitations: AttemptLimit) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool, reads, config } = services;
  const memberRole = SUB_USER_ROLE_OF_PARENT[ownerRole];
  const base = `/${ownerRole}/management/sub-users`;
  const tags = ['team'];

  const scopeOf = (request: FastifyRequest): TeamScope => {
    if (request.principal.role === ownerRole) return { role: memberRole, ownerId: request.principal.id };
    if (isAdminRole(request.principal.role)) return { role: memberRole };
    throw new HttpError(403, 'NOT_A_TEAM_OWNER', TEAM_MESSAGES.notAnOwner);
  };

  /** The owner the command acts for: the caller itself, or, for an administrator, the member's owner. */
  const ownerFor = async (request: FastifyRequest, ownerId: string | null | undefined): Promise<TeamOwner> => {
    const { principal } = request;
    if (principal.role === ownerRole) {
      if (ownerId && ownerId !== principal.id) throw new HttpError(403, 'FORBIDDEN', TEAM_ROUTE_MESSAGES.ownTeamOnly);
      return { id: principal.id, role: principal.role, permissions: principal.permissions, companyName: principal.companyName };
    }
    if (!isAdminRole(principal.role)) throw new HttpError(403, 'NOT_A_TEAM_OWNER', TEAM_MESSAGES.notAnOwner);
    const owner = ownerId ? await findUser(pool, ownerId) : undefined;
    if (!owner || owner.role !== ownerRole)
      throw new HttpError(400, 'VALIDATION_ERROR', TEAM_ROUTE_MESSAGES.parentRequired(ownerRole), [
        { field: 'parentUserId', message: TEAM_ROUTE_MESSAGES.parentRequired(ownerRole) },
      ]);
    return { id: owner.id, role: owner.role, permissions: normalizePermissions(owner.permissions), companyName: owner.company_name };
  };

  const load = async (request: FastifyRequest, id: string, db: Queryable = pool): Promise<TeamMember> => {
    const member = await findTeamMember(db, scopeOf(request), id);
    if (!member) throw new HttpError(404, 'NOT_FOUND', TEAM_MESSAGES.notFound);
    return member;
  };

  const run = (request: FastifyRequest, memberId: string, command: TeamCommand) => runCommand(services, team, memberId, command, metadataFromRequest(request));

  api.get(
    base,
    { schema: { tags, summary: `The ${ownerRole}'s team members (both list shapes)`, querystring: listQuery, response: { 200: teamListAnswer } } },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listTeamMembers(
        reads,
        scopeOf(request),
        { search: q.search, isActive: q.filters.isActive ?? q.filters.is_active, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      if (q.reactAdmin) return sendList(reply, 'subUsers', q, rows, total) as TeamMember[];
      const totalPages = Math.max(1, Math.ceil(total / q.limit));
      // The partner screen reads data.totalCount and data.currentPage, the distributor screen the top-level total and page.
      return {
        success: true as const,
        data: { subUsers: rows, totalCount: total, currentPage: q.page, totalPages, total, page: q.page, limit: q.limit },
        total,
        page: q.page,
        limit: q.limit,
        totalPages,
      };
    },
  );

  api.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'One team member (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: z.union([asOfRecordAnswer, teamMemberAnswer]) },
      },
    },
    async (request) => {
      const member = await load(request, request.params.id, reads);
      if (!request.query.asOf) return recordAnswer(member);
      return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.teamMembers, member.id, request.query.asOf, request.principal, TEAM_MESSAGES.notFound));
    },
  );

  versionsRoute(api, services, {
    path: base,
    type: VERSIONED_RECORDS.teamMembers,
    params: uuidParam,
    notFound: TEAM_MESSAGES.notFound,
    visible: async (request, id) => (await load(request, id, reads)).id,
  });

  api.post(
    `${base}`,
    {
      schema: {
        tags,
        summary: 'Add a team member with a password, or invite one by e-mail (invite: true)',
        body: teamMemberCreateBody,
        response: teamMemberCreatedAnswers,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const owner = await ownerFor(request, body.parentUserId ?? (isAdminRole(request.principal.role) ? undefined : request.principal.id));
      const fullName = fullNameOf(body);
      if (!body.invite && !body.password)
        throw new HttpError(400, 'VALIDATION_ERROR', TEAM_ROUTE_MESSAGES.passwordRequired, [
          { field: 'password', message: TEAM_ROUTE_MESSAGES.passwordRequired },
        ]);
      const userId = newRecordId(request, 'team-member');
      const created = { id: userId, location: `/api${base}/${userId}` };
      const answer = async (extra: { invitationLink?: string } = {}) => {
        const member = await load(request, userId);
        return { ...recordAnswer(member, body.invite ? TEAM_ROUTE_MESSAGES.invited(body.email) : TEAM_ROUTE_MESSAGES.added), ...extra };
      };
      // A repeated request answers the member the first one added (an invitation's link was in that answer).
      const earlier = await earlierCreation(services, request, team.streamId(userId), userId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, () => answer());
      const metadata = metadataFromRequest(request);
      const details = { owner, userId, email: body.email, fullName, permissions: body.permissions };
      const invitationId = randomUUID();
      const command = body.invite
        ? {
            type: 'InviteTeamMember' as const,
            ...details,
            invitationId,
            expiresAt: new Date(Date.parse(metadata.now) + config.INVITATION_VALIDITY_SECONDS * 1000).toISOString(),
          }
        : { type: 'AddTeamMember' as const, ...details, passwordHash: await hashPassword(body.password!), isActive: body.is_active ?? body.isActive ?? true };
      // Refused before the address is claimed or an invitation counted, so a refusal writes nothing.
      await addTeamMember(services, command, metadata, async () => {
        if (body.invite) await invitations.consume(owner.id);
      });
      // The owner may pass an invitation's link on by hand too (the e-mail needs SMTP_URL).
      const link = body.invite ? { invitationLink: invitationPath(invitationToken(config.JWT_SECRET, userId, invitationId)) } : {};
      return answerCreated(services, reply, created, () => answer(link), link);
    },
  );

  api.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Edit a team member (a blank password keeps the current one)',
        params: uuidParam,
        body: editBody,
        response: { 200: teamMemberAnswer },
      },
    },
    async (request) => {
      const current = await load(request, request.params.id);
      const owner = await ownerFor(request, current.parentUserId);
      const body = request.body;
      const fullName = fullNameOf(body);
      const isActive = body.is_active ?? body.isActive ?? current.is_active;
      const metadata = metadataFromRequest(request);
      const command = {
        type: 'UpdateTeamMember' as const,
        owner,
        email: body.email,
        fullName,
        permissions: body.permissions,
        isActive,
        ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
      };
      await updateTeamMember(services, current.id, current.email, command, metadata);
      if (!isActive || body.password)
        await sessions.revokeAllOf(current.id, body.password ? 'password reset by the team owner' : 'deactivated by the team owner');
      return recordAnswer(await load(request, current.id), TEAM_ROUTE_MESSAGES.updated);
    },
  );

  api.delete(`${base}/:id`, { schema: { tags, summary: 'Remove a team member', params: uuidParam, response: { 200: idAnswer } } }, async (request) => {
    const current = await load(request, request.params.id);
    const owner = await ownerFor(request, current.parentUserId);
    await removeTeamMember(services, current.id, owner, metadataFromRequest(request));
    await sessions.revokeAllOf(current.id, 'removed by the team owner');
    return { success: true as const, message: TEAM_ROUTE_MESSAGES.deleted, data: { id: current.id } };
  });

  api.post(
    `${base}/:id/reset-password`,
    { schema: { tags, summary: "Set a team member's password", params: uuidParam, body: resetPasswordBody, response: { 200: idAnswer } } },
    async (request) => {
      const current = await load(request, request.params.id);
      const owner = await ownerFor(request, current.parentUserId);
      await run(request, current.id, { type: 'ResetTeamMemberPassword', owner, passwordHash: await hashPassword(request.body.newPassword) });
      await sessions.revokeAllOf(current.id, 'password reset by the team owner');
      return { success: true as const, message: TEAM_ROUTE_MESSAGES.passwordReset, data: { id: current.id } };
    },
  );
}

export async function teamRoutes(parent: FastifyInstance, services: Services, sessions: SessionStore): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  // Each invitation is an e-mail: an organisation sends a limited number an hour, whoever sends them.
  const perHour = config.INVITATIONS_PER_ORGANISATION_PER_HOUR;
  const invitations = new AttemptLimit(services.redis, `${config.REDIS_PREFIX}:invitations`, perHour, 60 * 60, TEAM_ROUTE_MESSAGES.tooManyInvitations(perHour));
  teamRoutesFor(app, services, sessions, 'partner', invitations);
  teamRoutesFor(app, services, sessions, 'distributor', invitations);

  /** What the caller may give its team members (administrators: what a member of `role` may hold). */
  const grantable = (principal: FastifyRequest['principal'], requested: z.infer<typeof permissionsQuery>['role']): Permission[] => {
    const ownTeam = Object.hasOwn(SUB_USER_ROLE_OF_PARENT, principal.role)
      ? SUB_USER_ROLE_OF_PARENT[principal.role as keyof typeof SUB_USER_ROLE_OF_PARENT]
      : undefined;
    const role = ownTeam ?? (isAdminRole(principal.role) ? (requested ?? 'partner_user') : undefined);
    return role ? grantablePermissions(principal, role) : [];
  };

  app.get(
    '/permissions',
    {
      schema: {
        tags: ['team'],
        summary: 'The permissions the caller may give a team member',
        querystring: permissionsQuery,
        response: { 200: permissionsAnswer },
      },
    },
    async (request) => {
      return { success: true as const, data: grantable(request.principal, request.query.role).map(permissionEntry) };
    },
  );

  app.get(
    '/permissions/groups',
    { schema: { tags: ['team'], summary: 'The same, grouped by category', querystring: permissionsQuery, response: { 200: permissionGroupsAnswer } } },
    async (request) => {
      const groups = new Map<string, PermissionEntry[]>();
      for (const entry of grantable(request.principal, request.query.role).map(permissionEntry))
        groups.set(entry.category, [...(groups.get(entry.category) ?? []), entry]);
      return { success: true as const, data: [...groups].map(([category, permissions]) => ({ category, permissions })) };
    },
  );

  // ---- the role model (spec 000 §7 declares these paths; their shapes are ours) ----

  const roleEntry = (role: Role) => ({
    role,
    label: ROLE_LABELS[role],
    sub_user_role: Object.hasOwn(SUB_USER_ROLE_OF_PARENT, role) ? SUB_USER_ROLE_OF_PARENT[role as keyof typeof SUB_USER_ROLE_OF_PARENT] : null,
    default_permissions: DEFAULT_PERMISSIONS_BY_ROLE[role].map(permissionEntry),
    assignable_permissions: ASSIGNABLE_PERMISSIONS_BY_ROLE[role].map(permissionEntry),
  });
  /** Administrators read every role; others their own and their team members' role. */
  const mayReadRole = (principal: FastifyRequest['principal'], role: Role) =>
    isAdminRole(principal.role) ||
    role === principal.role ||
    (Object.hasOwn(SUB_USER_ROLE_OF_PARENT, principal.role) && SUB_USER_ROLE_OF_PARENT[principal.role as keyof typeof SUB_USER_ROLE_OF_PARENT] === role);

  app.get(
    '/permissions/roles',
    {
      schema: {
        tags: ['team'],
        summary: 'The roles the caller may read: label, team-member role, default and assignable permissions',
        response: { 200: rolesAnswer },
      },
    },
    async (request) => {
      return { success: true as const, data: ROLES.filter((role) => mayReadRole(request.principal, role)).map(roleEntry) };
    },
  );

  app.get(
    '/permissions/role/:role',
    { schema: { tags: ['team'], summary: "One role's default and assignable permissions", params: roleParam, response: { 200: roleAnswer } } },
    async (request) => {
      const role = request.params.role;
      if (!isRole(role)) throw new HttpError(404, 'NOT_FOUND', `There is no role ${role}.`);
      if (!mayReadRole(request.principal, role)) throw new HttpError(403, 'FORBIDDEN', 'Only administrators read the permissions of other roles.');
      return { success: true as const, data: roleEntry(role) };
    },
  );

  app.get(
    '/permissions/hierarchy',
    { schema: { tags: ['team'], summary: 'Which roles have team members, and what the caller may give its own', response: { 200: hierarchyAnswer } } },
    async (request) => {
      const parents = (Object.keys(SUB_USER_ROLE_OF_PARENT) as Array<keyof typeof SUB_USER_ROLE_OF_PARENT>).filter((role) =>
        mayReadRole(request.principal, role),
      );
      return {
        success: true as const,
        data: parents.map((parent) => {
          const child = SUB_USER_ROLE_OF_PARENT[parent];
          return {
            role: parent,
            label: ROLE_LABELS[parent],
            sub_user_role: child,
            sub_user_label: ROLE_LABELS[child],
            grantable_by_you: grantablePermissions(request.principal, child).map(permissionEntry),
          };
        }),
      };
    },
  );

  app.post(
    '/permissions/validate',
    {
      schema: {
        tags: ['team'],
        summary: 'Check permission names (any spelling) against what the caller may give a team member (administrators: a role)',
        body: validatePermissionsBody,
        response: { 200: validatePermissionsAnswer },
      },
    },
    async (request) => {
      const { permissions, role } = request.body;
      const mayGive = new Set(grantable(request.principal, role));
      const known: Permission[] = [];
      const unknown: string[] = [];
      for (const name of permissions) {
        const permission = normalizePermission(name);
        if (permission) known.push(permission);
        else unknown.push(name);
      }
      const notGrantable = [...new Set(known.filter((permission) => !mayGive.has(permission)))];
      const valid = unknown.length === 0 && notGrantable.length === 0;
      return {
        success: true as const,
        message: valid
          ? 'Every permission can be given.'
          : [unknown.length ? `Unknown: ${unknown.join(', ')}.` : '', notGrantable.length ? `You cannot give: ${notGrantable.join(', ')}.` : '']
              .filter(Boolean)
              .join(' '),
        data: { valid, permissions: [...new Set(known)], unknown, not_grantable: notGrantable },
      };
    },
  );

  // ---- invitations (signed out: the invited member has no password yet) ----

  const invitationFrom = async (token: string) => {
    const read = readInvitationToken(config.JWT_SECRET, token);
    const invited = read && (await invitationOf(pool, read.userId));
    if (!read || !invited) throw new HttpError(404, 'INVITATION_INVALID', TEAM_MESSAGES.invitationInvalid);
    return { ...read, invited };
  };

  app.get(
    '/team/invitation',
    {
      schema: { tags: ['team'], summary: 'Who an invitation is for (the invitation page)', querystring: invitationQuery, response: { 200: invitationAnswer } },
    },
    async (request) => {
      const { invited } = await invitationFrom(request.query.token);
      if (!invited.invitation_expires_at) throw new HttpError(409, 'INVITATION_USED', TEAM_MESSAGES.invitationUsed);
      if (invited.invitation_expires_at.getTime() <= Date.now()) throw new HttpError(409, 'INVITATION_EXPIRED', TEAM_MESSAGES.invitationExpired);
      return {
        success: true as const,
        data: {
          email: invited.email,
          full_name: invited.full_name,
          company_name: invited.company_name,
          expires_at: invited.invitation_expires_at.toISOString(),
        },
      };
    },
  );

  app.post(
    '/team/invitations/accept',
    { schema: { tags: ['team'], summary: 'Set the password of an invited team member', body: acceptInvitationBody, response: { 200: messageAnswer } } },
    async (request) => {
      const { userId, invitationId, invited } = await invitationFrom(request.body.token);
      await runCommand(
        services,
        team,
        userId,
        { type: 'AcceptInvitation', invitationId, passwordHash: await hashPassword(request.body.password) },
        { ...metadataFromRequest(request), actorId: userId, actorRole: invited.role },
      );
      return { success: true as const, message: TEAM_ROUTE_MESSAGES.invitationAccepted };
    },
  );
}
