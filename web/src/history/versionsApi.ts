/**
 * A record's versions and the record as of a moment, for every record type: `GET <path>/:id/versions`
 * and `GET <path>/:id?asOf=`. `path` is the record's read route, e.g. `/projects`.
 */

import { API_URL, httpClient } from '../providers/httpClient';

import type { VersionView } from '@contracts/versions';

export type FieldChange = VersionView['changes'][number];
export type RecordVersion = VersionView;

export type RecordFields = Record<string, unknown>;

/** Keys of an as-of answer that describe the answer, not the record. */
export const ANSWER_KEYS = new Set(['success', 'message', 'data', 'as_of', 'version', 'version_time']);

const recordUrl = (path: string, id: string) => `${API_URL}${path}/${encodeURIComponent(id)}`;

export async function getVersions(path: string, id: string): Promise<RecordVersion[]> {
  const { json } = await httpClient<{ data: RecordVersion[] }>(`${recordUrl(path, id)}/versions`);
  return Array.isArray(json.data) ? json.data : [];
}

export async function getRecordAsOf(path: string, id: string, asOf: string): Promise<RecordFields> {
  const { json } = await httpClient<{ data: RecordFields }>(`${recordUrl(path, id)}?asOf=${encodeURIComponent(asOf)}`);
  return json.data;
}
