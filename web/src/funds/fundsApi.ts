/** The market development fund calls of the portal, typed. */

import { ApiError, mapErrorResponse, networkError } from '../providers/errorMapper';
import { API_URL, httpClient, refreshAccessToken } from '../providers/httpClient';
import { download } from '../providers/download';
import { getAccessToken } from '../providers/session';

export interface Balance {
  allocated: number;
  accrued: number;
  reserved: number;
  claimed: number;
  paid: number;
  /** Unspent when the fund period closed. */
  expired: number;
  available: number;
}

export interface FundBalanceRow extends Balance {
  fund_id: string;
  name: string;
  period_start: string;
  period_end: string;
  status: string;
  budget: number;
}

export interface FundRecord {
  id: string;
  name: string;
  period_start: string;
  period_end: string;
  budget: number;
  coop_share_percent: number;
  status: string;
  closed_at: string | null;
  close_reason: string | null;
  allocation_rule: { kind: string; percent: number; measured_from: string; measured_to: string } | null;
  allocations: Array<Balance & { organisation_id: string; company_name: string | null; amount: number; measured_purchases: number | null }>;
  totals: Balance;
  utilisation_percent: number;
}

export interface RulePreview {
  fund_id: string;
  rule: { kind: string; percent: number };
  measured_from: string;
  measured_to: string;
  allocations: Array<{ organisation_id: string; company_name: string | null; purchases: number; current: number; amount: number }>;
  total_allocated: number;
  budget: number;
  within_budget: boolean;
}

export interface FileLink {
  name: string;
  type: string;
  size: number;
  url: string;
}

export interface FundRequestRecord {
  id: string;
  fund_id: string;
  fund_name: string;
  organisation_id: string;
  company_name: string | null;
  activity_type: string;
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  planned_cost: number;
  requested_amount: number;
  expected_leads: number;
  status: string;
  approved_amount: number | null;
  claim_deadline: string | null;
  reserved: number;
  released: number;
  claim_id: string | null;
  claim_status: string | null;
  note: string | null;
  /** The activity's outcome: deals naming it, their value, their delivered orders, the amount paid out and revenue / paid. */
  deals: number;
  pipeline: number;
  revenue: number;
  paid: number;
  roi: number | null;
  attachments: FileLink[];
  submitted_at: string;
}

export interface FundClaimRecord {
  id: string;
  request_id: string;
  request_title: string;
  organisation_id: string;
  company_name: string | null;
  actual_cost: number;
  claimed_amount: number;
  approved_amount: number;
  paid_amount: number | null;
  leads_generated: number;
  status: string;
  reason: string | null;
  payout: { reference: string; paid_at: string; method: string } | null;
  claim_deadline: string | null;
  proof: FileLink[];
  submitted_at: string;
}

const list = async <T>(path: string, perPage = 100): Promise<T[]> => {
  const { json } = await httpClient<T[]>(`${API_URL}/${path}${path.includes('?') ? '&' : '?'}range=${encodeURIComponent(JSON.stringify([0, perPage - 1]))}`);
  return json;
};

export const getBalance = async () => (await httpClient<{ data: { funds: FundBalanceRow[]; total: Balance } }>(`${API_URL}/funds/balance`)).json.data;
export const listFunds = () => list<FundRecord>('funds');
export const listRequests = () => list<FundRequestRecord>('fund-requests');
export const listClaims = () => list<FundClaimRecord>('fund-claims');

export async function createFund(body: { name: string; period_start: string; period_end: string; budget: number; coop_share_percent: number; allocations: Array<{ organisation_id: string; amount: number }> }) {
  return (await httpClient<{ data: FundRecord }>(`${API_URL}/funds`, { method: 'POST', body })).json.data;
}
export async function setAllocation(fundId: string, body: { organisation_id: string; amount: number }) {
  return (await httpClient<{ data: FundRecord }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/allocations`, { method: 'POST', body })).json.data;
}
export async function closeFund(fundId: string) {
  return (await httpClient<{ data: FundRecord; message: string }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/close`, { method: 'POST', body: {} })).json;
}
export async function previewAllocationRule(fundId: string, percent: number) {
  return (await httpClient<{ data: RulePreview }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/allocation-rule?percent=${encodeURIComponent(String(percent))}`)).json.data;
}
export async function applyAllocationRule(fundId: string, percent: number) {
  return (await httpClient<{ data: FundRecord; message: string }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/allocation-rule`, { method: 'POST', body: { kind: 'percent_of_purchases', percent } })).json;
}
export async function reviewRequest(id: string, body: { decision: string; approved_amount?: number | null; note?: string | null }) {
  return (await httpClient<{ data: FundRequestRecord; message: string }>(`${API_URL}/fund-requests/${encodeURIComponent(id)}/review`, { method: 'POST', body })).json;
}
export async function reviewClaim(id: string, body: { decision: string; paid_amount?: number | null; reason?: string | null }) {
  return (await httpClient<{ data: FundClaimRecord; message: string }>(`${API_URL}/fund-claims/${encodeURIComponent(id)}/review`, { method: 'POST', body })).json;
}
export async function recordPayout(id: string, body: { reference: string; paid_at: string; method: string }) {
  return (await httpClient<{ data: FundClaimRecord; message: string }>(`${API_URL}/fund-claims/${encodeURIComponent(id)}/payout`, { method: 'POST', body })).json;
}

export const downloadFile = (file: FileLink) => download(file.url, file.name);
export const exportRequests = () => download(`${API_URL}/fund-requests/export`, 'fund-requests.csv');
export const exportClaims = () => download(`${API_URL}/fund-claims/export`, 'fund-claims.csv');

/**
 * A multipart POST or PUT reporting upload progress (0–100). `fetch` cannot report an upload's
 * progress, so these calls use XMLHttpRequest; a 401 refreshes the session once.
 */
export async function sendForm<T>(method: 'POST' | 'PUT', path: string, fields: Record<string, string>, files: Record<string, File[]>, onProgress: (percent: number) => void): Promise<{ data: T; message?: string }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [field, list] of Object.entries(files)) for (const file of list) form.append(field, file, file.name);
  const send = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, `${API_URL}/${path}`);
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
  if (answer.status >= 200 && answer.status < 300) return answer.body as { data: T; message?: string };
  throw new ApiError(mapErrorResponse(answer.status, answer.body), answer.body);
}

export const usd = (amount: number | null | undefined) => (amount === null || amount === undefined ? '—' : amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' }));
export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  rejected: 'Rejected',
  claimed: 'Claimed',
  released: 'Released',
  more_proof_requested: 'More proof requested',
  paid: 'Paid',
  open: 'Open',
  closed: 'Closed',
};
export const ACTIVITY_LABELS: Record<string, string> = {
  event: 'Event',
  trade_show: 'Trade show',
  digital_campaign: 'Digital campaign',
  webinar: 'Webinar',
  content_syndication: 'Content syndication',
  print: 'Print',
  other: 'Other',
};
