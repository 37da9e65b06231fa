/** The lead calls of the portal, typed. */

import { API_URL, httpClient } from '../providers/httpClient';
import { download } from '../providers/download';
import type { ConvertAnswer, ImportReport, Lead, LeadReports, LeadRule, RoutableOrganisation, StatusChange } from '@contracts/leads';

export type LeadFilters = Partial<Record<'status' | 'organisation_id' | 'source' | 'region' | 'search', string>>;

const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();

export async function listLeads(filters: LeadFilters, page = 1, limit = 25): Promise<{ leads: Lead[]; total: number }> {
  const { json } = await httpClient<{ data: { leads: Lead[]; pagination: { total: number } } }>(`${API_URL}/leads?${qs({ ...filters, page, limit })}`);
  return { leads: json.data.leads, total: json.data.pagination.total };
}

export async function getLead(id: string): Promise<Lead> {
  const { json } = await httpClient<{ data: Lead }>(`${API_URL}/leads/${encodeURIComponent(id)}`);
  return json.data;
}

export async function leadHistory(id: string): Promise<StatusChange[]> {
  const { json } = await httpClient<{ data: StatusChange[] }>(`${API_URL}/leads/${encodeURIComponent(id)}/history`);
  return json.data;
}

const post = async <T>(path: string, body?: Record<string, unknown>) =>
  (await httpClient<{ message: string; data: T }>(`${API_URL}${path}`, { method: 'POST', body: body ?? {} })).json;

export const acceptLead = (id: string) => post<Lead>(`/leads/${id}/accept`);
export const declineLead = (id: string, reason: string) => post<Lead>(`/leads/${id}/decline`, { reason });
export const changeLeadStatus = (id: string, status: string, reason: string | null) => post<Lead>(`/leads/${id}/status`, { status, reason });
export const convertLead = (id: string, title: string, expected_closure_date: string | null) =>
  post<ConvertAnswer['data']>(`/leads/${id}/convert`, { title, expected_closure_date });
export const assignLead = (id: string, organisation_id: string, reason: string | null) => post<Lead>(`/leads/${id}/assign`, { organisation_id, reason });

export async function organisations(): Promise<RoutableOrganisation[]> {
  const { json } = await httpClient<{ data: RoutableOrganisation[] }>(`${API_URL}/leads/organisations`);
  return json.data;
}

export async function importLeads(file: File, mode: 'preview' | 'all' | 'valid'): Promise<ImportReport> {
  const form = new FormData();
  form.append('file', file, file.name);
  const query = mode === 'preview' ? '?dryRun=true' : mode === 'valid' ? '?importValid=true' : '';
  const { json } = await httpClient<{ data: ImportReport }>(`${API_URL}/leads/import${query}`, { method: 'POST', body: form });
  return json.data;
}

export async function listRules(): Promise<LeadRule[]> {
  const { json } = await httpClient<{ data: { rules: LeadRule[] } }>(`${API_URL}/lead-rules?limit=100`);
  return json.data.rules;
}

export const moveRule = (id: string, position: number) => post<LeadRule>(`/lead-rules/${id}/move`, { position });
export const addRule = (rule: Record<string, unknown>) => post<LeadRule>('/lead-rules', rule);
export const deleteRule = async (id: string) => (await httpClient(`${API_URL}/lead-rules/${encodeURIComponent(id)}`, { method: 'DELETE' })).json;

export const exportLeads = (filters: LeadFilters) => download(`${API_URL}/leads/export?${qs(filters)}`, 'leads.csv');

/** `2 h 15 min left`, or `closed`. */
export function timeLeft(dueAt: string | null, now = Date.now()): string {
  if (!dueAt) return '';
  const ms = Date.parse(dueAt) - now;
  if (ms <= 0) return 'window closed';
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  if (hours === 0 && minutes === 0) return 'under a minute left';
  return hours > 0 ? `${hours} h ${minutes} min left` : `${minutes} min left`;
}

export const money = (value: number | null) =>
  value === null ? '—' : value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
export const SOURCE_LABELS: Record<string, string> = {
  web_form: 'Web form',
  event: 'Event',
  campaign: 'Campaign',
  partner_referral: 'Partner referral',
  other: 'Other',
};

export async function leadReports(): Promise<LeadReports> {
  const { json } = await httpClient<{ data: LeadReports }>(`${API_URL}/leads/reports`);
  return json.data;
}
