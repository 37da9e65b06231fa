import { pageOf } from './paging';
import { type PoolClient, type Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import { ADMIN_ROLES } from '../domain/access';
import type { UserEvent } from '../domain/identity/users';
import type { Projection } from './projection';
import { ERASED_NAME, erasedValue } from '../domain/personalData';
import { principalChanged } from '../platform/principalCache';
import type { UserView } from '../contracts/identity';

const USER_EVENT_TYPES = new Set<string>([
  'UserRegistered.v1',
  'UserProfileUpdated.v1',
  'UserPermissionsChanged.v1',
  'UserActivated.v1',
  'UserDeactivated.v1',
  'UserDeleted.v1',
  'UserPasswordChanged.v1',
  'UserInvited.v1',
  'UserInvitationAccepted.v1',
  'UserErased.v1',
]);

type Registered = Extract<UserEvent, { type: 'UserRegistered.v1' }>;

/**
 * The password hash an event set, from where the event store keeps it (never in the event itself);
 * `secret` named in full, as a rebuild writes its credentials elsewhere. An event without one (it cannot
 * happen short of a lost secret row) leaves a hash no password matches.
 */
const PASSWORD_HASH_OF = (eventId: string) =>
  `coalesce((SELECT s.value FROM secret.event_secrets s WHERE s.event_id = ${eventId} AND s.name = 'passwordHash'), '!')`;

/** New accounts of a batch in one statement: each column as an array, unnested into rows. */
async function registerAccounts(events: RecordedEvent[], db: PoolClient): Promise<void> {
  const rows = events.map((e) => ({ ...(e.data as Registered['data']), at: e.metadata.occurredAt, eventId: e.id }));
  await db.query(
    `WITH t AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::jsonb[], $7::text[], $8::uuid[], $9::timestamptz[], $10::uuid[], $11::boolean[])
         AS t(id, email, full_name, role, is_active, permissions, company_name, parent_user_id, at, event_id, self_registered)
     ),
     account AS (
       INSERT INTO users (id, email, full_name, role, is_active, permissions, company_name, parent_user_id, created_at, updated_at, self_registered)
       SELECT id, email, full_name, role, is_active, ARRAY(SELECT jsonb_array_elements_text(permissions)), company_name, parent_user_id, at, at, self_registered FROM t
       ON CONFLICT (id) DO NOTHING
     )
     INSERT INTO user_credentials (user_id, email, password_hash, password_changed_at)
     SELECT id, email, ${PASSWORD_HASH_OF('t.event_id')}, at FROM t ON CONFLICT (user_id) DO NOTHING`,
    [
      rows.map((r) => r.userId),
      rows.map((r) => r.email),
      rows.map((r) => r.fullName),
      rows.map((r) => r.role),
      rows.map((r) => r.status === 'active'),
      rows.map((r) => JSON.stringify(r.permissions)),
      rows.map((r) => r.companyName),
      rows.map((r) => r.parentUserId),
      rows.map((r) => r.at),
      rows.map((r) => r.eventId),
      rows.map((r) => r.selfRegistered === true),
    ],
  );
}

/** read.users (the people list) and read.user_credentials (what sign-in checks). */
export const usersProjection: Projection = {
  name: 'users',
  /**
   * Registrations that follow one another are written together; any other change of an account
   * first writes the registrations before it, so every account exists before it changes.
   */
  async applyBatch(events: readonly RecordedEvent[], db: PoolClient) {
    let registrations: RecordedEvent[] = [];
    for (const event of events) {
      if (event.type === 'UserRegistered.v1') {
        registrations.push(event);
        continue;
      }
      if (!USER_EVENT_TYPES.has(event.type)) continue;
      if (registrations.length) await registerAccounts(registrations, db);
      registrations = [];
      await this.apply(event, db);
    }
    if (registrations.length) await registerAccounts(registrations, db);
  },
  async apply(recorded: RecordedEvent, db: PoolClient) {
    await applyUserEvent(recorded, db);
    // API processes reuse what they read about a signed-in account until told it changed (at this batch's commit).
    if (recorded.type !== 'UserRegistered.v1' && USER_EVENT_TYPES.has(recorded.type)) await principalChanged(db, (recorded.data as { userId: string }).userId);
  },
};

async function applyUserEvent(recorded: RecordedEvent, db: PoolClient): Promise<void> {
  const event = asDomainEvent<UserEvent>(recorded);
  const at = recorded.metadata.occurredAt;
  switch (event.type) {
    case 'UserRegistered.v1':
      return registerAccounts([recorded], db);
    case 'UserProfileUpdated.v1':
      await db.query(
        `WITH account AS (UPDATE users SET email = $2, full_name = $3, company_name = $4, updated_at = $5 WHERE id = $1)
           UPDATE user_credentials SET email = $2 WHERE user_id = $1`,
        [event.data.userId, event.data.email, event.data.fullName, event.data.companyName, at],
      );
      return;
    case 'UserPermissionsChanged.v1':
      await db.query('UPDATE users SET permissions = $2, updated_at = $3, access_version = access_version + 1 WHERE id = $1', [
        event.data.userId,
        event.data.permissions,
        at,
      ]);
      return;
    case 'UserActivated.v1':
    case 'UserDeactivated.v1':
      await db.query('UPDATE users SET is_active = $2, updated_at = $3, access_version = access_version + 1 WHERE id = $1', [
        event.data.userId,
        event.data.status === 'active',
        at,
      ]);
      return;
    case 'UserDeleted.v1':
      await db.query('WITH account AS (DELETE FROM users WHERE id = $1) DELETE FROM user_credentials WHERE user_id = $1', [event.data.userId]);
      return;
    case 'UserInvited.v1':
      await db.query('UPDATE users SET invitation_expires_at = $2, updated_at = $3 WHERE id = $1', [event.data.userId, event.data.expiresAt, at]);
      return;
    case 'UserInvitationAccepted.v1':
      await db.query('UPDATE users SET invitation_expires_at = NULL, updated_at = $2 WHERE id = $1', [event.data.userId, at]);
      return;
    case 'UserErased.v1':
      // The row stays, so what the person did (orders, tickets) is attributed to "Erased user"; signing in ends.
      await db.query(
        `WITH account AS (
             UPDATE users SET full_name = $2, email = $3, is_active = false, invitation_expires_at = NULL, updated_at = $4, access_version = access_version + 1 WHERE id = $1
           )
           DELETE FROM user_credentials WHERE user_id = $1`,
        [event.data.userId, ERASED_NAME, erasedValue('email', event.data.userId), at],
      );
      return;
    case 'UserPasswordChanged.v1':
      await db.query(`UPDATE user_credentials SET password_hash = ${PASSWORD_HASH_OF('$2::uuid')}, password_changed_at = $3 WHERE user_id = $1`, [
        event.data.userId,
        recorded.id,
        at,
      ]);
      return;
  }
}

// ---- queries ----

export interface UserRow {
  id: string;
  email: string;
  full_name: string;
  role: string;
  is_active: boolean;
  permissions: string[];
  company_name: string | null;
  parent_user_id: string | null;
  created_at: Date;
  updated_at: Date;
  access_version: number;
}

/** The user as the API answers it: the specification's field names, effectivePermissions normalised. */
export function toUserView(row: UserRow, normalize: (permissions: string[]) => string[]): UserView {
  return {
    id: row.id,
    full_name: row.full_name,
    email: row.email,
    role: row.role,
    is_active: row.is_active,
    status: row.is_active ? 'active' : 'inactive',
    company_name: row.company_name,
    company: row.company_name ? { company_name: row.company_name } : null,
    permissions: row.permissions,
    effectivePermissions: normalize(row.permissions),
    parent_user_id: row.parent_user_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const USER_COLUMNS = 'id, email, full_name, role, is_active, permissions, company_name, parent_user_id, created_at, updated_at, access_version';

export async function findUser(db: Queryable, id: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM read.users WHERE id = $1`, [id]);
  return rows[0];
}

/**
 * The active admins, in id order: the recipients of an admin notice. With `asOf` (a fact's time), only those whose
 * account existed then, so a replayed reaction notifies the same people it did the first time.
 */
export async function activeAdminIds(db: Queryable, asOf?: Date | string): Promise<string[]> {
  const { rows } =
    asOf === undefined
      ? await db.query<{ id: string }>('SELECT id FROM read.users WHERE role = ANY($1) AND is_active ORDER BY id', [ADMIN_ROLES])
      : await db.query<{ id: string }>('SELECT id FROM read.users WHERE role = ANY($1) AND is_active AND created_at <= $2 ORDER BY id', [ADMIN_ROLES, asOf]);
  return rows.map((r) => r.id);
}

/** The active support staff, in id order: the recipients of news about new tickets. */
export async function activeSupportIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM read.users WHERE role = 'support' AND is_active ORDER BY id`);
  return rows.map((row) => row.id);
}

/** An organisation's account and its team members, the active ones, in id order. */
export async function activeOrganisationAccountIds(db: Queryable, organisationId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM read.users WHERE is_active AND (id = $1 OR parent_user_id = $1) ORDER BY id', [
    organisationId,
  ]);
  return rows.map((row) => row.id);
}

/** Where a record keeps the account that placed or submitted it ($2 is the record's id). */
const AUTHOR_OF = {
  order: 'SELECT placed_by FROM read.orders WHERE id = $2',
  rebate: 'SELECT submitted_by FROM read.rebates WHERE id = $2',
  fundRequest: 'SELECT submitted_by FROM read.fund_requests WHERE id = $2',
  fundClaim: 'SELECT submitted_by FROM read.fund_claims WHERE id = $2',
} as const;

export type AuthoredRecord = keyof typeof AUTHOR_OF;

/**
 * Who hears of news about one of an organisation's records: the organisation's account and the account that placed or
 * submitted the record (a team member, or the organisation itself), in id order; with `activeOnly`, the active ones only.
 */
export async function organisationAndAuthorIds(
  db: Queryable,
  organisationId: string,
  record: { kind: AuthoredRecord; id: string },
  options: { activeOnly: boolean },
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT u.id FROM read.users u WHERE ${options.activeOnly ? 'u.is_active AND ' : ''}(u.id = $1 OR u.id = (${AUTHOR_OF[record.kind]})) ORDER BY u.id`,
    [organisationId, record.id],
  );
  return rows.map((row) => row.id);
}

/** The name an organisation goes by: its company name, or its holder's name. */
export async function organisationNameOf(db: Queryable, organisationId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ name: string }>('SELECT coalesce(company_name, full_name) AS name FROM read.users WHERE id = $1', [organisationId]);
  return rows[0]?.name;
}

/** The account with this address (already lower-cased), compared without regard to case. */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM read.users WHERE lower(email) = $1`, [email]);
  return rows[0];
}

/** The account's role, or undefined when there is no such account. */
export async function roleOf(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ role: string }>('SELECT role FROM read.users WHERE id = $1', [userId]);
  return rows[0]?.role;
}

export interface SelfRegistration {
  id: string;
  email: string;
  full_name: string;
  company_name: string | null;
  created_at: Date;
}

/** The accounts that registered themselves in [from, to), oldest first (ties by id). */
export async function selfRegistrationsBetween(db: Queryable, from: Date, to: Date): Promise<SelfRegistration[]> {
  const { rows } = await db.query<SelfRegistration>(
    `SELECT id, email, full_name, company_name, created_at FROM read.users
     WHERE self_registered AND created_at >= $1 AND created_at < $2 ORDER BY created_at, id`,
    [from, to],
  );
  return rows;
}

/** Whether another account registered itself in the `seconds` before this one (ties broken by id). */
export async function selfRegisteredShortlyBefore(db: Queryable, registration: { id: string; created_at: Date }, seconds: number): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM read.users
     WHERE self_registered AND created_at > $2::timestamptz - make_interval(secs => $3) AND (created_at, id) < ($2::timestamptz, $1::uuid)
     LIMIT 1`,
    [registration.id, registration.created_at, seconds],
  );
  return rows.length > 0;
}

export interface UserListFilters {
  ids?: string[];
  role?: string;
  isActive?: boolean;
  search?: string;
  includeSubUsers: boolean;
}

export type UserSortField = 'id' | 'full_name' | 'email' | 'role' | 'created_at' | 'is_active' | 'company_name';

/** Admins first, then the requested order (newest first by default); sub-users only when asked for. */
export async function listUsers(
  db: Queryable,
  filters: UserListFilters,
  page: { offset: number; limit: number; sort?: { field: UserSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: UserRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.ids) where.push(`id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.role) where.push(`role = ${param(filters.role)}`);
  else if (!filters.includeSubUsers) where.push(`role NOT IN ('partner_user', 'distributor_user')`);
  if (filters.isActive !== undefined) where.push(`is_active = ${param(filters.isActive)}`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(full_name ILIKE ${pattern} OR email ILIKE ${pattern} OR company_name ILIKE ${pattern})`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const order = page.sort ? `${page.sort.field} ${page.sort.order}, created_at DESC` : 'created_at DESC';
  return pageOf<UserRow>(db, {
    columns: USER_COLUMNS,
    from: 'read.users',
    where: clause,
    order: `(role IN ('admin', 'administrator')) DESC, ${order}, id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
}

/** What a password sign-in checks: the account an address names and its password hash (secret.user_credentials). */
export async function credentialsByEmail(db: Queryable, email: string): Promise<{ user_id: string; password_hash: string } | undefined> {
  const { rows } = await db.query<{ user_id: string; password_hash: string }>(
    'SELECT user_id, password_hash FROM secret.user_credentials WHERE lower(email) = $1',
    [email],
  );
  return rows[0];
}

/** The password hash of an account, for checking its current password. */
export async function passwordHashOf(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM secret.user_credentials WHERE user_id = $1', [userId]);
  return rows[0]?.password_hash;
}

/** Whether the account was ever active (its status history says so): a self-registered partner never activated is still waiting for approval. */
export async function everActivated(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM read.status_history WHERE record_type = 'users' AND record_id = $1 AND to_status = 'active' LIMIT 1`, [
    userId,
  ]);
  return rows.length > 0;
}

/** Those of `ids` that are organisations (accounts without a parent). */
export async function organisationsAmong(db: Queryable, ids: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM read.users WHERE id = ANY($1::uuid[]) AND parent_user_id IS NULL', [ids]);
  return rows.map((row) => row.id);
}

/** The full names of these accounts, by id (removed accounts are missing). */
export async function fullNamesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{ id: string; full_name: string }>('SELECT id, full_name FROM read.users WHERE id = ANY($1)', [ids]);
  return new Map(rows.map((row) => [row.id, row.full_name]));
}
