import { pageOf } from './paging';
import { toSubUserPermissions, normalizePermissions } from '../domain/access';
import type { Queryable } from '../platform/db';
import type { TeamMember } from '../contracts/team';

/**
 * Team members (read.users rows with a parent), as the team-management screens and their API show
 * them. The rows are the users projection's; this module holds the team's queries and view.
 */

export interface TeamMemberRow {
  id: string;
  email: string;
  full_name: string;
  role: string;
  is_active: boolean;
  permissions: string[];
  parent_user_id: string;
  invitation_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  owner_full_name: string | null;
  owner_email: string | null;
}

const COLUMNS = `m.id, m.email, m.full_name, m.role, m.is_active, m.permissions, m.parent_user_id, m.invitation_expires_at, m.created_at, m.updated_at,
  o.full_name AS owner_full_name, o.email AS owner_email`;
const FROM = 'read.users m LEFT JOIN read.users o ON o.id = m.parent_user_id';

const splitName = (fullName: string | null) => {
  const [firstName = '', ...rest] = (fullName ?? '').trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
};

/** The specification's sub-user: both spellings of its fields, permissions in both forms. */
export function toTeamMemberView(row: TeamMemberRow): TeamMember {
  const { firstName, lastName } = splitName(row.full_name);
  const status = row.invitation_expires_at ? 'invited' : row.is_active ? 'active' : 'inactive';
  const owner = splitName(row.owner_full_name);
  return {
    id: row.id,
    full_name: row.full_name,
    firstName,
    lastName,
    email: row.email,
    role: row.role,
    permissions: toSubUserPermissions(row.permissions),
    effectivePermissions: normalizePermissions(row.permissions),
    is_active: row.is_active,
    isActive: row.is_active,
    status,
    invitation_expires_at: row.invitation_expires_at?.toISOString() ?? null,
    parentUserId: row.parent_user_id,
    organisation_id: row.parent_user_id,
    parentUser: { firstName: owner.firstName, lastName: owner.lastName, email: row.owner_email },
    // Team members have no team of their own: the organisation has one level of members.
    subUsers: [],
    created_at: row.created_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface TeamScope {
  role: string;
  /** The owner whose team this is; undefined for administrators, who see every team of the role. */
  ownerId?: string;
}

export type TeamSortField = 'id' | 'full_name' | 'email' | 'is_active' | 'created_at';

export async function listTeamMembers(
  db: Queryable,
  scope: TeamScope,
  filters: { search?: string; isActive?: boolean; ids?: string[] },
  page: { offset: number; limit: number; sort?: { field: TeamSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: TeamMember[]; total: number }> {
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = [`m.role = ${param(scope.role)}`, 'm.parent_user_id IS NOT NULL'];
  if (scope.ownerId) where.push(`m.parent_user_id = ${param(scope.ownerId)}`);
  if (filters.ids) where.push(`m.id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.isActive !== undefined) where.push(`m.is_active = ${param(filters.isActive)}`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(m.full_name ILIKE ${pattern} OR m.email ILIKE ${pattern})`);
  }
  const order = page.sort ? `m.${page.sort.field} ${page.sort.order}` : 'm.created_at DESC';
  const { rows, total } = await pageOf<TeamMemberRow>(db, {
    columns: COLUMNS,
    from: FROM,
    where: `WHERE ${where.join(' AND ')}`,
    order: `${order}, m.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(toTeamMemberView), total };
}

/** One member of the scope's team; another organisation's member is not found. */
export async function findTeamMember(db: Queryable, scope: TeamScope, id: string): Promise<TeamMember | undefined> {
  const params: unknown[] = [id, scope.role];
  const owner = scope.ownerId ? ` AND m.parent_user_id = $${params.push(scope.ownerId)}` : '';
  const { rows } = await db.query<TeamMemberRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE m.id = $1 AND m.role = $2 AND m.parent_user_id IS NOT NULL${owner}`,
    params,
  );
  return rows[0] ? toTeamMemberView(rows[0]) : undefined;
}

/** The members of an owner (every status), for reactions that follow the owner. */
export async function teamMemberIdsOf(db: Queryable, ownerId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM read.users WHERE parent_user_id = $1 ORDER BY id', [ownerId]);
  return rows.map((row) => row.id);
}

/** An invited member, for the invitation page (name, address and organisation only). */
export async function invitationOf(db: Queryable, userId: string) {
  const { rows } = await db.query<{ email: string; full_name: string; role: string; company_name: string | null; invitation_expires_at: Date | null }>(
    'SELECT email, full_name, role, company_name, invitation_expires_at FROM read.users WHERE id = $1 AND parent_user_id IS NOT NULL',
    [userId],
  );
  return rows[0];
}
