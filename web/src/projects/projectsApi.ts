/**
 * The project calls of the portal, typed. Lists go through react-admin's data provider
 * (`useGetList('projects')`); these are the commands and the reads with their own shapes.
 */

import type {
  BulkReviewOutcome,
  LinkedOrder,
  Milestone,
  PartnerChoice,
  Project,
  ProjectDetail,
  ProjectOrder,
  ProjectStatistics,
  TeamCandidate,
  TeamMember,
} from '@contracts/projects';
import { API_URL, httpClient, refreshAccessToken } from '../providers/httpClient';
import { accessTokenExpiresIn, getAccessToken } from '../providers/session';
import { mapErrorResponse } from '../providers/errorMapper';

/** A project as the pages hold it: the list's row or one project's answer (admins: with the colliding registrations). */
export type ProjectRecord = Project & Partial<Omit<ProjectDetail, keyof Project>>;
export type { LinkedOrder, Milestone, ProjectOrder, ProjectStatistics, TeamMember };

interface Answer<T> {
  success: boolean;
  message?: string;
  data: T;
}

const url = (path: string) => `${API_URL}/projects${path}`;
const get = async <T>(path: string): Promise<T> => (await httpClient<Answer<T>>(url(path))).json.data;
const send = async <T>(method: string, path: string, body?: Record<string, unknown>): Promise<Answer<T>> =>
  (await httpClient<Answer<T>>(url(path), { method, body })).json;

export const getProjectStatistics = () => get<ProjectStatistics>('/stats');
export const getProject = (id: string) => get<ProjectRecord>(`/${encodeURIComponent(id)}`);
export const getPartnerChoices = () => get<PartnerChoice[]>('/partners');
export const updateProject = (id: string, body: Record<string, unknown>) => send<ProjectRecord>('PUT', `/${id}`, body);

export const reviewRegistration = (id: string, decision: 'approved' | 'rejected', reason: string) =>
  send<ProjectRecord>('POST', `/${id}/review`, { decision, reason });
export const requestExtension = (id: string, reason: string) => send<ProjectRecord>('POST', `/${id}/extension`, { reason });
export const decideExtension = (id: string, decision: 'approved' | 'declined', reason: string) =>
  send<ProjectRecord>('POST', `/${id}/extension/decision`, { decision, reason });

export const getMilestones = (id: string) => get<Milestone[]>(`/${id}/milestones`);
export const getMilestone = (id: string) => get<Milestone>(`/milestones/${id}`);
export const createMilestone = (body: { project_id: string; name: string; date: string; status: string }) => send<Milestone>('POST', '/milestones', body);
export const updateMilestone = (id: string, body: { name: string; date: string; status: string }) => send<Milestone>('PUT', `/milestones/${id}`, body);
export const deleteMilestone = (id: string) => send<undefined>('DELETE', `/milestones/${id}`);

export const getTeam = (id: string) => get<TeamMember[]>(`/${id}/team`);
export const getTeamCandidates = (id: string) => get<TeamCandidate[]>(`/${id}/team/candidates`);
export const addTeamMember = (id: string, userId: string) => send<TeamMember[]>('POST', `/${id}/team`, { user_id: userId });
export const removeTeamMember = (id: string, userId: string) => send<TeamMember[]>('DELETE', `/${id}/team/${userId}`);

export const getProjectOrders = (id: string) => get<LinkedOrder[]>(`/${id}/orders`);
export const getOrderCandidates = (id: string) => get<ProjectOrder[]>(`/${id}/orders/candidates`);
export const linkOrder = (id: string, orderId: string) => send<LinkedOrder[]>('POST', `/${id}/orders`, { order_id: orderId });
export const unlinkOrder = (id: string, orderId: string) => send<LinkedOrder[]>('DELETE', `/${id}/orders/${orderId}`);

/**
 * Registers a project (multipart, with the optional BoQ file), reporting upload progress. Sent with
 * XMLHttpRequest because fetch cannot report the progress of a request body.
 */
export async function createProject(
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<{ status: number; json: Answer<ProjectRecord> & { error?: unknown } }> {
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
      let json: unknown;
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
    const query = new URLSearchParams({
      sort: JSON.stringify(['created_at', 'DESC']),
      range: JSON.stringify([start, start + 99]),
      filter: JSON.stringify(filter),
    });
    const { json, headers } = await httpClient<ProjectRecord[]>(`${url('')}?${query}`);
    rows.push(...json);
    const total = Number(headers.get('Content-Range')?.split('/')[1] ?? rows.length);
    if (rows.length >= total || json.length === 0) return rows;
  }
}

/** Approve or reject several registrations with one reason (admins): the answer names each one done and each one refused, with why. */
export const bulkReviewRegistrations = (ids: string[], decision: 'approved' | 'rejected', reason: string) =>
  send<BulkReviewOutcome>('POST', '/bulk-review', { ids, decision, reason: reason || null });
