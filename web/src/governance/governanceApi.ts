import { useCallback, useEffect, useState } from 'react';
import { API_URL, httpClient } from '../providers/httpClient';

/** GET /governance: the organisation's agreement, orders, account team and rebate programme. */
export interface Governance {
  organisation_id: string;
  company_name: string;
  agreement: {
    status: string;
    kind: string;
    tier: string | null;
    category: string | null;
    region: string | null;
    applied_on: string | null;
    approved_on: string | null;
    term_start: string | null;
    renewal_date: string | null;
    days_to_renewal: number | null;
    certificate: string | null;
  };
  orders: {
    counts: Record<string, number>;
    total_value: number;
    recent: Array<{ id: string; order_number: string; status: string; display_status: string; total_amount: number; item_count: number; created_at: string; estimated_delivery: string | null; delivered_at: string | null }>;
  };
  account_team: {
    members: Array<{ id: string; full_name: string; email: string; role: string; is_owner: boolean; status: string; joined_on: string | null }>;
    partner_manager: { full_name: string; email: string } | null;
    support: { phone: string; email: string; hours: string } | null;
  };
  /** Null for those without permission to read rebates. */
  rebate_programme: null | {
    year: number;
    annual_target: number;
    annual_purchases: number;
    annual_rebates: number;
    annual_percentage: number;
    current_tier: string;
    current_rate_percent: number;
    pending_claims: number;
    pending_purchase_amount: number;
    quarters: Array<{ label: string; start: string; end: string; target_tier: string; target: number; purchases: number; rebates: number; percentage: number; reached_tier: string; status: string }>;
    ladder: Array<{ name: string; quarterly_purchases: number; rate_percent: number }>;
  };
}

export function useGovernance() {
  const [data, setData] = useState<Governance | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    httpClient<{ data: Governance }>(`${API_URL}/governance`).then(
      ({ json }) => live && setData(json.data),
      (failure) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [version]);
  return { data, error, reload: useCallback(() => setVersion((v) => v + 1), []) };
}
