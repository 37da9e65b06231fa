/** The lead calls of the portal, typed. */

import { API_URL, httpClient } from '../providers/httpClient';
import { download } from '../providers/download';

export interface LeadOffer {
  organisation_id: string;
  organisation_name: string | null;
  method: string;
  reason: string;
  offered_at: string;
  due_at: string;
  outcome: string;
  answered_at: string | null;
  outcome_reason: string | null;
}

export interface Lead {
  id: string;
  company: string;
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  contact_visible: boolean;
  country: string | null;
  region: string | null;
  product_interest: string | null;
  estimated_value: number | null;
  source: string;
  notes: string | null;
  status: string;
  status_label: string;
  organisation_id: string | null;
  organisation_name: string | null;
  rule_name: string | null;
  assignment_method: string | null;
  assignment_reason: string | null;
  assigned_at: string | null;
  due_at: string | null;
  accepted_at: string | null;
  duplicate_of: { type: string; id: string } | null;
  project_id: string | null;
  status_reason: string | null;
  passed_count: number;
  created_at: string;
  updated_at: string;
  offers?: LeadOffer[];
}

export interface LeadRule {
  id: string;
  position: number;
  name: string;
  countries: string[];
  regions: string[];
  product_interests: string[];
  min_value: number | null;
  max_value: number | null;
  method: 'named' | 'round_robin' | 'fewest_open' | string;
  organisation_ids: string[];
  organisation_names: string[];
  capacity: number | null;
}

export interface HistoryEntry {
  id: string;
  from_status: string | null;
  to_status: string;
  actor_name: string | null;
  reason: string | null;
  occurred_at: string;
}

export interface ImportRow {
  line: number;
  status: 'valid' | 'invalid' | 'already_imported';
  company: string | null;
  email: string | null;
  errors: Array<{ field: string; message: string }>;
}

export interface ImportReport {
  dry_run: boolean;
  total: number;
  valid: number;
  invalid: number;
  already_imported: number;
  created: number;
  rows: ImportRow[];
}

export type LeadFilters = Partial<Record<'status' | 'organisation_id' | 'source' | 'region' | 'search', string>>;

const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])).toString();

export async function listLeads(filters: LeadFilters, page = 1, limit = 25): Promise<{ leads: Lead[]; total: number }> {
  const { json } = await httpClient<{ data: { leads: Lead[]; pagination: { total: number } } }>(`${API_URL}/leads?${qs({ ...filters, page, limit })}`);
  return { leads: json.data.leads, total: json.data.pagination.total };
}

export async function getLead(id: string): Promise<Lead> {
  const { json } = await httpClient<{ data: Lead }>(`${API_URL}/leads/${encodeURIComponent(id)}`);
  return json.data;
}

export async function leadHistory(id: string): Promise<HistoryEntry[]> {
  const { json } = await httpClient<{ data: HistoryEntry[] }>(`${API_URL}/leads/${encodeURIComponent(id)}/history`);
  return json.data;
}

const post = async <T,>(path: string, body?: Record<string, unknown>) => (await httpClient<{ message: string; data: T }>(`${API_URL}${path}`, { method: 'POST', body: body ?? {} })).json;

export const acceptLead = (id: string) => post<Lead>(`/leads/${id}/accept`);
export const declineLead = (id: string, reason: string) => post<Lead>(`/leads/${id}/decline`, { reason });
export const changeLeadStatus = (id: string, status: string, reason: string | null) => post<Lead>(`/leads/${id}/status`, { status, reason });
export const convertLead = (id: string, title: string, expected_closure_date: string | null) => post<{ project_id: string }>(`/leads/${id}/convert`, { title, expected_closure_date });
export const assignLead = (id: string, organisation_id: string, reason: string | null) => post<Lead>(`/leads/${id}/assign`, { organisation_id, reason });

export async function organisations(): Promise<Array<{ id: string; name: string }>> {
  const { json } = await httpClient<{ data: Array<{ id: string; name: string }> }>(`${API_URL}/leads/organisations`);
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

export const money = (value: number | null) => (value === null ? '—' : value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }));
export const SOURCE_LABELS: Record<string, string> = { web_form: 'Web form', event: 'Event', campaign: 'Campaign', partner_referral: 'Partner referral', other: 'Other' };

export interface LeadReportRow {
  key: string;
  name: string;
  leads: number;
  offers: number;
  accepted: number;
  declined: number;
  lapsed: number;
  acceptance_rate: number | null;
  avg_hours_to_accept: number | null;
  converted: number;
  conversion_rate: number | null;
  revenue: number;
}

export interface LeadReports {
  by_organisation: LeadReportRow[];
  by_source: LeadReportRow[];
  ageing: Array<{ bucket: string; unassigned: number; awaiting: number; working: number }>;
}

export async function leadReports(): Promise<LeadReports> {
  const { json } = await httpClient<{ data: LeadReports }>(`${API_URL}/leads/reports`);
  return json.data;
}
