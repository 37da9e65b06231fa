/** The market development fund calls of the portal, typed. */

import { API_URL, httpClient } from '../providers/httpClient';
import { download } from '../providers/download';
import type { Balances, FileLink, Fund, FundClaim, FundRequest, RulePreview } from '@contracts/funds';

const list = async <T>(path: string, perPage = 100): Promise<T[]> => {
  const { json } = await httpClient<T[]>(`${API_URL}/${path}${path.includes('?') ? '&' : '?'}range=${encodeURIComponent(JSON.stringify([0, perPage - 1]))}`);
  return json;
};

export const getBalance = async () => (await httpClient<{ data: Balances }>(`${API_URL}/funds/balance`)).json.data;
export const listFunds = () => list<Fund>('funds');
export const listRequests = () => list<FundRequest>('fund-requests');
export const listClaims = () => list<FundClaim>('fund-claims');

export async function createFund(body: {
  name: string;
  period_start: string;
  period_end: string;
  budget: number;
  coop_share_percent: number;
  allocations: Array<{ organisation_id: string; amount: number }>;
}) {
  return (await httpClient<{ data: Fund }>(`${API_URL}/funds`, { method: 'POST', body })).json.data;
}
export async function setAllocation(fundId: string, body: { organisation_id: string; amount: number }) {
  return (await httpClient<{ data: Fund }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/allocations`, { method: 'POST', body })).json.data;
}
export async function closeFund(fundId: string) {
  return (await httpClient<{ data: Fund; message: string }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/close`, { method: 'POST', body: {} })).json;
}
export async function previewAllocationRule(fundId: string, percent: number) {
  return (
    await httpClient<{ data: RulePreview }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/allocation-rule?percent=${encodeURIComponent(String(percent))}`)
  ).json.data;
}
export async function applyAllocationRule(fundId: string, percent: number) {
  return (
    await httpClient<{ data: Fund; message: string }>(`${API_URL}/funds/${encodeURIComponent(fundId)}/allocation-rule`, {
      method: 'POST',
      body: { kind: 'percent_of_purchases', percent },
    })
  ).json;
}
export async function reviewRequest(id: string, body: { decision: string; approved_amount?: number | null; note?: string | null }) {
  return (await httpClient<{ data: FundRequest; message: string }>(`${API_URL}/fund-requests/${encodeURIComponent(id)}/review`, { method: 'POST', body })).json;
}
export async function reviewClaim(id: string, body: { decision: string; paid_amount?: number | null; reason?: string | null }) {
  return (await httpClient<{ data: FundClaim; message: string }>(`${API_URL}/fund-claims/${encodeURIComponent(id)}/review`, { method: 'POST', body })).json;
}
export async function recordPayout(id: string, body: { reference: string; paid_at: string; method: string }) {
  return (await httpClient<{ data: FundClaim; message: string }>(`${API_URL}/fund-claims/${encodeURIComponent(id)}/payout`, { method: 'POST', body })).json;
}

export const downloadFile = (file: FileLink) => download(file.url, file.name);
export const exportRequests = () => download(`${API_URL}/fund-requests/export`, 'fund-requests.csv');
export const exportClaims = () => download(`${API_URL}/fund-claims/export`, 'fund-claims.csv');

export const usd = (amount: number | null | undefined) =>
  amount === null || amount === undefined ? '—' : amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
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
