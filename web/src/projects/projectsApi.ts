/**
 * The project calls of the portal, typed. Lists go through react-admin's data provider
 * (`useGetList('projects')`); these are the commands and the reads with their own shapes.
 */

import type { OrderRecord } from '../orders/ordersApi';
import { API_URL, httpClient, refreshAccessToken } from '../providers/httpClient';
import { accessTokenExpiresIn, getAccessToken } from '../providers/session';
import { mapErrorResponse } from '../providers/errorMapper';

export interface ProjectRecord {
  id: string;
  title: string;
  status: string;
  next_statuses: string[];
  progress: number;
  value: number | null;
  client: string | null;
  company_id: string;
  organisation_id: string;
  company: { id: string; company_name: string | null };
  company_name: string | null;
  created_by: string;
  created_by_name: string | null;
  expected_closure_date: string | null;
  country_region: string | null;
  sales_person: string | null;
  project_stage: string | null;
  project_progress_remarks: string | null;
  end_user_requirements: string | null;
  end_user_customer_name: string | null;
  end_user_location: string | null;
  end_user_it_head_name: string | null;
  end_user_contact_number: string | null;
  end_user_email: string | null;
  partner_company_name: string | null;
  partner_company_location: string | null;
  partner_email: string | null;
  partner_contact_number: string | null;
  boq_file: string | null;
  boq_file_url: string | null;
  registration_status: 'pending' | 'conflict' | 'approved' | 'rejected' | 'expired';
  registration_state: 'protected' | 'expiring_soon' | 'expired' | 'rejected' | 'conflict_review';
  submitted_at: string;
  expires_at: string;
  review_note: string | null;
  reviewed_at: string | null;
  conflict: { under_review: true } | null;
  extension_status: 'none' | 'requested' | 'approved' | 'declined';
  extension_reason: string | null;
  extension_decision_note: string | null;
  extension_requested_at: string | null;
  team_size: number;
  milestone_count: number;
  created_at: string;
  updated_at: string;
  /** Admins only: the registration this one collides with, and later ones that collide with it. */
  conflicting_project?: ProjectRecord | null;
  later_registrations?: ProjectRecord[];
  /** Admins only: other organisations' live registrations whose customer name is only similar (not blocking). */
  possible_conflicts?: Array<{ id: string; title: string | null; company_name: string | null; end_user_customer_name: string | null; registration_status: string; similarity: number }>;
  /** To the registering partner: a registration for this customer may already exist (nobody named). */
  registration_warning?: string | null;
}

export interface ProjectStatistics {
  totalProjects: number;
  activeProjects: number;
  completedProjects: number;
  totalValue: number;
  conflicts: number;
  pendingReview: number;
  extensionRequests: number;
  expiringSoon: number;
}

export interface Milestone {
  id: string;
  project_id: string;
  name: string;
  title: string;
  date: string;
  status: 'pending' | 'in-progress' | 'completed';
}

export interface TeamMember {
  id: string;
  user_id: string;
  full_name: string;
  email: string;
  role: string;
}

interface Answer<T> {
  success: boolean;
  message?: string;
  data: T;
}

const url = (path: string) => `${API_URL}/projects${path}`;
const get = async <T>(path: string): Promise<T> => (await httpClient<Answer<T>>(url(path))).json.data;
const send = async <T>(method: string, path: string, body?: Record<string, unknown>): Promise<Answer<T>> => (await httpClient<Answer<T>>(url(path), { method, body })).json;

export const getProjectStatistics = () => get<ProjectStatistics>('/stats');
export const getProject = (id: string) => get<ProjectRecord>(`/${encodeURIComponent(id)}`);
export const getPartnerChoices = () => get<Array<{ id: string; company_name: string }>>('/partners');
export const updateProject = (id: string, body: Record<string, unknown>) => send<ProjectRecord>('PUT', `/${id}`, body);
export const deleteProject = (id: string) => send<undefined>('DELETE', `/${id}`);

export const reviewRegistration = (id: string, decision: 'approved' | 'rejected', reason: string) => send<ProjectRecord>('POST', `/${id}/review`, { decision, reason });
export const requestExtension = (id: string, reason: string) => send<ProjectRecord>('POST', `/${id}/extension`, { reason });
export const decideExtension = (id: string, decision: 'approved' | 'declined', reason: string) => send<ProjectRecord>('POST', `/${id}/extension/decision`, { decision, reason });

export const getMilestones = (id: string) => get<Milestone[]>(`/${id}/milestones`);
export const getMilestone = (id: string) => get<Milestone>(`/milestones/${id}`);
export const createMilestone = (body: { project_id: string; name: string; date: string; status: string }) => send<Milestone>('POST', '/milestones', body);
export const updateMilestone = (id: string, body: { name: string; date: string; status: string }) => send<Milestone>('PUT', `/milestones/${id}`, body);
export const deleteMilestone = (id: string) => send<undefined>('DELETE', `/milestones/${id}`);

export const getTeam = (id: string) => get<TeamMember[]>(`/${id}/team`);
export const getTeamCandidates = (id: string) => get<Array<{ id: string; full_name: string; email: string; role: string }>>(`/${id}/team/candidates`);
export const addTeamMember = (id: string, userId: string) => send<TeamMember[]>('POST', `/${id}/team`, { user_id: userId });
export const removeTeamMember = (id: string, userId: string) => send<TeamMember[]>('DELETE', `/${id}/team/${userId}`);

export const getProjectOrders = (id: string) => get<OrderRecord[]>(`/${id}/orders`);
export const getOrderCandidates = (id: string) => get<OrderRecord[]>(`/${id}/orders/candidates`);
export const linkOrder = (id: string, orderId: string) => send<OrderRecord[]>('POST', `/${id}/orders`, { order_id: orderId });
export const unlinkOrder = (id: string, orderId: string) => send<OrderRecord[]>('DELETE', `/${id}/orders/${orderId}`);

/**
 * Registers a project (multipart, with the optional BoQ file), reporting upload progress. Sent with
 * XMLHttpRequest because fetch cannot report the progress of a request body.
 */
export async function createProject(form: FormData, onProgress: (percent: number) => void): Promise<{ status: number; json: Answer<ProjectRecord> & { error?: unknown } }> {
  // The upload does not pass through httpClient, so it renews a token about to expire itself.
  const expiresIn = accessTokenExpiresIn();
  if (expiresIn !== null && expiresIn < 10_000) await refreshAccessToken();
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url(''));
    const token = getAccessToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(request.responseText);
      } catch {
        json = null;
      }
      if (request.status >= 200 && request.status < 300) resolve({ status: request.status, json: json as Answer<ProjectRecord> });
      else reject(new Error(mapErrorResponse(request.status, json).message || 'Failed to create project'));
    };
    request.onerror = () => reject(new Error('Failed to create project. Please try again.'));
    request.send(form);
  });
}

/** All projects the caller sees with the list's filters, for the CSV export. */
export async function allProjects(filter: Record<string, unknown>): Promise<ProjectRecord[]> {
  const rows: ProjectRecord[] = [];
  for (let start = 0; ; start += 100) {
    const query = new URLSearchParams({ sort: JSON.stringify(['created_at', 'DESC']), range: JSON.stringify([start, start + 99]), filter: JSON.stringify(filter) });
    const { json, headers } = await httpClient<ProjectRecord[]>(`${url('')}?${query}`);
    rows.push(...json);
    const total = Number(headers.get('Content-Range')?.split('/')[1] ?? rows.length);
    if (rows.length >= total || json.length === 0) return rows;
  }
}

/** Approve or reject several registrations with one reason (admins): the answer names each one done and each one refused, with why. */
export const bulkReviewRegistrations = (ids: string[], decision: 'approved' | 'rejected', reason: string) =>
  send<{ succeeded: string[]; refused: Array<{ id: string; code: string; message: string }> }>('POST', '/bulk-review', { ids, decision, reason: reason || null });
