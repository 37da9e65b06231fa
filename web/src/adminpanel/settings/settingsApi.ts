import type { EmailTemplate, MailAudience } from '@domain/settings/notifications';
import { useCallback, useEffect, useState } from 'react';
import { API_URL, httpClient, type RequestOptions } from '../../providers/httpClient';
import { download } from '../../providers/download';

export interface NotificationEventRow {
  kind: string;
  label: string;
  group: string;
  audiences: MailAudience[];
  configured: boolean;
}
export interface NotificationTable {
  audiences: Array<{ id: MailAudience; label: string }>;
  events: NotificationEventRow[];
}
export interface TemplateRow extends EmailTemplate {
  kind: string;
  label: string;
  group: string;
  customised: boolean;
  updated_at: string | null;
}
export interface TemplateList {
  placeholders: Array<{ name: string; description: string }>;
  standard: EmailTemplate;
  templates: TemplateRow[];
}
export interface AccessControl {
  roles: Array<{ role: string; label: string; permissions: Array<{ name: string; label: string }> }>;
  integration: { permissions: Array<{ name: string; label: string }> };
}
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  /** What the key may write besides reading: `leads:write` (create and import leads); none: read-only. */
  scopes: string[];
  created_at: string;
  created_by_name: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked';
}
export interface BackupSummary {
  events: number;
  streams: number;
  first_event_at: string | null;
  last_event_at: string | null;
}
export interface SettingChange {
  type: string;
  value: unknown;
  changed_at: string;
  changed_by_name: string | null;
}

type Answer<T> = { success: true; message?: string; data: T };

async function call<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const { json } = await httpClient<Answer<T>>(`${API_URL}${path}`, options);
  return json;
}

export const settingsApi = {
  notifications: () => call<NotificationTable>('/settings/notifications'),
  saveNotifications: (mail: Record<string, MailAudience[]>) => call<NotificationTable>('/settings/notifications', { method: 'PUT', body: { mail } }),
  templates: () => call<TemplateList>('/settings/email-templates'),
  saveTemplate: (kind: string, template: EmailTemplate) => call<TemplateList>(`/settings/email-templates/${encodeURIComponent(kind)}`, { method: 'PUT', body: { ...template } }),
  resetTemplate: (kind: string) => call<TemplateList>(`/settings/email-templates/${encodeURIComponent(kind)}`, { method: 'DELETE' }),
  accessControl: () => call<AccessControl>('/settings/access-control'),
  apiKeys: () => call<ApiKeyRow[]>('/settings/api-keys'),
  createApiKey: async (name: string, scopes: string[] = []) => (await httpClient<ApiKeyRow & { key: string; message: string }>(`${API_URL}/settings/api-keys`, { method: 'POST', body: { name, scopes } } )).json,
  revokeApiKey: async (id: string) => (await httpClient<ApiKeyRow & { message: string }>(`${API_URL}/settings/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' } )).json,
  backup: () => call<BackupSummary>('/settings/backup'),
  downloadEventLog: () => download(`${API_URL}/settings/backup/events`, 'partnerhub-events.jsonl'),
  history: (setting: string) => call<{ history: SettingChange[] }>(`/settings/history?setting=${encodeURIComponent(setting)}`),
};

/** Loads once, and again on `reload`; `error` holds the failure for a LoadError box. */
export function useSettingsData<T>(load: () => Promise<Answer<T>>) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (answer) => live && setData(answer.data),
      (failure) => live && setError(failure),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, setData, error, reload };
}
