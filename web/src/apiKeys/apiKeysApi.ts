import type { ApiKeyOptions, ApiKeyView, ApiKeyWithSecret } from '@contracts/apiKeys';
import { API_URL, httpClient } from '../providers/httpClient';

/** Whose keys a screen manages: the vendor's (System Settings) or the signed-in owner's organisation's. */
export type ApiKeyOwnerKind = 'vendor' | 'organisation';

const base = (owner: ApiKeyOwnerKind) => `${API_URL}${owner === 'vendor' ? '/settings/api-keys' : '/organisation/api-keys'}`;

export interface NewApiKey {
  name: string;
  scopes: string[];
  expires_at?: string;
  rate_limit_per_minute?: number;
}

export const apiKeysApi = {
  async list(owner: ApiKeyOwnerKind): Promise<ApiKeyView[]> {
    if (owner === 'vendor') return (await httpClient<{ data: ApiKeyView[] }>(base(owner))).json.data;
    return (await httpClient<{ data: { api_keys: ApiKeyView[] } }>(`${base(owner)}?limit=100`)).json.data.api_keys;
  },
  async options(owner: ApiKeyOwnerKind): Promise<ApiKeyOptions> {
    return (await httpClient<{ data: ApiKeyOptions }>(`${base(owner)}/options`)).json.data;
  },
  async create(owner: ApiKeyOwnerKind, key: NewApiKey): Promise<ApiKeyWithSecret & { message: string }> {
    return (await httpClient<ApiKeyWithSecret & { message: string }>(base(owner), { method: 'POST', body: { ...key } })).json;
  },
  async rotate(owner: ApiKeyOwnerKind, id: string, overlapHours: number): Promise<ApiKeyWithSecret & { message: string }> {
    return (
      await httpClient<ApiKeyWithSecret & { message: string }>(`${base(owner)}/${encodeURIComponent(id)}/rotate`, {
        method: 'POST',
        body: { overlap_hours: overlapHours },
      })
    ).json;
  },
  async revoke(owner: ApiKeyOwnerKind, id: string): Promise<ApiKeyView & { message: string }> {
    return (await httpClient<ApiKeyView & { message: string }>(`${base(owner)}/${encodeURIComponent(id)}`, { method: 'DELETE' })).json;
  },
};
