/** The ticket calls of the Support Center, typed. */

import { API_URL, httpClient } from '../providers/httpClient';
import { download } from '../providers/download';

export interface TicketComment {
  id: string;
  comment: string;
  is_internal: boolean;
  kind: 'initial' | 'comment' | 'status' | 'assignment';
  status_to: string | null;
  author: { id: string | null; full_name: string | null; role: string | null };
  created_at: string;
}

export interface TicketAttachment {
  name: string;
  original_name: string;
  type: string;
  url: string;
}

export interface TicketRecord {
  id: string;
  ticket_id: string;
  title: string;
  description: string;
  priority: string;
  category: string;
  status: string;
  assigned_to: string | null;
  assignee: { id: string; full_name: string | null } | null;
  created_by: string;
  creator: { id: string; full_name: string | null };
  organisation_id: string;
  company_name: string | null;
  tags: string[];
  due_date: string;
  is_overdue: boolean;
  resolution_notes: string | null;
  initial_comment: string | null;
  attachments: TicketAttachment[];
  comment_count: number;
  created_at: string;
  updated_at: string;
  comments?: TicketComment[];
  rma: { serial_number: string; order_id: string; order_number: string; product_name: string } | null;
}

export interface TicketStatistics {
  total: number;
  open: number;
  in_progress: number;
  resolved: number;
  closed: number;
  overdue: number;
}

export interface TicketPage {
  tickets: TicketRecord[];
  statistics: TicketStatistics;
  pagination: { page: number; limit: number; total: number; total_pages: number };
}

export interface UserOption {
  id: string;
  full_name: string;
  role: string;
}

export interface TicketQuery {
  page: number;
  limit: number;
  status?: string;
  priority?: string;
  assigned_to?: string;
  organisation_id?: string;
  search?: string;
  sort?: [string, 'ASC' | 'DESC'];
  /** A dashboard card's filter (`active`, `urgent`, `overdue`, …), passed to the list as it is. */
  extra?: Record<string, string | boolean>;
}

export async function listTickets(query: TicketQuery): Promise<TicketPage> {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit) });
  for (const key of ['status', 'priority', 'assigned_to', 'organisation_id', 'search'] as const) if (query[key]) params.set(key, query[key]!);
  for (const [key, value] of Object.entries(query.extra ?? {})) params.set(key, String(value));
  const { json } = await httpClient<{ data: TicketPage }>(`${API_URL}/tickets?${params}`);
  return json.data;
}

/** The support queue: react-admin's list shape, sorted as asked. */
export async function listQueue(query: TicketQuery): Promise<{ tickets: TicketRecord[]; total: number }> {
  const filter: Record<string, string | boolean> = {};
  for (const key of ['status', 'priority', 'assigned_to', 'organisation_id', 'search'] as const) if (query[key]) filter[key] = query[key]!;
  Object.assign(filter, query.extra ?? {});
  const start = (query.page - 1) * query.limit;
  const params = new URLSearchParams({ sort: JSON.stringify(query.sort ?? ['due_at', 'ASC']), range: JSON.stringify([start, start + query.limit - 1]), filter: JSON.stringify(filter) });
  const { json, headers } = await httpClient<TicketRecord[]>(`${API_URL}/tickets?${params}`);
  const total = Number(headers.get('Content-Range')?.split('/')[1] ?? json.length);
  return { tickets: json, total };
}

export async function getTicketStatistics(): Promise<TicketStatistics> {
  const { json } = await httpClient<{ data: TicketStatistics }>(`${API_URL}/tickets/statistics`);
  return json.data;
}

export async function getTicket(id: string): Promise<TicketRecord> {
  const { json } = await httpClient<{ data: TicketRecord }>(`${API_URL}/tickets/${encodeURIComponent(id)}`);
  return json.data;
}

export async function getAssignees(): Promise<UserOption[]> {
  const { json } = await httpClient<{ data: UserOption[] }>(`${API_URL}/tickets/assignees`);
  return json.data;
}

export async function createTicket(form: FormData): Promise<{ message: string; data: TicketRecord }> {
  const { json } = await httpClient<{ message: string; data: TicketRecord }>(`${API_URL}/tickets`, { method: 'POST', body: form });
  return json;
}

export async function changeTicketStatus(id: string, body: { status: string; comment?: string; is_internal?: boolean; resolution_notes?: string }) {
  const { json } = await httpClient<{ message: string; data: TicketRecord }>(`${API_URL}/tickets/${id}/status`, { method: 'PATCH', body });
  return json;
}

export async function addTicketComment(id: string, body: { comment: string; is_internal: boolean }) {
  const { json } = await httpClient<{ message: string }>(`${API_URL}/tickets/${id}/comments`, { method: 'POST', body });
  return json;
}

export async function assignTicket(id: string, body: { assigned_to: string; comment?: string }) {
  const { json } = await httpClient<{ message: string; data: TicketRecord }>(`${API_URL}/tickets/${id}/assign`, { method: 'PATCH', body });
  return json;
}

/** Attachments are private: fetched with the session's token, then saved under the name the server gives (made safe there). */
export async function downloadAttachment(file: TicketAttachment): Promise<void> {
  await download(file.url, 'attachment');
}

export interface UnitWarranty {
  serial_number: string;
  product_name: string;
  category: string | null;
  order_id: string;
  order_number: string;
  shipped_at: string;
  delivered_at: string | null;
  warranty_months: number;
  warranty_ends_at: string;
  under_warranty: boolean;
}

export async function checkWarranty(serialNumber: string): Promise<{ found: boolean; message: string; data: UnitWarranty | null }> {
  const { json } = await httpClient<{ found: boolean; message: string; data: UnitWarranty | null }>(`${API_URL}/warranty/checks`, { method: 'POST', body: { serial_number: serialNumber } });
  return json;
}

export async function requestRma(body: { serial_number: string; description?: string }): Promise<{ message: string; data: TicketRecord }> {
  const { json } = await httpClient<{ message: string; data: TicketRecord }>(`${API_URL}/tickets/rma`, { method: 'POST', body });
  return json;
}
