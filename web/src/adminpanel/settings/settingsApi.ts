import type { AccessControl, EventLogSummary, NotificationTable, SettingChange, TemplateList } from '@contracts/settings';
import type { EmailTemplate, MailAudience } from '@domain/settings/notifications';
import { useCallback, useEffect, useState } from 'react';
import { API_URL, httpClient, type RequestOptions } from '../../providers/httpClient';
import { download } from '../../providers/download';

type Answer<T> = { success: true; message?: string; data: T };

async function call<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const { json } = await httpClient<Answer<T>>(`${API_URL}${path}`, options);
  return json;
}

export const settingsApi = {
  notifications: () => call<NotificationTable>('/settings/notifications'),
  saveNotifications: (mail: Record<string, MailAudience[]>) => call<NotificationTable>('/settings/notifications', { method: 'PUT', body: { mail } }),
  templates: () => call<TemplateList>('/settings/email-templates'),
  saveTemplate: (kind: string, template: EmailTemplate) =>
    call<TemplateList>(`/settings/email-templates/${encodeURIComponent(kind)}`, { method: 'PUT', body: { ...template } }),
  resetTemplate: (kind: string) => call<TemplateList>(`/settings/email-templates/${encodeURIComponent(kind)}`, { method: 'DELETE' }),
  accessControl: () => call<AccessControl>('/settings/access-control'),
  backup: () => call<EventLogSummary>('/settings/backup'),
  downloadEventLog: () => download(`${API_URL}/settings/backup/events`, 'partnerhub-events.jsonl'),
  history: (setting: string) => call<{ setting: string; history: SettingChange[] }>(`/settings/history?setting=${encodeURIComponent(setting)}`),
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `load` is a new closure each render; the data loads once and again on reload
  }, [version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, setData, error, reload };
}
