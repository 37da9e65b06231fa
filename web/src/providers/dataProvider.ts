/**
 * The portal's data provider: `ra-data-simple-rest` for lists (the API answers the simple REST
 * shape with Content-Range), envelopes unwrapped for single records, and the few portal calls the
 * screens need as typed methods.
 */

import type { StatusChange } from '@contracts/answers';
import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, Identifier, RaRecord } from 'react-admin';
import { registerAccount, type RegisterAccountAnswer, type RegisterAccountInput } from '../auth/registration';
import { API_URL, httpClient, type HttpResponse, type RequestOptions } from './httpClient';

type Envelope<T> = { success?: boolean; message?: string; data?: T };

/** The record inside `{ success, data }`, or the answer itself when it is not an envelope. */
export function unwrap<T>(json: unknown): T {
  if (json && typeof json === 'object' && 'data' in json && ('success' in json || 'message' in json)) {
    return (json as Envelope<T>).data as T;
  }
  return json as T;
}

/** List answers whose total is where the server's count stopped (header `X-Total-Capped`): more rows match. */
const cappedLists = new WeakSet<object>();

const simpleRestClient = async (url: string, options: { method?: string; body?: RequestOptions['body']; headers?: HeadersInit; signal?: AbortSignal } = {}) => {
  const response = (await httpClient(url, options)) as HttpResponse;
  if (response.headers.get('x-total-capped') === 'true' && response.json && typeof response.json === 'object') cappedLists.add(response.json);
  return response;
};

const base = simpleRestProvider(API_URL, simpleRestClient as never);

export interface PortalNotification {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}

export interface NotificationPage {
  notifications: PortalNotification[];
  unread: number;
  total: number;
}

export type { RegisterAccountAnswer, RegisterAccountInput } from '../auth/registration';

export interface PortalDataProvider extends DataProvider {
  getHistory(resource: string, id: Identifier): Promise<StatusChange[]>;
  getNotifications(limit?: number, background?: boolean): Promise<NotificationPage>;
  markNotificationRead(id: string): Promise<void>;
  markAllNotificationsRead(): Promise<void>;
  changePassword(input: { currentPassword: string; newPassword: string }): Promise<{ success: boolean; message?: string }>;
  registerAccount(input: RegisterAccountInput): Promise<RegisterAccountAnswer>;
}

const resourceUrl = (resource: string, id?: Identifier) =>
  id === undefined ? `${API_URL}/${resource}` : `${API_URL}/${resource}/${encodeURIComponent(String(id))}`;

/**
 * The provider react-admin wraps. Screens call the portal methods (history, notifications, change
 * password, registration) on this object directly, not through `useDataProvider()`, whose wrapper
 * swaps the answer for an empty one after an authentication error and logs every failure.
 */
export const dataProvider: PortalDataProvider = {
  ...base,

  /** A list whose count stopped short says so in `meta.totalCapped`: its total is then "more than". */
  getList: async (resource, params) => {
    const answer = await base.getList(resource, params);
    return cappedLists.has(answer.data) ? { ...answer, meta: { ...answer.meta, totalCapped: true } } : answer;
  },

  getOne: async (resource, params) => {
    const { json } = await httpClient(resourceUrl(resource, params.id), { signal: params.signal });
    return { data: unwrap(json) };
  },

  create: async (resource, params) => {
    const { json } = await httpClient(resourceUrl(resource), { method: 'POST', body: params.data });
    return { data: unwrap(json) };
  },

  update: async (resource, params) => {
    const { json } = await httpClient(resourceUrl(resource, params.id), { method: 'PUT', body: params.data });
    return { data: unwrap(json) };
  },

  delete: async <RecordType extends RaRecord = RaRecord>(resource: string, params: { id: Identifier; previousData?: RecordType }) => {
    const { json } = await httpClient(resourceUrl(resource, params.id), { method: 'DELETE' });
    const record = unwrap<RecordType | undefined>(json);
    return { data: (record && typeof record === 'object' && 'id' in record ? record : { ...params.previousData, id: params.id }) as RecordType };
  },

  async getHistory(resource, id) {
    const { json } = await httpClient(`${resourceUrl(resource, id)}/history`);
    const data = unwrap<unknown>(json);
    if (Array.isArray(data)) return data as StatusChange[];
    const rows = (data as { history?: StatusChange[] } | null)?.history;
    return Array.isArray(rows) ? rows : [];
  },

  async getNotifications(limit = 10, background = false) {
    const { json } = await httpClient(`${API_URL}/notifications?page=1&limit=${limit}`, { background });
    const data = unwrap<Partial<NotificationPage> | PortalNotification[]>(json);
    if (Array.isArray(data)) return { notifications: data, unread: data.filter((n) => !n.read_at).length, total: data.length };
    const notifications = data?.notifications ?? [];
    return {
      notifications,
      unread: data?.unread ?? notifications.filter((n) => !n.read_at).length,
      total: data?.total ?? notifications.length,
    };
  },

  async markNotificationRead(id) {
    await httpClient(`${API_URL}/notifications/${encodeURIComponent(id)}/read`, { method: 'POST' });
  },

  async markAllNotificationsRead() {
    await httpClient(`${API_URL}/notifications/read-all`, { method: 'POST' });
  },

  async changePassword(input) {
    const { json } = await httpClient(`${API_URL}/auth/change-password`, { method: 'POST', body: input });
    return json as { success: boolean; message?: string };
  },

  registerAccount,
};
