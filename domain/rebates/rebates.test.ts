import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import {
  nextRebateStatuses,
  normalizeInvoiceNumber,
  REBATE_MESSAGES,
  REBATE_STATUS_TRANSITIONS,
  REBATE_STATUSES,
  rebates,
  type RebateCommand,
  type RebateEvent,
  type RebateStatus,
} from './rebates';

const spec = deciderSpec(rebates);
const id = 'r-1';
const now = '2026-11-21T10:00:00.000Z';
const admin = { actorId: 'admin-1', actorRole: 'admin' };
const partner = { actorId: 'user-1', actorRole: 'partner' };

const submit = (overrides: Partial<Extract<RebateCommand, { type: 'SubmitRebate' }>> = {}): RebateCommand => ({
  type: 'SubmitRebate',
  rebateId: id,
  organisationId: 'org-1',
  companyName: 'Northwind Networks',
  submittedBy: 'user-1',
  productName: '  HX-M2424 24-Port Switch ',
  productCategory: 'Managed Switches',
  purchaseDate: '2026-11-02',
  invoiceNumber: ' inv-2026  0042 ',
  purchaseAmountCents: 12_500_00,
  rebateType: 'Volume Rebate',
  description: ' Campus refresh ',
  documents: [{ file: '0b9c1a52-6a55-4c44-9a61-0f0a0e0f0a01.pdf', name: 'invoice.pdf', type: 'pdf', size: 1200 }],
  ...overrides,
});

const submitted: RebateEvent = {
  type: 'RebateSubmitted.v1',
  data: {
    rebateId: id,
    organisationId: 'org-1',
    companyName: 'Northwind Networks',
    submittedBy: 'user-1',
    submittedAt: now,
    productName: 'HX-M2424 24-Port Switch',
    productCategory: 'Managed Switches',
    purchaseDate: '2026-11-02',
    invoiceNumber: 'INV-2026 0042',
    purchaseAmountCents: 12_500_00,
    rebateType: 'Volume Rebate',
    description: 'Campus refresh',
    documents: [{ file: '0b9c1a52-6a55-4c44-9a61-0f0a0e0f0a01.pdf', name: 'invoice.pdf', type: 'pdf', size: 1200 }],
    status: 'pending',
    previousStatus: null,
  },
};
const common = { rebateId: id, organisationId: 'org-1', invoiceNumber: 'INV-2026 0042' };
const processing: RebateEvent = { type: 'RebateProcessingStarted.v1', data: { ...common, status: 'processing', previousStatus: 'pending', reason: null } };
const approvedFrom = (from: 'pending' | 'processing', amount = 437_50, notes: string | null = 'Approved after review'): RebateEvent => ({
  type: 'RebateApproved.v1',
  data: { ...common, rebateAmountCents: amount, notes, status: 'approved', previousStatus: from, reason: notes },
});
const rejectedFrom = (from: 'pending' | 'processing', reason = 'The invoice is not legible.'): RebateEvent => ({
  type: 'RebateRejected.v1',
  data: { ...common, status: 'rejected', previousStatus: from, reason },
});
const deleted = (from: RebateStatus, reason: string | null = null): RebateEvent => ({
  type: 'RebateDeleted.v1',
  data: { ...common, documents: ['0b9c1a52-6a55-4c44-9a61-0f0a0e0f0a01.pdf'], status: 'deleted', previousStatus: from, reason },
});

/** The events that bring a claim to `status`. */
const historyTo: Record<RebateStatus, RebateEvent[]> = {
  pending: [submitted],
  processing: [submitted, processing],
  approved: [submitted, approvedFrom('pending')],
  rejected: [submitted, rejectedFrom('pending')],
};

const review = (status: string, notes: string | null = null, rebateAmountCents: number | null = null): RebateCommand => ({
  type: 'ReviewRebate',
  status,
  notes,
  rebateAmountCents,
});

describe('SubmitRebate', () => {
  it('opens a pending claim with trimmed fields and a normalized invoice number', () => {
    spec
      .given([])
      .when(submit(), { ...partner, now })
      .then([submitted]);
  });

  it.each([
    [{ productName: '  ' }, REBATE_MESSAGES.productNameRequired, 'product_name'],
    [{ productCategory: '' }, REBATE_MESSAGES.categoryRequired, 'product_category'],
    [{ productCategory: 'Toasters' }, REBATE_MESSAGES.categoryUnknown, 'product_category'],
    [{ purchaseDate: '' }, REBATE_MESSAGES.purchaseDateRequired, 'purchase_date'],
    [{ purchaseDate: '2026-02-30' }, REBATE_MESSAGES.purchaseDateInvalid, 'purchase_date'],
    [{ purchaseDate: '2026-13-01' }, REBATE_MESSAGES.purchaseDateInvalid, 'purchase_date'],
    [{ purchaseDate: '21/11/2026' }, REBATE_MESSAGES.purchaseDateInvalid, 'purchase_date'],
    [{ purchaseDate: '2026-11-23' }, REBATE_MESSAGES.purchaseDateFuture, 'purchase_date'],
    [{ purchaseDate: '2025-11-20' }, REBATE_MESSAGES.purchaseDateTooOld, 'purchase_date'],
    [{ invoiceNumber: ' ' }, REBATE_MESSAGES.invoiceRequired, 'invoice_number'],
    [{ purchaseAmountCents: 0 }, REBATE_MESSAGES.purchaseAmountPositive, 'purchase_amount'],
    [{ purchaseAmountCents: -100 }, REBATE_MESSAGES.purchaseAmountPositive, 'purchase_amount'],
    [{ purchaseAmountCents: 10.5 }, REBATE_MESSAGES.purchaseAmountRequired, 'purchase_amount'],
    [{ purchaseAmountCents: 10_000_000_01 }, REBATE_MESSAGES.purchaseAmountTooLarge, 'purchase_amount'],
    [{ rebateType: '' }, REBATE_MESSAGES.rebateTypeRequired, 'rebate_type'],
    [{ rebateType: 'Cashback' }, REBATE_MESSAGES.rebateTypeUnknown, 'rebate_type'],
    [{ description: ' ' }, REBATE_MESSAGES.descriptionRequired, 'description'],
    [{ description: 'x'.repeat(2001) }, REBATE_MESSAGES.descriptionTooLong, 'description'],
  ] as const)('refuses %o: %s', (overrides, message, field) => {
    let caught: unknown;
    try {
      rebates.decide(submit(overrides as never), rebates.initialState(), { now, ...partner, correlationId: 'c', causationId: null });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ kind: 'invalid', code: 'VALIDATION_ERROR', message, details: [{ field, message }] });
  });

  it('accepts a purchase made today east of Greenwich (tomorrow in UTC) and one a year ago', () => {
    expect(
      rebates.decide(submit({ purchaseDate: '2026-11-22' }), rebates.initialState(), { now, ...partner, correlationId: 'c', causationId: null }),
    ).toHaveLength(1);
    expect(
      rebates.decide(submit({ purchaseDate: '2025-11-21' }), rebates.initialState(), { now, ...partner, correlationId: 'c', causationId: null }),
    ).toHaveLength(1);
  });

  it('refuses more than 5 documents and documents of other types', () => {
    const doc = (n: number, type = 'pdf') => ({ file: `f${n}.${type}`, name: `doc${n}.${type}`, type, size: 10 });
    spec
      .given([])
      .when(submit({ documents: [1, 2, 3, 4, 5, 6].map((n) => doc(n)) }), { now })
      .thenThrows(REBATE_MESSAGES.tooManyDocuments, 'VALIDATION_ERROR');
    spec
      .given([])
      .when(submit({ documents: [doc(1, 'svg')] }), { now })
      .thenThrows(REBATE_MESSAGES.documentType, 'VALIDATION_ERROR');
    expect(
      rebates.decide(submit({ documents: [1, 2, 3, 4, 5].map((n) => doc(n, n % 2 ? 'png' : 'docx')) }), rebates.initialState(), {
        now,
        ...partner,
        correlationId: 'c',
        causationId: null,
      }),
    ).toHaveLength(1);
  });

  it.each(REBATE_STATUSES)('refuses the same invoice again while the first claim is %s, saying when and how it stands', (status) => {
    spec
      .given(historyTo[status])
      .when(submit({ invoiceNumber: 'INV-2026 0042' }), { now: '2026-11-22T09:00:00.000Z' })
      .thenThrows(REBATE_MESSAGES.duplicateInvoice('INV-2026 0042', 'Nov 21, 2026', status), 'DUPLICATE_INVOICE');
  });

  it('accepts the invoice again once the first claim was deleted', () => {
    const again = rebates.decide(submit({ purchaseAmountCents: 9_000_00 }), [submitted, deleted('pending')].reduce(rebates.evolve, rebates.initialState()), {
      now,
      ...partner,
      correlationId: 'c',
      causationId: null,
    });
    expect(again).toMatchObject([{ type: 'RebateSubmitted.v1', data: { purchaseAmountCents: 9_000_00, status: 'pending' } }]);
  });

  it('treats invoice numbers that differ only in case and spacing as one', () => {
    expect(normalizeInvoiceNumber('  inv-2026   0042 ')).toBe('INV-2026 0042');
    expect(normalizeInvoiceNumber('INV-2026 0042')).toBe(normalizeInvoiceNumber('inv-2026 0042'));
  });
});

describe('ReviewRebate', () => {
  it('follows the review table of spec 002 §4', () => {
    expect(REBATE_STATUS_TRANSITIONS).toEqual({
      pending: ['processing', 'approved', 'rejected'],
      processing: ['approved', 'rejected'],
      approved: [],
      rejected: [],
    });
    expect(nextRebateStatuses('approved')).toEqual([]);
    expect(nextRebateStatuses('nonsense')).toEqual([]);
  });

  describe('when pending', () => {
    it('marks it processing, with an optional note', () => {
      spec.given(historyTo.pending).when(review('processing'), admin).then([processing]);
      spec
        .given(historyTo.pending)
        .when(review('processing', ' Checking with the distributor '), admin)
        .then([
          { type: 'RebateProcessingStarted.v1', data: { ...common, status: 'processing', previousStatus: 'pending', reason: 'Checking with the distributor' } },
        ]);
    });

    it('approves it with an amount and records the note', () => {
      spec
        .given(historyTo.pending)
        .when(review('approved', 'Approved after review', 437_50), admin)
        .then([approvedFrom('pending')]);
    });

    it('approves a zero rebate and the whole purchase, not more', () => {
      spec
        .given(historyTo.pending)
        .when(review('approved', null, 0), admin)
        .then([approvedFrom('pending', 0, null)]);
      spec
        .given(historyTo.pending)
        .when(review('approved', null, 12_500_00), admin)
        .then([approvedFrom('pending', 12_500_00, null)]);
      spec
        .given(historyTo.pending)
        .when(review('approved', null, 12_500_01), admin)
        .thenThrows(REBATE_MESSAGES.amountAbovePurchase, 'VALIDATION_ERROR');
    });

    it('refuses an approval without an amount, with a negative one or a fraction of a cent', () => {
      spec
        .given(historyTo.pending)
        .when(review('approved', 'ok', null), admin)
        .thenThrows(REBATE_MESSAGES.amountRequired, 'VALIDATION_ERROR');
      spec
        .given(historyTo.pending)
        .when(review('approved', 'ok', -1), admin)
        .thenThrows(REBATE_MESSAGES.amountNegative, 'VALIDATION_ERROR');
      spec
        .given(historyTo.pending)
        .when(review('approved', 'ok', 1.5), admin)
        .thenThrows(REBATE_MESSAGES.amountRequired, 'VALIDATION_ERROR');
    });

    it('rejects it with a reason of at most 500 characters (after trimming)', () => {
      spec
        .given(historyTo.pending)
        .when(review('rejected', '  The invoice is not legible. '), admin)
        .then([rejectedFrom('pending')]);
      spec
        .given(historyTo.pending)
        .when(review('rejected', `${'x'.repeat(500)}  `), admin)
        .then([rejectedFrom('pending', 'x'.repeat(500))]);
      spec
        .given(historyTo.pending)
        .when(review('rejected', 'x'.repeat(501)), admin)
        .thenThrows(REBATE_MESSAGES.reasonTooLong, 'VALIDATION_ERROR');
      spec.given(historyTo.pending).when(review('rejected', '   '), admin).thenThrows(REBATE_MESSAGES.reasonRequired, 'VALIDATION_ERROR');
      spec.given(historyTo.pending).when(review('rejected', null), admin).thenThrows(REBATE_MESSAGES.reasonRequired, 'VALIDATION_ERROR');
    });

    it('refuses pending again and unknown statuses', () => {
      spec.given(historyTo.pending).when(review('pending'), admin).thenThrows(REBATE_MESSAGES.invalidTransition, 'INVALID_STATUS_TRANSITION');
      spec.given(historyTo.pending).when(review('paid'), admin).thenThrows(REBATE_MESSAGES.invalidTransition, 'INVALID_STATUS_TRANSITION');
    });
  });

  describe('when processing', () => {
    it('approves or rejects it', () => {
      spec
        .given(historyTo.processing)
        .when(review('approved', 'Approved after review', 437_50), admin)
        .then([approvedFrom('processing')]);
      spec
        .given(historyTo.processing)
        .when(review('rejected', 'The invoice is not legible.'), admin)
        .then([rejectedFrom('processing')]);
    });

    it('refuses processing again and going back to pending', () => {
      for (const status of ['processing', 'pending']) {
        spec.given(historyTo.processing).when(review(status), admin).thenThrows(REBATE_MESSAGES.invalidTransition, 'INVALID_STATUS_TRANSITION');
      }
    });
  });

  describe.each(['approved', 'rejected'] as const)('when %s (final)', (final) => {
    it.each(REBATE_STATUSES)('refuses %s, saying which move was refused', (status) => {
      let caught: unknown;
      try {
        rebates.decide(review(status, 'reason', 100), historyTo[final].reduce(rebates.evolve, rebates.initialState()), {
          now,
          ...admin,
          correlationId: 'c',
          causationId: null,
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({
        kind: 'conflict',
        code: 'INVALID_STATUS_TRANSITION',
        message: 'Invalid status transition',
        details: `Cannot change status from ${final} to ${status}`,
      });
    });
  });

  it('is for administrators only (both spellings of the role)', () => {
    for (const role of ['partner', 'support', 'manufacturer', 'distributor', 'partner_user', null]) {
      spec
        .given(historyTo.pending)
        .when(review('approved', null, 100), { actorRole: role })
        .thenThrows(REBATE_MESSAGES.onlyAdminsReview, 'INSUFFICIENT_PERMISSIONS');
    }
    spec.given(historyTo.pending).when(review('processing'), { actorRole: 'administrator' }).then([processing]);
  });

  it('answers not found for a claim that does not exist or was deleted', () => {
    spec
      .given([])
      .when(review('approved', null, 100), admin)
      .thenThrows(REBATE_MESSAGES.notFound, 'NOT_FOUND');
    spec
      .given([submitted, deleted('pending')])
      .when(review('approved', null, 100), admin)
      .thenThrows(REBATE_MESSAGES.notFound, 'NOT_FOUND');
  });
});

describe('DeleteRebate', () => {
  const byOwner = (reason: string | null = null): RebateCommand => ({ type: 'DeleteRebate', actorOrganisationId: 'org-1', reason });
  const byOther: RebateCommand = { type: 'DeleteRebate', actorOrganisationId: 'org-2', reason: null };
  const byAdmin = (reason: string | null = null): RebateCommand => ({ type: 'DeleteRebate', actorOrganisationId: 'admin-1', reason });

  it('lets the submitting organisation withdraw a pending or a rejected claim, recording who and why', () => {
    spec
      .given(historyTo.pending)
      .when(byOwner(' Submitted twice by mistake '), partner)
      .then([deleted('pending', 'Submitted twice by mistake')]);
    spec
      .given(historyTo.rejected)
      .when(byOwner(), partner)
      .then([deleted('rejected')]);
  });

  it('refuses the organisation once the claim is under review or approved', () => {
    spec.given(historyTo.processing).when(byOwner(), partner).thenThrows(REBATE_MESSAGES.ownerDeleteOnlyPending, 'CONFLICT');
    spec.given(historyTo.approved).when(byOwner(), partner).thenThrows(REBATE_MESSAGES.approvedNotDeletable, 'CONFLICT');
  });

  it("answers another organisation's claim as not found", () => {
    spec.given(historyTo.pending).when(byOther, { actorId: 'user-9', actorRole: 'partner' }).thenThrows(REBATE_MESSAGES.notFound, 'NOT_FOUND');
  });

  it('lets administrators delete any claim that was not approved', () => {
    for (const status of ['pending', 'processing', 'rejected'] as const) {
      spec
        .given(historyTo[status])
        .when(byAdmin('Duplicate of a paper claim'), admin)
        .then([deleted(status, 'Duplicate of a paper claim')]);
    }
    spec.given(historyTo.approved).when(byAdmin(), admin).thenThrows(REBATE_MESSAGES.approvedNotDeletable, 'CONFLICT');
  });

  it('answers not found for a claim already deleted', () => {
    spec
      .given([submitted, deleted('pending')])
      .when(byOwner(), partner)
      .thenThrows(REBATE_MESSAGES.notFound, 'NOT_FOUND');
  });
});
