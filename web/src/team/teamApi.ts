/** The team calls of the portal, typed: one team per owner kind, at its specification path. */

import type { PermissionEntry, TeamMember } from '@contracts/team';
import { API_URL, httpClient } from '../providers/httpClient';

export type TeamKind = 'partner' | 'distributor';

/** A member as the API answers it (contracts/team.ts). */
export type { TeamMember };

export interface TeamPage {
  subUsers: TeamMember[];
  total: number;
  totalPages: number;
}

export interface TeamMemberInput {
  full_name: string;
  email: string;
  password?: string;
  permissions: string[];
  is_active: boolean;
  invite?: boolean;
}

export type { PermissionEntry };

const base = (kind: TeamKind) => `${API_URL}/${kind}/management/sub-users`;

export type TeamSortField = 'full_name' | 'email' | 'is_active' | 'created_at';

/** One page, sorted by the server (react-admin's list shape: the total comes in Content-Range). */
export async function listTeam(
  kind: TeamKind,
  query: { page: number; limit: number; search?: string; isActive?: boolean; sort?: { field: TeamSortField; order: 'ASC' | 'DESC' } },
): Promise<TeamPage> {
  const start = (query.page - 1) * query.limit;
  const filter: Record<string, unknown> = {};
  if (query.search) filter.q = query.search;
  if (query.isActive !== undefined) filter.isActive = query.isActive;
  const sort = query.sort ?? { field: 'created_at', order: 'DESC' };
  const params = new URLSearchParams({
    sort: JSON.stringify([sort.field, sort.order]),
    range: JSON.stringify([start, start + query.limit - 1]),
    filter: JSON.stringify(filter),
  });
  const { json, headers } = await httpClient<TeamMember[]>(`${base(kind)}?${params}`);
  const total = Number(headers.get('content-range')?.split('/').pop() ?? json.length);
  return { subUsers: json, total, totalPages: Math.max(1, Math.ceil(total / query.limit)) };
}

export async function addTeamMember(kind: TeamKind, input: TeamMemberInput): Promise<{ message: string; invitationLink?: string }> {
  const { json } = await httpClient<{ message: string; invitationLink?: string }>(base(kind), {
    method: 'POST',
    body: { ...input },
  });
  return json;
}

export async function updateTeamMember(kind: TeamKind, id: string, input: TeamMemberInput): Promise<{ message: string }> {
  const { json } = await httpClient<{ message: string }>(`${base(kind)}/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: { ...input },
  });
  return json;
}

export async function deleteTeamMember(kind: TeamKind, id: string): Promise<{ message: string }> {
  const { json } = await httpClient<{ message: string }>(`${base(kind)}/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return json;
}

export async function grantablePermissionGroups(): Promise<Array<{ category: string; permissions: PermissionEntry[] }>> {
  const { json } = await httpClient<{ data: Array<{ category: string; permissions: PermissionEntry[] }> }>(`${API_URL}/permissions/groups`);
  return json.data;
}

export async function invitationDetails(token: string): Promise<{ email: string; full_name: string; company_name: string | null; expires_at: string }> {
  const { json } = await httpClient<{ data: { email: string; full_name: string; company_name: string | null; expires_at: string } }>(
    `${API_URL}/team/invitation?token=${encodeURIComponent(token)}`,
  );
  return json.data;
}

export async function acceptInvitation(token: string, password: string): Promise<{ message: string }> {
  const { json } = await httpClient<{ message: string }>(`${API_URL}/team/invitations/accept`, { method: 'POST', body: { token, password } });
  return json;
}
