import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { canGrantPermissions, normalizePermissions } from '../../domain/access';
import {
  asOfRecordAnswer,
  bulkStatusAnswer,
  idAnswer,
  statusHistoryAnswer,
  userAnswer,
  userCreateBody,
  userCreatedAnswers,
  userEditFields,
  userListAnswer,
  USER_READ_ONLY_FIELDS,
  userRole,
} from '../../contracts/identity';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { USER_MESSAGES, users } from '../../domain/identity/users';
import { deleteUser, eraseUser, registerUser, updateUser } from '../../commands/users';
import { statusHistoryOf } from '../../projections/statusHistory';
import { findUser, listUsers, toUserView, type UserRow } from '../../projections/users';
import { HttpError } from '../plugins/errors';
import { hashPassword } from '../../platform/passwords';
import type { SessionStore } from '../plugins/sessions';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { cachedRead, type AnswerCache } from './answerCache';
import { booleanFilter, listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { bulkIds, recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';

const editBody = updateBody(userEditFields, USER_READ_ONLY_FIELDS);

const listQuery = listQuerySchema({ role: userRole.optional(), isActive: booleanFilter.optional(), is_active: booleanFilter.optional() }, [
  'full_name',
  'email',
  'role',
  'created_at',
  'is_active',
  'company_name',
]);

/** POST /users/bulk-status: activate or deactivate up to 100 users at once. */
const bulkStatusBody = z
  .object({
    ids: bulkIds('user'),
    is_active: z.boolean({ error: 'is_active must be true or false.' }),
  })
  .strict()
  .meta({ example: { ids: ['8d3e9c1e-4f5a-4b6c-9d7e-0a1b2c3d4e5f'], is_active: false } });

/** POST /users/:id/erase: why the person's data is erased (kept in the audit log). */
const eraseBody = z
  .object({
    reason: z
      .string({ error: USER_MESSAGES.eraseReasonRequired })
      .trim()
      .min(1, USER_MESSAGES.eraseReasonRequired)
      .max(500, 'The reason may have at most 500 characters.'),
  })
  .strict()
  .meta({ example: { reason: 'Erasure requested by the former contact on 2026-03-02 (ticket 4411)' } });

/** Roles an admin creates from the admin panel; partners register themselves and sub-users are made by their parent. */
const CREATABLE_ROLES = ['distributor', 'manufacturer', 'support'] as const;

const grantRefused = (role: string) =>
  new HttpError(400, 'VALIDATION_ERROR', `Some of the chosen permissions cannot be given to a ${role} user.`, [
    { field: 'permissions', message: 'Choose only permissions offered for this role.' },
  ]);

export async function userRoutes(parent: FastifyInstance, services: Services, sessions: SessionStore, answers: AnswerCache): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const view = (row: UserRow) => toUserView(row, normalizePermissions);
  const load = async (id: string, db: Queryable = pool) => {
    const row = await findUser(db, id);
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'User not found.');
    return row;
  };

  app.get(
    '/users',
    { schema: { tags: ['users'], summary: 'List users (admins)', querystring: listQuery, response: { 200: userListAnswer } } },
    cachedRead(answers, async (request: FastifyRequest<{ Querystring: z.output<typeof listQuery> }>, reply) => {
      const q = request.query;
      const { rows, total } = await listUsers(
        reads,
        { ids: q.ids, role: q.filters.role, isActive: q.filters.isActive ?? q.filters.is_active, search: q.search, includeSubUsers: false },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'users', q, rows.map(view), total);
    }),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'One user (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: z.union([asOfRecordAnswer, userAnswer]) },
      },
    },
    async (request) => {
      const user = await load(request.params.id, reads);
      if (request.query.asOf)
        return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.users, user.id, request.query.asOf, request.principal, 'User not found.'));
      return recordAnswer(view(user));
    },
  );

  versionsRoute(app, services, {
    path: '/users',
    type: VERSIONED_RECORDS.users,
    params: uuidParam,
    notFound: 'User not found.',
    visible: async (_request, id) => (await load(id, reads)).id,
  });

  app.get(
    '/users/:id/history',
    { schema: { tags: ['users'], summary: "A user's status history", params: uuidParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const history = await statusHistoryOf(reads, 'users', request.params.id);
      if (history.length === 0) await load(request.params.id, reads);
      return { success: true as const, data: history };
    },
  );

  app.post('/users', { schema: { tags: ['users'], summary: 'Add a user', body: userCreateBody, response: userCreatedAnswers } }, async (request, reply) => {
    const body = request.body;
    if (!(CREATABLE_ROLES as readonly string[]).includes(body.role)) {
      throw new HttpError(400, 'VALIDATION_ERROR', `Users with role ${body.role} are not created here.`, [
        { field: 'role', message: 'Choose distributor, manufacturer or support.' },
      ]);
    }
    const granted = body.permissions ?? [];
    if (!canGrantPermissions(request.principal, body.role, granted)) throw grantRefused(body.role);
    const userId = newRecordId(request, 'user');
    const created = { id: userId, location: `/api/users/${userId}` };
    const read = async () => recordAnswer(view(await load(userId)), 'User successfully registered');
    const earlier = await earlierCreation(services, request, users.streamId(userId), userId);
    if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
    await registerUser(
      services,
      {
        type: 'RegisterUser',
        userId,
        email: body.email,
        fullName: body.full_name,
        companyName: body.company_name ?? null,
        role: body.role,
        permissions: normalizePermissions(granted),
        parentUserId: null,
        passwordHash: await hashPassword(body.password),
        // The specification: users added by an admin start inactive unless the form says otherwise.
        isActive: body.is_active ?? false,
        selfRegistered: false,
      },
      metadataFromRequest(request),
    );
    return answerCreated(services, reply, created, read);
  });

  app.put(
    '/users/:id',
    { schema: { tags: ['users'], summary: 'Edit a user', params: uuidParam, body: editBody, response: { 200: userAnswer } } },
    async (request) => {
      const body = request.body;
      if (body.id && body.id !== request.params.id) throw new HttpError(400, 'VALIDATION_ERROR', 'The id in the body does not match the address.');
      const current = await load(request.params.id);
      if (body.permissions && !canGrantPermissions(request.principal, current.role, body.permissions)) throw grantRefused(current.role);
      await updateUser(
        services,
        current.id,
        current.email,
        {
          type: 'UpdateUser',
          email: body.email,
          fullName: body.full_name,
          companyName: body.company_name === undefined ? current.company_name : body.company_name,
          role: body.role,
          isActive: body.is_active,
          permissions: body.permissions ? normalizePermissions(body.permissions) : undefined,
          passwordHash: body.password ? await hashPassword(body.password) : undefined,
        },
        metadataFromRequest(request),
      );
      if (body.is_active === false || body.password)
        await sessions.revokeAllOf(current.id, body.password ? 'password reset by an admin' : 'account deactivated');
      if (body.is_active === false) await sessions.revokeMembersOf(current.id, 'organisation deactivated');
      return recordAnswer(view(await load(current.id)), 'User updated successfully');
    },
  );

  /**
   * All or nothing: every row is checked before any is changed, and one row that cannot change
   * refuses the whole request, naming each such row (`error.rows`). The changes themselves are one
   * command per account, each a no-op when the account already has the wanted status, so a retry
   * after an interrupted request finishes the job without changing anything twice.
   */
  app.post(
    '/users/bulk-status',
    { schema: { tags: ['users'], summary: 'Activate or deactivate several users (admins)', body: bulkStatusBody, response: { 200: bulkStatusAnswer } } },
    async (request) => {
      const { ids, is_active: active } = request.body;
      const found = await Promise.all(ids.map((id) => findUser(pool, id)));
      const refused = ids.flatMap((id, index) => {
        const row = found[index];
        if (!row) return [{ id, message: 'User not found.' }];
        if (!active && row.id === request.principal.id) return [{ id, message: 'You cannot deactivate your own account.' }];
        return [];
      });
      if (refused.length) {
        const message =
          refused.length === 1
            ? `No user was changed: ${refused[0]!.message}`
            : `No user was changed: ${refused.length} of the chosen users cannot be changed.`;
        throw new HttpError(
          refused.some((row) => row.message !== 'User not found.') ? 400 : 404,
          refused.some((row) => row.message !== 'User not found.') ? 'VALIDATION_ERROR' : 'NOT_FOUND',
          message,
          refused.map((row) => ({ field: `ids.${ids.indexOf(row.id)}`, message: row.message })),
          { rows: refused },
        );
      }
      const rows = found as UserRow[];
      const toChange = rows.filter((row) => row.is_active !== active);
      const metadata = metadataFromRequest(request);
      for (const row of toChange) {
        await runCommand(
          services,
          users,
          row.id,
          { type: active ? 'ActivateUser' : 'DeactivateUser', reason: active ? 'Activated with other users' : 'Deactivated with other users' },
          metadata,
        );
        if (!active) {
          await sessions.revokeAllOf(row.id, 'account deactivated');
          await sessions.revokeMembersOf(row.id, 'organisation deactivated');
        }
      }
      const changed = toChange.length;
      const verb = active ? 'activated' : 'deactivated';
      return {
        success: true as const,
        message: changed === 0 ? `No user changed: the chosen users were already ${verb}.` : `${changed} user${changed === 1 ? '' : 's'} ${verb}.`,
        data: {
          changed: toChange.map((row) => row.id),
          unchanged: rows.filter((row) => row.is_active === active).map((row) => row.id),
          users: (await Promise.all(ids.map((id) => findUser(pool, id)))).filter((row): row is UserRow => Boolean(row)).map(view),
        },
      };
    },
  );

  app.post(
    '/users/:id/erase',
    {
      schema: { tags: ['users'], summary: "Erase a person's personal data for good (admins)", params: uuidParam, body: eraseBody, response: { 200: idAnswer } },
    },
    async (request) => {
      const id = request.params.id;
      await eraseUser(services, id, request.body.reason, metadataFromRequest(request));
      await sessions.revokeAllOf(id, 'account erased');
      return { success: true as const, message: 'User erased: their personal data can no longer be read.', data: { id } };
    },
  );

  app.delete('/users/:id', { schema: { tags: ['users'], summary: 'Delete a user', params: uuidParam, response: { 200: idAnswer } } }, async (request) => {
    const current = await load(request.params.id);
    await deleteUser(services, current.id, metadataFromRequest(request));
    await sessions.revokeAllOf(current.id, 'account deleted');
    await sessions.revokeMembersOf(current.id, 'organisation deleted');
    return { success: true as const, message: `User ${current.full_name} deleted successfully`, data: { id: current.id } };
  });
}
