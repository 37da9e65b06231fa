/**
 * The rebate calls of the portal (spec 002 §7), typed. The lists are read through the data provider
 * (see useRebateList); the export takes the same filters, so the screen exports exactly what it shows.
 */

import { API_URL, httpClient } from '../providers/httpClient';
import { download } from '../providers/download';
import { sendForm } from '../providers/sendForm';
import type {
  ListEntry,
  RebateAttachment,
  RebateBulkReviewAnswer,
  RebateDeletedAnswer,
  RebateFormValues,
  RebateOverview,
  RebateStatusAnswer,
  RebateStatusBody,
  RebateSubmittedAnswer,
} from '@contracts/rebates';

export interface RebateFilters {
  status?: string;
  organisation_id?: string;
  date_from?: string;
  date_to?: string;
  search?: string;
  /** Pending or processing (the admin dashboard's Open Rebates card). */
  open?: boolean;
}

export type SortOrder = { field: string; order: 'ASC' | 'DESC' };

function query(filters: RebateFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
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

/** PATCH /rebates/admin/:id/status */
export async function reviewRebate(id: string, body: RebateStatusBody): Promise<RebateStatusAnswer> {
  const { json } = await httpClient<RebateStatusAnswer>(`${API_URL}/rebates/admin/${encodeURIComponent(id)}/status`, { method: 'PATCH', body });
  return json;
}

export async function deleteRebate(id: string): Promise<RebateDeletedAnswer> {
  const { json } = await httpClient<RebateDeletedAnswer>(`${API_URL}/rebates/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return json;
}

export const downloadAttachment = (attachment: RebateAttachment) => download(attachment.url, attachment.name);

/** GET /rebates/export with the filters the screen shows. */
export const exportRebates = (filters: RebateFilters, sort?: SortOrder) =>
  download(`${API_URL}/rebates/export?${query(filters, sort ? { sort: JSON.stringify([sort.field, sort.order]) } : {})}`, 'rebates.csv');

export type SubmitRebateInput = RebateFormValues & { attachments: File[] };

/** POST /rebates/submit as multipart, reporting upload progress (0–100). */
export async function submitRebate(input: SubmitRebateInput, onProgress: (percent: number) => void): Promise<RebateSubmittedAnswer> {
  const { attachments, ...fields } = input;
  return sendForm<RebateSubmittedAnswer['data'], RebateSubmittedAnswer>('POST', 'rebates/submit', fields, { attachments }, onProgress);
}

/** Approve (each at its suggested amount) or reject several claims with one reason (admins); the answer names each one done and each one refused, with why. */
export async function bulkReviewRebates(ids: string[], decision: 'approved' | 'rejected', reason: string): Promise<RebateBulkReviewAnswer> {
  const { json } = await httpClient<RebateBulkReviewAnswer>(`${API_URL}/rebates/bulk-review`, {
    method: 'POST',
    body: { ids, decision, reason: reason || null },
  });
  return json;
}
