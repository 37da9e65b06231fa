import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { isRebateProductCategory, isRebateType, MAX_REBATE_DOCUMENTS, REBATE_DOCUMENT_TYPES, REBATE_PRODUCT_CATEGORIES, REBATE_TYPES } from './lists';

/**
 * Rebate claims (spec 002 §3-§5). An organisation submits a claim for a purchase, with supporting
 * documents; an administrator reviews it: pending → processing | approved | rejected, processing →
 * approved | rejected. Approved and rejected are final.
 *
 * One claim per invoice: the claim's id derives from the organisation and the normalized invoice
 * number (the server's `rebateIdFor`), so the stream itself refuses a second claim of the same invoice, with no
 * race between two submissions. A deleted claim frees its invoice for a new claim in the same stream.
 */

export const REBATE_STATUSES = ['pending', 'processing', 'approved', 'rejected'] as const;
export type RebateStatus = (typeof REBATE_STATUSES)[number];

/** The review table of spec 002 §4. */
export const REBATE_STATUS_TRANSITIONS: Readonly<Record<RebateStatus, readonly RebateStatus[]>> = {
  pending: ['processing', 'approved', 'rejected'],
  processing: ['approved', 'rejected'],
  approved: [],
  rejected: [],
};

export const REBATE_STATUS_LABELS: Readonly<Record<RebateStatus, string>> = {
  pending: 'Pending',
  processing: 'Processing',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const isRebateStatus = (value: unknown): value is RebateStatus => typeof value === 'string' && (REBATE_STATUSES as readonly string[]).includes(value);
export const rebateStatusLabel = (status: string) => (isRebateStatus(status) ? REBATE_STATUS_LABELS[status] : status);
export const nextRebateStatuses = (status: string): readonly RebateStatus[] => (isRebateStatus(status) ? REBATE_STATUS_TRANSITIONS[status] : []);

/** Who may delete which claim: the submitting organisation while nobody has started on it (or once rejected); administrators any claim not paid out. */
export const OWNER_DELETABLE_STATUSES: readonly RebateStatus[] = ['pending', 'rejected'];
export const ADMIN_DELETABLE_STATUSES: readonly RebateStatus[] = ['pending', 'processing', 'rejected'];

export const REJECTION_REASON_MAX = 500;
export const NOTES_MAX = 1000;
export const DESCRIPTION_MAX = 2000;
/** $10,000,000.00: larger claims are typing mistakes. */
export const MAX_PURCHASE_CENTS = 10_000_000_00;
/** Claims are accepted up to a year after the purchase. */
export const CLAIM_WINDOW_DAYS = 365;

export const REBATE_MESSAGES = {
  notFound: 'Rebate not found.',
  onlyAdminsReview: 'Only administrators can review rebates.',
  invalidTransition: 'Invalid status transition',
  transitionDetails: (from: string, to: string) => `Cannot change status from ${from} to ${to}`,
  amountRequired: 'Please enter the rebate amount to approve.',
  amountNegative: 'The rebate amount cannot be negative.',
  amountAbovePurchase: 'The rebate amount cannot be more than the purchase amount.',
  reasonRequired: 'Please give a reason for the rejection.',
  reasonTooLong: `The reason must be at most ${REJECTION_REASON_MAX} characters.`,
  notesTooLong: `Notes must be at most ${NOTES_MAX} characters.`,
  productNameRequired: 'Product name is required',
  categoryRequired: 'Product category is required',
  categoryUnknown: `Product category must be one of: ${REBATE_PRODUCT_CATEGORIES.join(', ')}.`,
  purchaseDateRequired: 'Purchase date is required',
  purchaseDateInvalid: 'Purchase date must be a date (YYYY-MM-DD).',
  purchaseDateFuture: 'Purchase date cannot be in the future.',
  purchaseDateTooOld: `Rebates can be claimed up to ${CLAIM_WINDOW_DAYS} days after the purchase.`,
  invoiceRequired: 'Invoice number is required',
  purchaseAmountRequired: 'Purchase amount is required',
  purchaseAmountPositive: 'Purchase amount must be greater than 0.',
  purchaseAmountTooLarge: 'Purchase amount must be at most $10,000,000.00.',
  rebateTypeRequired: 'Rebate type is required',
  rebateTypeUnknown: `Rebate type must be one of: ${REBATE_TYPES.join(', ')}.`,
  descriptionRequired: 'Description is required',
  descriptionTooLong: `Description must be at most ${DESCRIPTION_MAX} characters.`,
  tooManyDocuments: `Attach at most ${MAX_REBATE_DOCUMENTS} supporting documents.`,
  documentType: 'Supporting documents must be PDF, DOC, DOCX, JPG, JPEG or PNG files.',
  duplicateInvoice: (invoice: string, submittedOn: string, status: string) =>
    `Invoice ${invoice} has already been claimed by your organisation (submitted ${submittedOn}, ${rebateStatusLabel(status).toLowerCase()}). Each invoice can be claimed once.`,
  notYours: 'You can only delete your own organisation’s rebates.',
  ownerDeleteOnlyPending: 'This rebate is under review and can no longer be withdrawn. Please contact your administrator.',
  approvedNotDeletable: 'An approved rebate is a payment record and cannot be deleted.',
  submitted: 'Rebate submitted successfully!',
  deleted: 'Rebate deleted successfully',
  statusUpdated: (status: string) => `Rebate ${rebateStatusLabel(status).toLowerCase()} successfully`,
} as const;

// ---- state, events, commands ----

export interface RebateDocument {
  /** The stored file's name (a random uuid with the type's extension). */
  file: string;
  /** The name the submitter gave the file. */
  name: string;
  type: string;
  size: number;
}

export interface RebateClaim {
  productName: string;
  productCategory: string;
  /** YYYY-MM-DD */
  purchaseDate: string;
  invoiceNumber: string;
  purchaseAmountCents: number;
  rebateType: string;
  description: string;
}

type Existing = {
  status: RebateStatus;
  id: string;
  organisationId: string;
  invoiceNumber: string;
  purchaseAmountCents: number;
  submittedAt: string;
  /** Stored file names, so a deletion can name the files it leaves behind. */
  documents: string[];
  /** Not needed to decide; kept so the claim can be read as it was at any past moment. */
  claim: Omit<RebateClaim, 'invoiceNumber' | 'purchaseAmountCents'>;
  companyName: string | null;
  submittedBy: string;
  rebateAmountCents: number | null;
};

export type RebateState = { status: 'none' } | { status: 'deleted'; id: string } | Existing;

export type RebateEvent =
  | {
      type: 'RebateSubmitted.v1';
      data: RebateClaim & {
        rebateId: string;
        /** The claiming organisation: the partner or distributor account (a team member's parent). */
        organisationId: string;
        companyName: string | null;
        submittedBy: string;
        submittedAt: string;
        documents: RebateDocument[];
        status: 'pending';
        previousStatus: null;
      };
    }
  | {
      type: 'RebateProcessingStarted.v1';
      data: { rebateId: string; organisationId: string; invoiceNumber: string; status: 'processing'; previousStatus: 'pending'; reason: string | null };
    }
  | {
      type: 'RebateApproved.v1';
      data: {
        rebateId: string;
        organisationId: string;
        invoiceNumber: string;
        rebateAmountCents: number;
        /** The reviewer's note, recorded with the approval. */
        notes: string | null;
        status: 'approved';
        previousStatus: 'pending' | 'processing';
        reason: string | null;
      };
    }
  | {
      type: 'RebateRejected.v1';
      data: { rebateId: string; organisationId: string; invoiceNumber: string; status: 'rejected'; previousStatus: 'pending' | 'processing'; reason: string };
    }
  | {
      type: 'RebateDeleted.v1';
      data: {
        rebateId: string;
        organisationId: string;
        invoiceNumber: string;
        documents: string[];
        status: 'deleted';
        previousStatus: RebateStatus;
        reason: string | null;
      };
    };

export type RebateCommand =
  | (RebateClaim & {
      type: 'SubmitRebate';
      rebateId: string;
      organisationId: string;
      companyName: string | null;
      submittedBy: string;
      documents: RebateDocument[];
    })
  | {
      type: 'ReviewRebate';
      status: string;
      /** Approval: the reviewer's note. Rejection: the reason. Processing: an optional note. */
      notes: string | null;
      rebateAmountCents: number | null;
    }
  | {
      type: 'DeleteRebate';
      /** The deleting user's organisation; administrators may delete any organisation's claim. */
      actorOrganisationId: string | null;
      reason: string | null;
    };

// ---- helpers ----

/** One spelling per invoice: no surrounding or doubled spaces, upper case. */
export const normalizeInvoiceNumber = (invoice: string) => invoice.trim().replace(/\s+/g, ' ').toUpperCase();

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00.000Z`);
  return DATE.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** `Oct 2, 2026` */
// Made once: `toLocaleDateString` with options builds a new formatter on every call.
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const shortDate = (iso: string) => SHORT_DATE.format(new Date(iso));

/** The claim's fields after trimming, or the first problem with them (the form's order). */
function checkedClaim(command: RebateClaim, documents: RebateDocument[], now: string): RebateClaim {
  const claim: RebateClaim = {
    productName: command.productName.trim(),
    productCategory: command.productCategory.trim(),
    purchaseDate: command.purchaseDate.trim(),
    invoiceNumber: normalizeInvoiceNumber(command.invoiceNumber),
    purchaseAmountCents: command.purchaseAmountCents,
    rebateType: command.rebateType.trim(),
    description: command.description.trim(),
  };
  if (!claim.productName) throw invalid('product_name', REBATE_MESSAGES.productNameRequired);
  if (!claim.productCategory) throw invalid('product_category', REBATE_MESSAGES.categoryRequired);
  if (!isRebateProductCategory(claim.productCategory)) throw invalid('product_category', REBATE_MESSAGES.categoryUnknown);
  if (!claim.purchaseDate) throw invalid('purchase_date', REBATE_MESSAGES.purchaseDateRequired);
  if (!isRealDate(claim.purchaseDate)) throw invalid('purchase_date', REBATE_MESSAGES.purchaseDateInvalid);
  const purchased = Date.parse(`${claim.purchaseDate}T00:00:00.000Z`);
  const today = Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`);
  // One day of grace: it is already tomorrow east of Greenwich.
  if (purchased > today + DAY_MS) throw invalid('purchase_date', REBATE_MESSAGES.purchaseDateFuture);
  if (purchased < today - CLAIM_WINDOW_DAYS * DAY_MS) throw invalid('purchase_date', REBATE_MESSAGES.purchaseDateTooOld);
  if (!claim.invoiceNumber) throw invalid('invoice_number', REBATE_MESSAGES.invoiceRequired);
  if (!Number.isInteger(claim.purchaseAmountCents)) throw invalid('purchase_amount', REBATE_MESSAGES.purchaseAmountRequired);
  if (claim.purchaseAmountCents <= 0) throw invalid('purchase_amount', REBATE_MESSAGES.purchaseAmountPositive);
  if (claim.purchaseAmountCents > MAX_PURCHASE_CENTS) throw invalid('purchase_amount', REBATE_MESSAGES.purchaseAmountTooLarge);
  if (!claim.rebateType) throw invalid('rebate_type', REBATE_MESSAGES.rebateTypeRequired);
  if (!isRebateType(claim.rebateType)) throw invalid('rebate_type', REBATE_MESSAGES.rebateTypeUnknown);
  if (!claim.description) throw invalid('description', REBATE_MESSAGES.descriptionRequired);
  if (claim.description.length > DESCRIPTION_MAX) throw invalid('description', REBATE_MESSAGES.descriptionTooLong);
  if (documents.length > MAX_REBATE_DOCUMENTS) throw invalid('attachments', REBATE_MESSAGES.tooManyDocuments);
  if (documents.some((doc) => !(REBATE_DOCUMENT_TYPES as readonly string[]).includes(doc.type))) throw invalid('attachments', REBATE_MESSAGES.documentType);
  return claim;
}

function existing(state: RebateState): Existing {
  if (state.status === 'none' || state.status === 'deleted') throw new DomainError('not_found', 'NOT_FOUND', REBATE_MESSAGES.notFound);
  return state;
}

// ---- the commands ----

function submitRebate(command: Extract<RebateCommand, { type: 'SubmitRebate' }>, state: RebateState, metadata: CommandMetadata): RebateEvent[] {
  if (state.status !== 'none' && state.status !== 'deleted') {
    throw new DomainError('conflict', 'DUPLICATE_INVOICE', REBATE_MESSAGES.duplicateInvoice(state.invoiceNumber, shortDate(state.submittedAt), state.status), [
      { field: 'invoice_number', message: 'This invoice has already been claimed.' },
    ]);
  }
  const claim = checkedClaim(command, command.documents, metadata.now);
  return [
    {
      type: 'RebateSubmitted.v1',
      data: {
        rebateId: command.rebateId,
        organisationId: command.organisationId,
        companyName: command.companyName,
        submittedBy: command.submittedBy,
        submittedAt: metadata.now,
        ...claim,
        documents: command.documents,
        status: 'pending',
        previousStatus: null,
      },
    },
  ];
}

/** ReviewRebate: the administrator's decision, by the table of spec 002 §4. */
function reviewRebate(command: Extract<RebateCommand, { type: 'ReviewRebate' }>, state: RebateState, metadata: CommandMetadata): RebateEvent[] {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', REBATE_MESSAGES.onlyAdminsReview);
  const rebate = existing(state);
  const from = rebate.status;
  const to = command.status;
  if (!nextRebateStatuses(from).includes(to as RebateStatus)) {
    throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', REBATE_MESSAGES.invalidTransition, REBATE_MESSAGES.transitionDetails(from, to));
  }
  const notes = command.notes?.trim() || null;
  const common = { rebateId: rebate.id, organisationId: rebate.organisationId, invoiceNumber: rebate.invoiceNumber };
  switch (to as Exclude<RebateStatus, 'pending'>) {
    case 'processing':
      if (notes && notes.length > NOTES_MAX) throw invalid('notes', REBATE_MESSAGES.notesTooLong);
      return [{ type: 'RebateProcessingStarted.v1', data: { ...common, status: 'processing', previousStatus: 'pending', reason: notes } }];
    case 'approved': {
      const amount = command.rebateAmountCents;
      if (amount === null || !Number.isInteger(amount)) throw invalid('rebate_amount', REBATE_MESSAGES.amountRequired);
      if (amount < 0) throw invalid('rebate_amount', REBATE_MESSAGES.amountNegative);
      if (amount > rebate.purchaseAmountCents) throw invalid('rebate_amount', REBATE_MESSAGES.amountAbovePurchase);
      if (notes && notes.length > NOTES_MAX) throw invalid('notes', REBATE_MESSAGES.notesTooLong);
      return [
        {
          type: 'RebateApproved.v1',
          data: { ...common, rebateAmountCents: amount, notes, status: 'approved', previousStatus: from as 'pending' | 'processing', reason: notes },
        },
      ];
    }
    case 'rejected':
      if (!notes) throw invalid('notes', REBATE_MESSAGES.reasonRequired);
      if (notes.length > REJECTION_REASON_MAX) throw invalid('notes', REBATE_MESSAGES.reasonTooLong);
      return [{ type: 'RebateRejected.v1', data: { ...common, status: 'rejected', previousStatus: from as 'pending' | 'processing', reason: notes } }];
  }
}

function deleteRebate(command: Extract<RebateCommand, { type: 'DeleteRebate' }>, state: RebateState, metadata: CommandMetadata): RebateEvent[] {
  const rebate = existing(state);
  if (isAdminRole(metadata.actorRole)) {
    if (!ADMIN_DELETABLE_STATUSES.includes(rebate.status)) throw new DomainError('conflict', 'CONFLICT', REBATE_MESSAGES.approvedNotDeletable);
  } else {
    // Another organisation's claim is answered as if it did not exist.
    if (command.actorOrganisationId !== rebate.organisationId) throw new DomainError('not_found', 'NOT_FOUND', REBATE_MESSAGES.notFound);
    if (rebate.status === 'approved') throw new DomainError('conflict', 'CONFLICT', REBATE_MESSAGES.approvedNotDeletable);
    if (!OWNER_DELETABLE_STATUSES.includes(rebate.status)) throw new DomainError('conflict', 'CONFLICT', REBATE_MESSAGES.ownerDeleteOnlyPending);
  }
  return [
    {
      type: 'RebateDeleted.v1',
      data: {
        rebateId: rebate.id,
        organisationId: rebate.organisationId,
        invoiceNumber: rebate.invoiceNumber,
        documents: rebate.documents,
        status: 'deleted',
        previousStatus: rebate.status,
        reason: command.reason?.trim() || null,
      },
    },
  ];
}

export function decide(command: RebateCommand, state: RebateState, metadata: CommandMetadata): RebateEvent[] {
  switch (command.type) {
    case 'SubmitRebate':
      return submitRebate(command, state, metadata);
    case 'ReviewRebate':
      return reviewRebate(command, state, metadata);
    case 'DeleteRebate':
      return deleteRebate(command, state, metadata);
    default:
      return assertNever(command);
  }
}

export function evolve(state: RebateState, event: RebateEvent): RebateState {
  switch (event.type) {
    case 'RebateSubmitted.v1': {
      const d = event.data;
      return {
        status: 'pending',
        id: d.rebateId,
        organisationId: d.organisationId,
        invoiceNumber: d.invoiceNumber,
        purchaseAmountCents: d.purchaseAmountCents,
        submittedAt: d.submittedAt,
        documents: d.documents.map((doc) => doc.file),
        claim: {
          productName: d.productName,
          productCategory: d.productCategory,
          purchaseDate: d.purchaseDate,
          rebateType: d.rebateType,
          description: d.description,
        },
        companyName: d.companyName,
        submittedBy: d.submittedBy,
        rebateAmountCents: null,
      };
    }
    case 'RebateApproved.v1':
      return state.status === 'none' || state.status === 'deleted'
        ? state
        : { ...state, status: event.data.status, rebateAmountCents: event.data.rebateAmountCents };
    case 'RebateProcessingStarted.v1':
    case 'RebateRejected.v1':
      return state.status === 'none' || state.status === 'deleted' ? state : { ...state, status: event.data.status };
    case 'RebateDeleted.v1':
      return { status: 'deleted', id: event.data.rebateId };
    default:
      return assertNever(event);
  }
}

export const rebates: Decider<RebateState, RebateCommand, RebateEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `rebates-${id}`,
};
