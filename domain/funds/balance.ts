/**
 * The one definition of an organisation's fund balance, used by the fund's decider (to refuse a
 * reservation beyond it), the balance route and the dashboards' funds cards.
 *
 * The figures partition the money: `reserved` is approved requests' money not yet claimed,
 * `claimed` is approved claims awaiting payout, `paid` is paid out, `expired` is what was left
 * unspent when the fund period closed (and what a reservation gave back after the close). What an
 * organisation may still request is what it was given (allocation and co-op accrual) less all four.
 */
export interface FundFigures {
  allocatedCents: number;
  accruedCents: number;
  reservedCents: number;
  claimedCents: number;
  paidCents: number;
  expiredCents: number;
}

export interface FundBalance extends FundFigures {
  availableCents: number;
}

export const NO_FIGURES: FundFigures = { allocatedCents: 0, accruedCents: 0, reservedCents: 0, claimedCents: 0, paidCents: 0, expiredCents: 0 };

export function fundBalance(figures: FundFigures): FundBalance {
  return {
    ...figures,
    availableCents: figures.allocatedCents + figures.accruedCents - figures.reservedCents - figures.claimedCents - figures.paidCents - figures.expiredCents,
  };
}

/** Several funds' balances added up (the total of `/api/funds/balance`, a dashboard card). */
export function totalBalance(balances: readonly FundFigures[]): FundBalance {
  const sum = (key: keyof FundFigures) => balances.reduce((total, b) => total + b[key], 0);
  return fundBalance({
    allocatedCents: sum('allocatedCents'),
    accruedCents: sum('accruedCents'),
    reservedCents: sum('reservedCents'),
    claimedCents: sum('claimedCents'),
    paidCents: sum('paidCents'),
    expiredCents: sum('expiredCents'),
  });
}

/** Co-op accrual: the fund's share (in basis points, 1/100 of a percent) of one delivered order, rounded down to the cent. */
export const coopAccrualCents = (orderValueCents: number, shareBasisPoints: number) => Math.floor((orderValueCents * shareBasisPoints) / 10_000);
