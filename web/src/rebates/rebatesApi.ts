/**
 * The rebate calls of the portal (spec 002 §7), typed. Lists are plain GETs with the same filters
 * the export takes, so the screen can export exactly what it shows.
 */

import { ApiError, mapErrorResponse, networkError } from '../providers/errorMapper';
import { API_URL, httpClient, refreshAccessToken } from '../providers/httpClient';
import { getAccessToken } from '../providers/session';
import { download } from '../providers/download';

export interface RebateAttachment {
  file: string;
  name: string;
  type: string;
  size: number;
  url: string;
}

export interface RebateRecord {
  id: string;
  product_name: string;
  product_category: string;
  purchase_date: string;
  invoice_number: string;
  purchase_amount: number;
  rebate_type: string;
  description: string;
  attachments: RebateAttachment[];
  status: string;
  status_label: string;
  next_statuses: string[];
  rebate_amount: number | null;
  notes: string | null;
  rejection_reason: string | null;
  submitted_date: string;
  updated_at: string;
  reviewed_at: string | null;
  reviewed_by_name: string | null;
  organisation_id: string;
  company_name: string | null;
  submitted_by: string;
  submitted_by_name: string | null;
  document_count: number;
  matched_order: { id: string; order_number: string; matched_by: 'invoice' | 'product_and_amount' } | null;
  match_note: string | null;
  suggested_rate: number;
  /** The tier the rate belongs to: the organisation's, before this claim counts. */
  suggested_tier: string;
  suggested_rebate_amount: number;
}

export interface RebateOverview {
  scope: 'organisation' | 'all';
  quarterly_progress: { percentage: number | null; current: number; target: number | null };
  quarterly_target: { target: number | null; current: number };
  current_tier: { tier: string | null; next: string | null };
  pending_rebates: { count: number; total: number };
  summary_counts: { total: number; pending: number; processing: number; approved: number; rejected: number };
  financial_summary: { total_purchase: number; total_rebate: number; quarterly_purchase: number; quarterly_rebate: number };
  quarter: { label: string; progress_label: string; start: string; end: string; days_remaining: number };
  rate: number | null;
  remaining_to_next_tier: number | null;
  monthly: Array<{ month: string; label: string; purchases: number; rebates: number }>;
  tiers: Array<{ name: string; threshold: number; rate: number }>;
}

export interface ListEntry {
  id: string;
  name: string;
}

export interface RebateFilters {
  status?: string;
  organisation_id?: string;
  date_from?: string;
  date_to?: string;
  search?: string;
  /** Pending or processing (the admin dashboard's Open Rebates card). */
  open?: boolean;
}

export interface RebatePage {
  rebates: RebateRecord[];
  total: number;
}

export type SortOrder = { field: string; order: 'ASC' | 'DESC' };

function query(filters: RebateFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
}

/** The caller's rebates (`user`) or every rebate (`admin`), one page. */
export async function listRebates(scope: 'user' | 'admin', filters: RebateFilters, page: { page: number; perPage: number }, sort: SortOrder): Promise<RebatePage> {
  const path = scope === 'admin' ? 'admin/all' : 'user';
  // `sort` and `range` ask for react-admin's shape: an array, and the total in Content-Range.
  const range = [(page.page - 1) * page.perPage, page.page * page.perPage - 1];
  const q = query(filters, { sort: JSON.stringify([sort.field, sort.order]), range: JSON.stringify(range) });
  const { json, headers } = await httpClient<RebateRecord[]>(`${API_URL}/rebates/${path}?${q}`);
  const total = Number(headers.get('content-range')?.split('/')[1] ?? json.length);
  return { rebates: json, total };
}

export async function getRebate(id: string): Promise<RebateRecord> {
  const { json } = await httpClient<{ data: RebateRecord }>(`${API_URL}/rebates/${encodeURIComponent(id)}`);
  return json.data;
}

export async function getOverview(): Promise<RebateOverview> {
  const { json } = await httpClient<{ data: RebateOverview }>(`${API_URL}/rebates/dashboard/overview`);
  return json.data;
}

export async function getCategories(): Promise<ListEntry[]> {
  const { json } = await httpClient<{ data: ListEntry[] }>(`${API_URL}/rebates/categories/list`);
  return json.data;
}

export async function getRebateTypes(): Promise<ListEntry[]> {
  const { json } = await httpClient<{ data: ListEntry[] }>(`${API_URL}/rebates/types/list`);
  return json.data;
}

export interface CommandAnswer<T> {
  success: boolean;
  message?: string;
  data: T;
}

/** PATCH /rebates/admin/:id/status */
export async function reviewRebate(id: string, body: { status: string; notes?: string | null; rebate_amount?: number | null }): Promise<CommandAnswer<RebateRecord>> {
  const { json } = await httpClient<CommandAnswer<RebateRecord>>(`${API_URL}/rebates/admin/${encodeURIComponent(id)}/status`, { method: 'PATCH', body });
  return json;
}

export async function deleteRebate(id: string): Promise<CommandAnswer<{ id: string }>> {
  const { json } = await httpClient<CommandAnswer<{ id: string }>>(`${API_URL}/rebates/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return json;
}

export const downloadAttachment = (attachment: RebateAttachment) => download(attachment.url, attachment.name);

/** GET /rebates/export with the filters the screen shows. */
export const exportRebates = (filters: RebateFilters, sort?: SortOrder) =>
  download(`${API_URL}/rebates/export?${query(filters, sort ? { sort: JSON.stringify([sort.field, sort.order]) } : {})}`, 'rebates.csv');

export interface SubmitRebateInput {
  product_name: string;
  product_category: string;
  purchase_date: string;
  invoice_number: string;
  purchase_amount: string;
  rebate_type: string;
  description: string;
  attachments: File[];
}

/**
 * POST /rebates/submit as multipart, reporting upload progress (0–100). `fetch` cannot report an
 * upload's progress, so this one call uses XMLHttpRequest; a 401 refreshes the session once.
 */
export async function submitRebate(input: SubmitRebateInput, onProgress: (percent: number) => void): Promise<CommandAnswer<RebateRecord>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) if (key !== 'attachments') form.append(key, value as string);
  for (const file of input.attachments) form.append('attachments', file, file.name);
  const send = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${API_URL}/rebates/submit`);
      const token = getAccessToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = xhr.responseText;
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new ApiError(networkError()));
      xhr.send(form);
    });
  let answer = await send();
  if (answer.status === 401 && (await refreshAccessToken())) answer = await send();
  if (answer.status >= 200 && answer.status < 300) return answer.body as CommandAnswer<RebateRecord>;
  throw new ApiError(mapErrorResponse(answer.status, answer.body), answer.body);
}

/** Approve (each at its suggested amount) or reject several claims with one reason (admins); the answer names each one done and each one refused, with why. */
export async function bulkReviewRebates(ids: string[], decision: 'approved' | 'rejected', reason: string): Promise<CommandAnswer<{ succeeded: string[]; refused: Array<{ id: string; code: string; message: string }> }>> {
  const { json } = await httpClient<CommandAnswer<{ succeeded: string[]; refused: Array<{ id: string; code: string; message: string }> }>>(`${API_URL}/rebates/bulk-review`, { method: 'POST', body: { ids, decision, reason: reason || null } });
  return json;
}
