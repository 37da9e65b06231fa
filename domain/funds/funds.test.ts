import { describe, expect, it } from 'vitest';
import { fold } from '../decider';
import { deciderSpec } from '../deciderSpec';
import { previousPeriod, ruleAllocations, ruleAmountCents } from './allocationRule';
import { coopAccrualCents, fundBalance, totalBalance } from './balance';
import { fundClaims, type FundClaimCommand, type FundClaimEvent } from './claims';
import { FUND_MESSAGES, funds, organisationBalance, type FundCommand, type FundEvent } from './funds';
import { claimDeadlineOf, fundRequests, type FundRequestCommand, type FundRequestEvent } from './requests';

const admin = { actorId: 'admin-1', actorRole: 'admin' };
const partner = { actorId: 'user-1', actorRole: 'partner' };
const now = '2026-11-21T10:00:00.000Z';

describe('funds', () => {
  const spec = deciderSpec(funds);
  const definition = { name: 'FY27 H1', periodStart: '2026-10-01', periodEnd: '2027-03-31', budgetCents: 100_000_00, coopShareBasisPoints: 200 };
  const create = (overrides: Partial<Extract<FundCommand, { type: 'CreateFund' }>> = {}): FundCommand => ({
    type: 'CreateFund',
    fundId: 'f-1',
    ...definition,
    allocations: [
      { organisationId: 'org-1', amountCents: 10_000_00 },
      { organisationId: 'org-2', amountCents: 5_000_00 },
    ],
    ...overrides,
  });
  const created: FundEvent = {
    type: 'FundCreated.v1',
    data: {
      fundId: 'f-1',
      ...definition,
      allocations: [
        { organisationId: 'org-1', amountCents: 10_000_00 },
        { organisationId: 'org-2', amountCents: 5_000_00 },
      ],
      status: 'open',
      previousStatus: null,
    },
  };
  const reserved = (requestId: string, amountCents: number): FundEvent => ({
    type: 'FundReserved.v1',
    data: { fundId: 'f-1', requestId, organisationId: 'org-1', amountCents },
  });
  const reserve = (requestId: string, amountCents: number, accruedCents = 0): FundCommand => ({
    type: 'ReserveFunds',
    requestId,
    organisationId: 'org-1',
    amountCents,
    accruedCents,
  });

  describe('CreateFund', () => {
    it('creates a fund with its allocations', () =>
      spec
        .given([])
        .when(create({ name: ' FY27 H1 ' }), admin)
        .then([created]));
    it('is for administrators', () => spec.given([]).when(create(), partner).thenThrows(FUND_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS'));
    it('refuses allocations above the budget', () =>
      spec
        .given([])
        .when(create({ budgetCents: 1_000_00 }), admin)
        .thenThrows(FUND_MESSAGES.allocationsAboveBudget));
    it('refuses an organisation allocated twice', () =>
      spec
        .given([])
        .when(
          create({
            allocations: [
              { organisationId: 'org-1', amountCents: 1 },
              { organisationId: 'org-1', amountCents: 2 },
            ],
          }),
          admin,
        )
        .thenThrows(FUND_MESSAGES.allocationTwice));
    it('refuses a period ending before it starts', () =>
      spec
        .given([])
        .when(create({ periodEnd: '2026-09-30' }), admin)
        .thenThrows(FUND_MESSAGES.periodInvalid));
    it('refuses a share above 100%', () =>
      spec
        .given([])
        .when(create({ coopShareBasisPoints: 10_001 }), admin)
        .thenThrows(FUND_MESSAGES.shareInvalid));
    it('refuses a second creation', () => spec.given([created]).when(create(), admin).thenThrows(FUND_MESSAGES.exists));
  });

  describe('UpdateFund and SetAllocation', () => {
    it('updates the definition', () =>
      spec
        .given([created])
        .when({ type: 'UpdateFund', ...definition, name: 'Renamed' }, admin)
        .then([{ type: 'FundUpdated.v1', data: { fundId: 'f-1', ...definition, name: 'Renamed' } }]));
    it('refuses a budget below the allocations', () =>
      spec
        .given([created])
        .when({ type: 'UpdateFund', ...definition, budgetCents: 100 }, admin)
        .thenThrows(FUND_MESSAGES.allocationsAboveBudget));
    it('sets an allocation', () =>
      spec
        .given([created])
        .when({ type: 'SetAllocation', organisationId: 'org-3', amountCents: 700_00 }, admin)
        .then([{ type: 'FundAllocationSet.v1', data: { fundId: 'f-1', organisationId: 'org-3', amountCents: 700_00 } }]));
    it('refuses an allocation below what the organisation already holds', () =>
      spec
        .given([created, reserved('q-1', 4_000_00)])
        .when({ type: 'SetAllocation', organisationId: 'org-1', amountCents: 3_000_00 }, admin)
        .thenThrows('$4,000.00 reserved'));
    it('refuses an allocation for a fund that does not exist', () =>
      spec.given([]).when({ type: 'SetAllocation', organisationId: 'org-1', amountCents: 1 }, admin).thenThrows(FUND_MESSAGES.notFound));
  });

  describe('ReserveFunds', () => {
    it('reserves within the available balance', () =>
      spec
        .given([created])
        .when(reserve('q-1', 10_000_00))
        .then([reserved('q-1', 10_000_00)]));
    it('counts the co-op accrual as available', () =>
      spec
        .given([created])
        .when(reserve('q-1', 10_200_00, 200_00))
        .then([reserved('q-1', 10_200_00)]));
    it('refuses more than the available balance', () =>
      spec
        .given([created, reserved('q-1', 9_000_00)])
        .when(reserve('q-2', 1_000_01))
        .thenThrows('Only $1,000.00 is available', 'INSUFFICIENT_FUNDS'));
    it('approval race: of two approvals for the last dollars, the one decided on the fresh state is refused', () => {
      // Both approvals read the fund with $10,000 available; the first appends, the second's append fails on the revision and is decided again on the fresh state.
      expect(funds.decide(reserve('q-1', 8_000_00), fold(funds, [created]), { now, ...admin, correlationId: 'c', causationId: null })).toEqual([
        reserved('q-1', 8_000_00),
      ]);
      spec
        .given([created, reserved('q-1', 8_000_00)])
        .when(reserve('q-2', 8_000_00))
        .thenThrows('Only $2,000.00 is available', 'INSUFFICIENT_FUNDS');
    });
    it('reserving the same request again changes nothing', () =>
      spec
        .given([created, reserved('q-1', 1_00)])
        .when(reserve('q-1', 1_00))
        .then([]));
    it('refuses a zero amount', () => spec.given([created]).when(reserve('q-1', 0)).thenThrows(FUND_MESSAGES.amountInvalid));
  });

  describe('claims against the fund, payouts and releases', () => {
    const claimApproved: FundEvent = {
      type: 'FundReservationClaimed.v1',
      data: { fundId: 'f-1', requestId: 'q-1', claimId: 'c-1', organisationId: 'org-1', amountCents: 3_000_00, releasedCents: 1_000_00 },
    };
    const paid: FundEvent = { type: 'FundPaid.v1', data: { fundId: 'f-1', requestId: 'q-1', claimId: 'c-1', organisationId: 'org-1', amountCents: 3_000_00 } };
    it('moves the approved claim from reserved to claimed and releases the rest', () =>
      spec
        .given([created, reserved('q-1', 4_000_00)])
        .when({ type: 'ApproveClaimAgainstFund', requestId: 'q-1', claimId: 'c-1', amountCents: 3_000_00 })
        .then([claimApproved]));
    it('refuses a claim above the reservation', () =>
      spec
        .given([created, reserved('q-1', 4_000_00)])
        .when({ type: 'ApproveClaimAgainstFund', requestId: 'q-1', claimId: 'c-1', amountCents: 4_000_01 })
        .thenThrows(FUND_MESSAGES.claimAboveReserved));
    it('refuses a claim with no reservation', () =>
      spec
        .given([created])
        .when({ type: 'ApproveClaimAgainstFund', requestId: 'q-1', claimId: 'c-1', amountCents: 1 })
        .thenThrows(FUND_MESSAGES.noReservation, 'NO_RESERVATION'));
    it('pays the claimed amount', () =>
      spec
        .given([created, reserved('q-1', 4_000_00), claimApproved])
        .when({ type: 'PayClaimFromFund', requestId: 'q-1', claimId: 'c-1' })
        .then([paid]));
    it('paying twice changes nothing the second time', () =>
      spec
        .given([created, reserved('q-1', 4_000_00), claimApproved, paid])
        .when({ type: 'PayClaimFromFund', requestId: 'q-1', claimId: 'c-1' })
        .then([]));
    it('refuses to pay what was never claimed', () =>
      spec
        .given([created, reserved('q-1', 4_000_00)])
        .when({ type: 'PayClaimFromFund', requestId: 'q-1', claimId: 'c-1' })
        .thenThrows(FUND_MESSAGES.notClaimed));
    const released: FundEvent = {
      type: 'FundReservationReleased.v1',
      data: { fundId: 'f-1', requestId: 'q-1', organisationId: 'org-1', amountCents: 4_000_00, reason: 'deadline' },
    };
    it('releases an unclaimed reservation', () =>
      spec
        .given([created, reserved('q-1', 4_000_00)])
        .when({ type: 'ReleaseReservation', requestId: 'q-1', reason: 'deadline' })
        .then([released]));
    it('releases once: a second release changes nothing', () =>
      spec
        .given([created, reserved('q-1', 4_000_00), released])
        .when({ type: 'ReleaseReservation', requestId: 'q-1', reason: 'deadline' })
        .then([]));
    it('does not release a claimed reservation', () =>
      spec
        .given([created, reserved('q-1', 4_000_00), claimApproved])
        .when({ type: 'ReleaseReservation', requestId: 'q-1', reason: 'deadline' })
        .then([]));
    it('keeps the balance partitioned at every step', () => {
      const figures = (events: FundEvent[]) => organisationBalance(fold(funds, events), 'org-1', 50_00);
      expect(figures([created, reserved('q-1', 4_000_00)])).toEqual({
        allocatedCents: 10_000_00,
        accruedCents: 50_00,
        reservedCents: 4_000_00,
        claimedCents: 0,
        paidCents: 0,
        expiredCents: 0,
        availableCents: 6_050_00,
      });
      expect(figures([created, reserved('q-1', 4_000_00), claimApproved])).toMatchObject({
        reservedCents: 0,
        claimedCents: 3_000_00,
        availableCents: 7_050_00,
      });
      expect(figures([created, reserved('q-1', 4_000_00), claimApproved, paid])).toMatchObject({
        claimedCents: 0,
        paidCents: 3_000_00,
        availableCents: 7_050_00,
      });
      expect(figures([created, reserved('q-1', 4_000_00), released])).toMatchObject({ reservedCents: 0, availableCents: 10_050_00 });
    });
  });

  describe('balance', () => {
    it('available is what was given less what is held, claimed and paid', () =>
      expect(fundBalance({ allocatedCents: 100, accruedCents: 10, reservedCents: 20, claimedCents: 30, paidCents: 40, expiredCents: 0 }).availableCents).toBe(
        20,
      ));
    it('what expired is not available', () =>
      expect(fundBalance({ allocatedCents: 100, accruedCents: 10, reservedCents: 20, claimedCents: 0, paidCents: 0, expiredCents: 90 }).availableCents).toBe(
        0,
      ));
    it('totals add every figure', () =>
      expect(
        totalBalance([
          { allocatedCents: 100, accruedCents: 1, reservedCents: 2, claimedCents: 3, paidCents: 4, expiredCents: 0 },
          { allocatedCents: 50, accruedCents: 0, reservedCents: 0, claimedCents: 0, paidCents: 50, expiredCents: 0 },
        ]),
      ).toEqual({
        allocatedCents: 150,
        accruedCents: 1,
        reservedCents: 2,
        claimedCents: 3,
        paidCents: 54,
        expiredCents: 0,
        availableCents: 92,
      }));
    it('accrual is the share of the order, rounded down to the cent', () => expect(coopAccrualCents(12_345_67, 250)).toBe(308_64));
  });
});

describe('fund requests', () => {
  const spec = deciderSpec(fundRequests);
  const plan = {
    activityType: 'webinar',
    title: 'Zero-trust webinar',
    description: 'Two sessions with a demo',
    startDate: '2026-11-02',
    endDate: '2026-11-10',
    plannedCostCents: 5_000_00,
    requestedAmountCents: 2_500_00,
    expectedLeads: 40,
  };
  const fund = { availableCents: 3_000_00, open: true, periodStart: '2026-10-01', periodEnd: '2027-03-31' };
  const ids = { requestId: 'q-1', fundId: 'f-1', organisationId: 'org-1' };
  const submit = (overrides: Partial<Extract<FundRequestCommand, { type: 'SubmitFundRequest' }>> = {}): FundRequestCommand => ({
    type: 'SubmitFundRequest',
    ...ids,
    companyName: 'Northwind',
    submittedBy: 'user-1',
    ...plan,
    attachments: [],
    fund,
    ...overrides,
  });
  const submitted: FundRequestEvent = {
    type: 'FundRequestSubmitted.v1',
    data: { ...ids, companyName: 'Northwind', submittedBy: 'user-1', submittedAt: now, ...plan, attachments: [], status: 'pending', previousStatus: null },
  };
  const review = (decision: string, approvedAmountCents: number | null = null, note: string | null = null): FundRequestCommand => ({
    type: 'ReviewFundRequest',
    decision,
    approvedAmountCents,
    note,
    claimWindowDays: 60,
  });
  const approved: FundRequestEvent = {
    type: 'FundRequestApproved.v1',
    data: {
      ...ids,
      approvedAmountCents: 2_000_00,
      claimDeadline: '2027-01-09',
      note: 'Less travel',
      status: 'approved',
      previousStatus: 'pending',
      reason: 'Less travel',
    },
  };
  const changes: FundRequestEvent = {
    type: 'FundRequestChangesRequested.v1',
    data: { ...ids, status: 'changes_requested', previousStatus: 'pending', reason: 'Add the quote' },
  };

  it('submits a request', () =>
    spec
      .given([])
      .when(submit({ title: ' Zero-trust webinar ' }), partner)
      .then([submitted]));
  it('refuses a request above the available balance', () =>
    spec
      .given([])
      .when(submit({ fund: { ...fund, availableCents: 2_000_00 } }), partner)
      .thenThrows('more than your available balance ($2,000.00)', 'INSUFFICIENT_FUNDS'));
  it('refuses a request above the planned cost', () =>
    spec
      .given([])
      .when(submit({ requestedAmountCents: 5_000_01 }), partner)
      .thenThrows('more than the planned cost'));
  it('refuses an unknown activity type', () =>
    spec
      .given([])
      .when(submit({ activityType: 'party' }), partner)
      .thenThrows('Activity type must be one of'));
  it('refuses an activity outside the fund period', () =>
    spec
      .given([])
      .when(submit({ startDate: '2027-04-01', endDate: '2027-04-02' }), partner)
      .thenThrows('within the fund’s period'));
  it('refuses a closed fund', () =>
    spec
      .given([])
      .when(submit({ fund: { ...fund, open: false } }), partner)
      .thenThrows('not open', 'FUND_CLOSED'));
  it('approves a lower amount with a claim deadline 60 days after the end', () => {
    expect(claimDeadlineOf('2026-11-10', 60)).toBe('2027-01-09');
    spec
      .given([submitted])
      .when(review('approved', 2_000_00, ' Less travel '), admin)
      .then([approved]);
  });
  it('refuses approving more than requested', () =>
    spec.given([submitted]).when(review('approved', 2_500_01), admin).thenThrows('more than the requested amount'));
  it('refuses a review by a partner', () =>
    spec.given([submitted]).when(review('approved', 1), partner).thenThrows('Only administrators', 'INSUFFICIENT_PERMISSIONS'));
  it('rejects with a reason', () =>
    spec
      .given([submitted])
      .when(review('rejected', null, 'Out of scope'), admin)
      .then([{ type: 'FundRequestRejected.v1', data: { ...ids, status: 'rejected', previousStatus: 'pending', reason: 'Out of scope' } }]));
  it('refuses a rejection without a reason', () => spec.given([submitted]).when(review('rejected'), admin).thenThrows('Please give a reason.'));
  it('asks for changes, and the partner resubmits', () => {
    spec
      .given([submitted])
      .when(review('changes_requested', null, 'Add the quote'), admin)
      .then([changes]);
    spec
      .given([submitted, changes])
      .when({ type: 'ResubmitFundRequest', actorOrganisationId: 'org-1', ...plan, requestedAmountCents: 2_000_00, attachments: [], fund }, partner)
      .then([
        {
          type: 'FundRequestResubmitted.v1',
          data: { ...ids, ...plan, requestedAmountCents: 2_000_00, attachments: [], status: 'pending', previousStatus: 'changes_requested', reason: null },
        },
      ]);
  });
  it('refuses an edit unless changes are requested', () =>
    spec
      .given([submitted])
      .when({ type: 'ResubmitFundRequest', actorOrganisationId: 'org-1', ...plan, attachments: [], fund }, partner)
      .thenThrows('only while changes are requested'));
  it("refuses another organisation's edit as not found", () =>
    spec
      .given([submitted, changes])
      .when({ type: 'ResubmitFundRequest', actorOrganisationId: 'org-2', ...plan, attachments: [], fund }, partner)
      .thenThrows('Fund request not found.'));
  it('refuses a second review', () => spec.given([submitted, approved]).when(review('approved', 1), admin).thenThrows('cannot be reviewed'));
  const claimed: FundRequestEvent = {
    type: 'FundRequestClaimed.v1',
    data: { ...ids, claimId: 'c-1', status: 'claimed', previousStatus: 'approved', reason: null },
  };
  it('is marked claimed by its claim', () =>
    spec.given([submitted, approved]).when({ type: 'MarkFundRequestClaimed', claimId: 'c-1' }, { now: '2027-01-09T23:00:00.000Z' }).then([claimed]));
  it('refuses a second claim', () =>
    spec.given([submitted, approved, claimed]).when({ type: 'MarkFundRequestClaimed', claimId: 'c-2' }).thenThrows('already been claimed'));
  it('refuses a claim after the deadline', () =>
    spec
      .given([submitted, approved])
      .when({ type: 'MarkFundRequestClaimed', claimId: 'c-1' }, { now: '2027-01-10T00:00:00.000Z' })
      .thenThrows('deadline', 'CLAIM_DEADLINE_PASSED'));
  const released: FundRequestEvent = {
    type: 'FundRequestReleased.v1',
    data: { ...ids, amountCents: 2_000_00, claimDeadline: '2027-01-09', status: 'released', previousStatus: 'approved', reason: 'No claim by 2027-01-09' },
  };
  it('is released once its deadline has passed', () =>
    spec.given([submitted, approved]).when({ type: 'ReleaseFundRequest' }, { now: '2027-01-10T00:00:00.000Z' }).then([released]));
  it('is not released before its deadline', () =>
    spec
      .given([submitted, approved])
      .when({ type: 'ReleaseFundRequest' }, { now: '2027-01-09T23:59:59.000Z' })
      .thenThrows('has not passed', 'DEADLINE_NOT_REACHED'));
  it('release happens once: released or claimed requests are left alone', () => {
    spec.given([submitted, approved, released]).when({ type: 'ReleaseFundRequest' }, { now: '2027-02-01T00:00:00.000Z' }).then([]);
    spec.given([submitted, approved, claimed]).when({ type: 'ReleaseFundRequest' }, { now: '2027-02-01T00:00:00.000Z' }).then([]);
  });
  const reminder = (daysBefore: number): FundRequestEvent => ({
    type: 'FundClaimReminderSent.v1',
    data: { ...ids, title: 'Zero-trust webinar', daysBefore, claimDeadline: '2027-01-09' },
  });
  it('reminds 14 days before the deadline passes, once', () => {
    spec
      .given([submitted, approved])
      .when({ type: 'SendClaimReminder', daysBefore: 14 }, { now: '2026-12-27T00:00:00.000Z' })
      .then([reminder(14)]);
    spec
      .given([submitted, approved, reminder(14)])
      .when({ type: 'SendClaimReminder', daysBefore: 14 }, { now: '2026-12-28T00:00:00.000Z' })
      .then([]);
  });
  it('does not remind early, nor once the request is claimed', () => {
    spec
      .given([submitted, approved])
      .when({ type: 'SendClaimReminder', daysBefore: 3 }, { now: '2027-01-06T23:59:59.000Z' })
      .thenThrows('not due', 'REMINDER_NOT_DUE');
    spec.given([submitted, approved, claimed]).when({ type: 'SendClaimReminder', daysBefore: 3 }, { now: '2027-01-07T00:00:00.000Z' }).then([]);
  });
  it('refuses a claim of a released request', () =>
    spec.given([submitted, approved, released]).when({ type: 'MarkFundRequestClaimed', claimId: 'c-1' }).thenThrows('released', 'CLAIM_DEADLINE_PASSED'));
});

describe('fund claims', () => {
  const spec = deciderSpec(fundClaims);
  const ids = { claimId: 'c-1', requestId: 'q-1', fundId: 'f-1', organisationId: 'org-1' };
  const proof = [{ file: '0b9c1a52-6a55-4c44-9a61-0f0a0e0f0a01.pdf', name: 'invoice.pdf', type: 'pdf', size: 1200 }];
  const request = { status: 'approved', approvedAmountCents: 2_000_00, endDate: '2026-11-10', claimDeadline: '2027-01-09' };
  const submit = (overrides: Partial<Extract<FundClaimCommand, { type: 'SubmitFundClaim' }>> = {}): FundClaimCommand => ({
    type: 'SubmitFundClaim',
    ...ids,
    companyName: 'Northwind',
    submittedBy: 'user-1',
    actualCostCents: 4_800_00,
    claimedAmountCents: 2_000_00,
    leadsGenerated: 52,
    proof,
    request,
    ...overrides,
  });
  const submitted: FundClaimEvent = {
    type: 'FundClaimSubmitted.v1',
    data: {
      ...ids,
      companyName: 'Northwind',
      submittedBy: 'user-1',
      submittedAt: now,
      actualCostCents: 4_800_00,
      claimedAmountCents: 2_000_00,
      leadsGenerated: 52,
      approvedAmountCents: 2_000_00,
      proof,
      status: 'pending',
      previousStatus: null,
    },
  };
  const review = (decision: string, paidAmountCents: number | null = null, reason: string | null = null): FundClaimCommand => ({
    type: 'ReviewFundClaim',
    decision,
    paidAmountCents,
    reason,
  });
  const approved: FundClaimEvent = {
    type: 'FundClaimApproved.v1',
    data: { ...ids, paidAmountCents: 1_900_00, status: 'approved', previousStatus: 'pending', reason: null },
  };
  const payout: FundClaimCommand = { type: 'RecordFundPayout', reference: 'PAY-1', paidAt: '2026-11-25', method: 'bank_transfer' };
  const paid: FundClaimEvent = {
    type: 'FundClaimPaid.v1',
    data: {
      ...ids,
      amountCents: 1_900_00,
      reference: 'PAY-1',
      paidAt: '2026-11-25',
      method: 'bank_transfer',
      status: 'paid',
      previousStatus: 'approved',
      reason: null,
    },
  };

  it('submits a claim with proof', () => spec.given([]).when(submit(), partner).then([submitted]));
  it('refuses a claim above the approved amount', () =>
    spec
      .given([])
      .when(submit({ claimedAmountCents: 2_000_01 }), partner)
      .thenThrows('more than the approved amount'));
  it('refuses a claim above the actual cost', () =>
    spec
      .given([])
      .when(submit({ actualCostCents: 1_000_00 }), partner)
      .thenThrows('more than the actual cost'));
  it('refuses a claim after the deadline', () =>
    spec
      .given([])
      .when(submit(), { ...partner, now: '2027-01-10T08:00:00.000Z' })
      .thenThrows('The claim deadline (2027-01-09) has passed.', 'CLAIM_DEADLINE_PASSED'));
  it('refuses a claim before the activity ends', () =>
    spec
      .given([])
      .when(submit(), { ...partner, now: '2026-11-09T08:00:00.000Z' })
      .thenThrows('once the activity has ended', 'ACTIVITY_NOT_ENDED'));
  it('refuses a claim of a request that is not approved', () =>
    spec
      .given([])
      .when(submit({ request: { ...request, status: 'pending' } }), partner)
      .thenThrows('Only an approved', 'NOT_APPROVED'));
  it('refuses a claim without proof', () =>
    spec
      .given([])
      .when(submit({ proof: [] }), partner)
      .thenThrows('Attach at least one proof'));
  it('approves a paid amount up to the claimed amount', () => spec.given([submitted]).when(review('approved', 1_900_00), admin).then([approved]));
  it('refuses a paid amount above the claimed amount', () =>
    spec.given([submitted]).when(review('approved', 2_000_01), admin).thenThrows('more than the claimed amount'));
  it('rejects with a reason, and refuses a rejection without one', () => {
    spec
      .given([submitted])
      .when(review('rejected', null, 'No invoice'), admin)
      .then([{ type: 'FundClaimRejected.v1', data: { ...ids, status: 'rejected', previousStatus: 'pending', reason: 'No invoice' } }]);
    spec.given([submitted]).when(review('rejected'), admin).thenThrows('Please give a reason.');
  });
  it('asks for more proof, and the partner adds it', () => {
    const more: FundClaimEvent = {
      type: 'FundClaimMoreProofRequested.v1',
      data: { ...ids, status: 'more_proof_requested', previousStatus: 'pending', reason: 'Attendee list' },
    };
    spec
      .given([submitted])
      .when(review('more_proof_requested', null, 'Attendee list'), admin)
      .then([more]);
    spec
      .given([submitted, more])
      .when({ type: 'AddFundClaimProof', actorOrganisationId: 'org-1', proof }, partner)
      .then([{ type: 'FundClaimProofAdded.v1', data: { ...ids, proof, status: 'pending', previousStatus: 'more_proof_requested', reason: null } }]);
  });
  it('refuses adding proof unless more is requested', () =>
    spec.given([submitted]).when({ type: 'AddFundClaimProof', actorOrganisationId: 'org-1', proof }, partner).thenThrows('only while more proof'));
  it('refuses a review by a partner', () => spec.given([submitted]).when(review('approved', 1), partner).thenThrows('Only administrators'));
  it('records the payout', () => spec.given([submitted, approved]).when(payout, admin).then([paid]));
  it('refuses a payout twice', () => spec.given([submitted, approved, paid]).when(payout, admin).thenThrows('already been paid', 'ALREADY_PAID'));
  it('refuses a payout of a claim not approved', () => spec.given([submitted]).when(payout, admin).thenThrows('Only an approved claim', 'NOT_APPROVED'));
  it('refuses a payout without a reference or with an unknown method', () => {
    spec
      .given([submitted, approved])
      .when({ ...payout, reference: ' ' }, admin)
      .thenThrows('reference is required');
    spec
      .given([submitted, approved])
      .when({ ...payout, method: 'cash' }, admin)
      .thenThrows('Payout method must be one of');
  });
});

describe('closing a fund period', () => {
  const spec = deciderSpec(funds);
  const definition = { name: 'FY27 H1', periodStart: '2026-10-01', periodEnd: '2027-03-31', budgetCents: 100_000_00, coopShareBasisPoints: 200 };
  const created: FundEvent = {
    type: 'FundCreated.v1',
    data: {
      fundId: 'f-1',
      ...definition,
      allocations: [
        { organisationId: 'org-1', amountCents: 10_000_00 },
        { organisationId: 'org-2', amountCents: 5_000_00 },
      ],
      status: 'open',
      previousStatus: null,
    },
  };
  const reserved: FundEvent = { type: 'FundReserved.v1', data: { fundId: 'f-1', requestId: 'q-1', organisationId: 'org-1', amountCents: 4_000_00 } };
  const paidOrg2: FundEvent[] = [
    { type: 'FundReserved.v1', data: { fundId: 'f-1', requestId: 'q-2', organisationId: 'org-2', amountCents: 5_000_00 } },
    {
      type: 'FundReservationClaimed.v1',
      data: { fundId: 'f-1', requestId: 'q-2', claimId: 'c-2', organisationId: 'org-2', amountCents: 5_000_00, releasedCents: 0 },
    },
  ];
  const afterEnd = { ...admin, actorId: 'system', actorRole: 'system', now: '2027-04-01T00:00:00.000Z' };
  const close = (reason: 'period_end' | 'manual', accruedCents: Record<string, number> = {}): FundCommand => ({
    type: 'CloseFundPeriod',
    reason,
    accruedCents,
  });
  const closed = (reason: 'period_end' | 'manual', expiredCents: number, closedAt = afterEnd.now): FundEvent => ({
    type: 'FundPeriodClosed.v1',
    data: { fundId: 'f-1', reason, periodEnd: '2027-03-31', closedAt, expiredCents, status: 'closed', previousStatus: 'open' },
  });
  const expired = (organisationId: string, amountCents: number, requestId: string | null = null): FundEvent => ({
    type: 'FundAllocationExpired.v1',
    data: { fundId: 'f-1', organisationId, amountCents, reason: requestId ? 'released_after_close' : 'period_closed', requestId },
  });

  it('at the period end, each organisation’s available balance (co-op accrual included) expires; what is reserved stays', () =>
    spec
      .given([created, reserved, ...paidOrg2])
      .when(close('period_end', { 'org-1': 150_00 }), afterEnd)
      .then([closed('period_end', 6_150_00), expired('org-1', 6_150_00)]));
  it('is refused before the day after the period’s last day', () =>
    spec
      .given([created])
      .when(close('period_end'), { ...afterEnd, now: '2027-03-31T23:59:59.000Z' })
      .thenThrows(FUND_MESSAGES.periodNotEnded('2027-03-31'), 'PERIOD_NOT_ENDED'));
  it('a second close is refused, so the expiry is recorded once', () =>
    spec
      .given([created, closed('period_end', 15_000_00), expired('org-1', 10_000_00), expired('org-2', 5_000_00)])
      .when(close('period_end'), afterEnd)
      .thenThrows(FUND_MESSAGES.alreadyClosed, 'FUND_CLOSED'));
  it('administrators may close early; partners may not', () => {
    spec
      .given([created])
      .when(close('manual'), admin)
      .then([closed('manual', 15_000_00, now), expired('org-1', 10_000_00), expired('org-2', 5_000_00)]);
    spec.given([created]).when(close('manual'), partner).thenThrows(FUND_MESSAGES.onlyAdmins);
  });
  it('after the close: nothing available, no new reservation, no allocation change', () => {
    const after = [created, reserved, closed('period_end', 6_000_00), expired('org-1', 6_000_00), expired('org-2', 5_000_00)];
    expect(organisationBalance(fold(funds, after), 'org-1')).toMatchObject({ reservedCents: 4_000_00, expiredCents: 6_000_00, availableCents: 0 });
    spec
      .given(after)
      .when({ type: 'ReserveFunds', requestId: 'q-9', organisationId: 'org-1', amountCents: 1, accruedCents: 0 })
      .thenThrows(FUND_MESSAGES.closed, 'FUND_CLOSED');
    spec.given(after).when({ type: 'SetAllocation', organisationId: 'org-1', amountCents: 20_000_00 }, admin).thenThrows(FUND_MESSAGES.closed, 'FUND_CLOSED');
  });
  it('an approved reservation stays claimable; what it gives back after the close expires too', () => {
    const after = [created, reserved, closed('period_end', 6_000_00), expired('org-1', 6_000_00), expired('org-2', 5_000_00)];
    spec
      .given(after)
      .when({ type: 'ApproveClaimAgainstFund', requestId: 'q-1', claimId: 'c-1', amountCents: 3_000_00 })
      .then([
        {
          type: 'FundReservationClaimed.v1',
          data: { fundId: 'f-1', requestId: 'q-1', claimId: 'c-1', organisationId: 'org-1', amountCents: 3_000_00, releasedCents: 1_000_00 },
        },
        expired('org-1', 1_000_00, 'q-1'),
      ]);
    const released: FundEvent = {
      type: 'FundReservationReleased.v1',
      data: { fundId: 'f-1', requestId: 'q-1', organisationId: 'org-1', amountCents: 4_000_00, reason: 'deadline' },
    };
    spec
      .given(after)
      .when({ type: 'ReleaseReservation', requestId: 'q-1', reason: 'deadline' })
      .then([released, expired('org-1', 4_000_00, 'q-1')]);
    expect(organisationBalance(fold(funds, [...after, released, expired('org-1', 4_000_00, 'q-1')]), 'org-1')).toMatchObject({
      expiredCents: 10_000_00,
      availableCents: 0,
    });
  });
});

describe('allocations by a rule', () => {
  const spec = deciderSpec(funds);
  const definition = { name: 'FY27 Q1', periodStart: '2027-01-01', periodEnd: '2027-03-31', budgetCents: 10_000_00, coopShareBasisPoints: 0 };
  const created: FundEvent = {
    type: 'FundCreated.v1',
    data: { fundId: 'f-1', ...definition, allocations: [{ organisationId: 'org-3', amountCents: 1_000_00 }], status: 'open', previousStatus: null },
  };
  const purchases = [
    { organisationId: 'org-1', purchasesCents: 50_000_33 },
    { organisationId: 'org-2', purchasesCents: 20_000_00 },
    { organisationId: 'org-4', purchasesCents: 0 },
  ];
  const byRule = (percentBasisPoints: number, measured = previousPeriod(definition.periodStart, definition.periodEnd)): FundCommand => ({
    type: 'SetAllocationsByRule',
    percentBasisPoints,
    measuredFrom: measured.from,
    measuredTo: measured.to,
    purchases,
  });

  it('measures the previous period of the same length', () => {
    expect(previousPeriod('2027-01-01', '2027-03-31')).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(previousPeriod('2026-01-01', '2026-12-31')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(previousPeriod('2026-11-15', '2026-11-24')).toEqual({ from: '2026-11-05', to: '2026-11-14' });
    expect(previousPeriod('2026-10-01', '2027-03-31')).toEqual({ from: '2026-04-01', to: '2026-09-30' });
  });
  it('gives a percentage of the delivered purchases, rounded down to the cent; organisations without purchases keep theirs', () =>
    spec
      .given([created])
      .when(byRule(500), admin)
      .then([
        {
          type: 'FundAllocationsSetByRule.v1',
          data: {
            fundId: 'f-1',
            rule: { kind: 'percent_of_purchases', percentBasisPoints: 500, measuredFrom: '2026-10-01', measuredTo: '2026-12-31' },
            allocations: [
              { organisationId: 'org-1', purchasesCents: 50_000_33, amountCents: 2_500_01 },
              { organisationId: 'org-2', purchasesCents: 20_000_00, amountCents: 1_000_00 },
            ],
          },
        },
      ]));
  it('multiplies each organisation’s amount by its tier’s MDF share, recorded with the allocation', () => {
    const gold = { tierId: 't-gold', tierName: 'Gold', percent: 125 };
    const registered = { tierId: 't-registered', tierName: 'Registered', percent: 100 };
    expect(ruleAmountCents(50_000_33, 500, 125)).toBe(3_125_02);
    expect(ruleAmountCents(50_000_33, 500, 100)).toBe(ruleAmountCents(50_000_33, 500));
    expect(ruleAmountCents(20_000_00, 500, 50)).toBe(500_00);
    expect(ruleAmountCents(20_000_00, 500, 0)).toBe(0);
    spec
      .given([created])
      .when(
        {
          ...byRule(500),
          purchases: [
            { ...purchases[0], share: gold },
            { ...purchases[1], share: registered },
          ],
        } as FundCommand,
        admin,
      )
      .then([
        {
          type: 'FundAllocationsSetByRule.v1',
          data: {
            fundId: 'f-1',
            rule: { kind: 'percent_of_purchases', percentBasisPoints: 500, measuredFrom: '2026-10-01', measuredTo: '2026-12-31' },
            allocations: [
              { organisationId: 'org-1', purchasesCents: 50_000_33, share: gold, amountCents: 3_125_02 },
              { organisationId: 'org-2', purchasesCents: 20_000_00, share: registered, amountCents: 1_000_00 },
            ],
          },
        },
      ]);
  });
  it('the preview and the decider use the one definition', () =>
    expect(ruleAllocations(500, purchases).map((a) => a.amountCents)).toEqual([ruleAmountCents(50_000_33, 500), ruleAmountCents(20_000_00, 500)]));
  it('refuses allocations above the budget', () => spec.given([created]).when(byRule(2_000), admin).thenThrows(FUND_MESSAGES.allocationsAboveBudget));
  it('refuses a percentage of 0 or above 100', () => {
    spec.given([created]).when(byRule(0), admin).thenThrows(FUND_MESSAGES.rulePercentInvalid);
    spec.given([created]).when(byRule(10_001), admin).thenThrows(FUND_MESSAGES.rulePercentInvalid);
  });
  it('refuses purchases measured for another period', () =>
    spec
      .given([created])
      .when(byRule(500, { from: '2026-10-03', to: '2026-12-31' }), admin)
      .thenThrows(FUND_MESSAGES.ruleMeasuredElsewhere));
  it('is for administrators, on an open fund', () => {
    spec.given([created]).when(byRule(500), partner).thenThrows(FUND_MESSAGES.onlyAdmins);
    const closed: FundEvent = {
      type: 'FundPeriodClosed.v1',
      data: { fundId: 'f-1', reason: 'manual', periodEnd: '2027-03-31', closedAt: now, expiredCents: 0, status: 'closed', previousStatus: 'open' },
    };
    spec.given([created, closed]).when(byRule(500), admin).thenThrows(FUND_MESSAGES.closed);
  });
  it('refuses an allocation below what an organisation already holds', () =>
    spec
      .given([created, { type: 'FundReserved.v1', data: { fundId: 'f-1', requestId: 'q-1', organisationId: 'org-2', amountCents: 1_000_01 } }])
      .when(byRule(500), admin)
      .thenThrows('$1,000.01 reserved'));
});
