/** The partner programme and scorecard calls of the portal, typed by the server's contracts. */

import type { EvaluationRun, OverrideBody, Standing, StandingEvent, Tier, TierBody, TierUpdateBody } from '@contracts/programme';
import type { RankBand, Scorecard, ScorecardDetail } from '@contracts/scorecards';
import { useCallback, useEffect, useState } from 'react';
import { API_URL, httpClient } from '../providers/httpClient';

export type { EvaluationRun, Standing, StandingEvent, Tier, TierBody, Scorecard, ScorecardDetail, RankBand };
export type EvaluationSummary = Omit<EvaluationRun, 'results'>;

const get = async <T>(path: string): Promise<T> => (await httpClient<{ data: T }>(`${API_URL}${path}`)).json.data;
const send = async <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<{ message: string; data: T }> =>
  (await httpClient<{ message: string; data: T }>(`${API_URL}${path}`, { method, ...(body === undefined ? {} : { body: body as Record<string, unknown> }) }))
    .json;
const id = (value: string) => encodeURIComponent(value);

/** The ladder from its first rung up: the lowest rank first. */
export const byRank = (tiers: readonly Tier[]) => [...tiers].sort((a, b) => a.rank - b.rank);

export const listTiers = async () => (await get<{ tiers: Tier[] }>('/programme/tiers?limit=100')).tiers;
export const createTier = (body: TierBody) => send<Tier>('POST', '/programme/tiers', body);
export const updateTier = (tierId: string, body: TierUpdateBody) => send<Tier>('PUT', `/programme/tiers/${id(tierId)}`, body);

export const ownStanding = () => get<Standing>('/programme/standing');
export const standingOf = (organisationId: string) => get<Standing>(`/programme/organisations/${id(organisationId)}/standing`);
export const historyOf = async (organisationId: string) =>
  (await get<{ history: StandingEvent[] }>(`/programme/organisations/${id(organisationId)}/history`)).history;
export const setOverride = (organisationId: string, body: OverrideBody) =>
  send<Standing>('POST', `/programme/organisations/${id(organisationId)}/override`, body);
export const endOverride = (organisationId: string) => send<Standing>('DELETE', `/programme/organisations/${id(organisationId)}/override`);

export const evaluateNow = () => send<EvaluationRun>('POST', '/programme/evaluate', {});
export const listEvaluations = async () => (await get<{ evaluations: EvaluationSummary[] }>('/programme/evaluations?limit=50')).evaluations;
export const getEvaluation = (runId: string) => get<EvaluationRun>(`/programme/evaluations/${id(runId)}`);

export const scorecardOf = (organisationId: string) => get<ScorecardDetail>(`/scorecards/${id(organisationId)}`);

/** The labels of the rank bands, as a partner reads them beside its own figures. */
export const RANK_BAND_TEXT: Record<RankBand, string> = { top_10: 'Top 10 %', top_25: 'Top quarter', top_50: 'Top half', lower_half: 'Lower half' };

export const SUPPORT_PRIORITY_TEXT: Record<Tier['benefits']['support_priority'], string> = { standard: 'Standard', priority: 'Priority', premium: 'Premium' };

/** A call's answer with loading, error and reload, the way the programme screens read the server. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[] = []) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (value) => live && setData(value),
      (failure) => live && setError(failure),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps decide when to load again; `load` is a new closure each render
  }, [version, ...deps]);
  return {
    data,
    error,
    loading: data === undefined && !error,
    reload: useCallback(() => setVersion((v) => v + 1), []),
    /** A command's answer already holds the new record: show it without another call. */
    replace: setData as (value: T) => void,
  };
}
