/** The ticket calls of the Support Center, typed. */

import type {
  CommentCreatedAnswer,
  Ticket,
  TicketAssignee,
  TicketListPage,
  TicketStatistics,
  TicketWithComments,
  WarrantyCheckAnswer,
} from '@contracts/tickets';
import { API_URL, httpClient } from '../providers/httpClient';
import { download } from '../providers/download';

/** A ticket command's answer: the ticket with its conversation, and the message saying what was done. */
type TicketSaved = { success: true; message: string; data: TicketWithComments };

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

export async function listTickets(query: TicketQuery): Promise<TicketListPage> {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit) });
  for (const key of ['status', 'priority', 'assigned_to', 'organisation_id', 'search'] as const) if (query[key]) params.set(key, query[key]!);
  for (const [key, value] of Object.entries(query.extra ?? {})) params.set(key, String(value));
  const { json } = await httpClient<{ data: TicketListPage }>(`${API_URL}/tickets?${params}`);
  return json.data;
}

/** The support queue: react-admin's list shape, sorted as asked. */
export async function listQueue(query: TicketQuery): Promise<{ tickets: Ticket[]; total: number }> {
  const filter: Record<string, string | boolean> = {};
  for (const key of ['status', 'priority', 'assigned_to', 'organisation_id', 'search'] as const) if (query[key]) filter[key] = query[key]!;
  Object.assign(filter, query.extra ?? {});
  const start = (query.page - 1) * query.limit;
  const params = new URLSearchParams({
    sort: JSON.stringify(query.sort ?? ['due_at', 'ASC']),
    range: JSON.stringify([start, start + query.limit - 1]),
    filter: JSON.stringify(filter),
  });
  const { json, headers } = await httpClient<Ticket[]>(`${API_URL}/tickets?${params}`);
  const total = Number(headers.get('Content-Range')?.split('/')[1] ?? json.length);
  return { tickets: json, total };
}

export async function getTicketStatistics(): Promise<TicketStatistics> {
  const { json } = await httpClient<{ data: TicketStatistics }>(`${API_URL}/tickets/statistics`);
  return json.data;
}

export async function getTicket(id: string): Promise<TicketWithComments> {
  const { json } = await httpClient<{ data: TicketWithComments }>(`${API_URL}/tickets/${encodeURIComponent(id)}`);
  return json.data;
}

export async function getAssignees(): Promise<TicketAssignee[]> {
  const { json } = await httpClient<{ data: TicketAssignee[] }>(`${API_URL}/tickets/assignees`);
  return json.data;
}

export async function createTicket(form: FormData): Promise<TicketSaved> {
  const { json } = await httpClient<TicketSaved>(`${API_URL}/tickets`, { method: 'POST', body: form });
  return json;
}

export async function changeTicketStatus(id: string, body: { status: string; comment?: string; is_internal?: boolean; resolution_notes?: string }) {
  const { json } = await httpClient<TicketSaved>(`${API_URL}/tickets/${id}/status`, { method: 'PATCH', body });
  return json;
}

export async function addTicketComment(id: string, body: { comment: string; is_internal: boolean }) {
  const { json } = await httpClient<CommentCreatedAnswer>(`${API_URL}/tickets/${id}/comments`, { method: 'POST', body });
  return json;
}

export async function assignTicket(id: string, body: { assigned_to: string; comment?: string }) {
  const { json } = await httpClient<TicketSaved>(`${API_URL}/tickets/${id}/assign`, { method: 'PATCH', body });
  return json;
}

/** Attachments are private: fetched with the session's token, then saved under the name the server gives (made safe there). */
export async function downloadAttachment(file: Ticket['attachments'][number]): Promise<void> {
  await download(file.url, 'attachment');
}

export async function checkWarranty(serialNumber: string): Promise<WarrantyCheckAnswer> {
  const { json } = await httpClient<WarrantyCheckAnswer>(`${API_URL}/warranty/checks`, {
    method: 'POST',
    body: { serial_number: serialNumber },
  });
  return json;
}

export async function requestRma(body: { serial_number: string; description?: string }): Promise<TicketSaved> {
  const { json } = await httpClient<TicketSaved>(`${API_URL}/tickets/rma`, { method: 'POST', body });
  return json;
}
