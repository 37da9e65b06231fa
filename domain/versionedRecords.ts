/**
 * The record types that can be read as of any moment, each with its module's own decider and how its
 * state is shown. Field names follow the read model's columns (and the record's answer today), money
 * is in dollars like the answers, and what only decisions need (password hashes, stock reservations
 * per order, reminder bookkeeping, stored file names) is left out.
 */

import { products, type ProductState } from './products/products';
import { users, type UserState } from './identity/users';
import { orders, type OrderState } from './orders/orders';
import { partners, type PartnerState } from './partners/partners';
import { projects, type ProjectState } from './projects/projects';
import { rebates, type RebateState } from './rebates/rebates';
import { funds, type FundState } from './funds/funds';
import { fundRequests, type FundRequestState } from './funds/requests';
import { fundClaims, type FundClaimState } from './funds/claims';
import { team } from './team/team';
import { tickets, type TicketState } from './tickets/tickets';
import { foldOf, type RecordFields, type VersionedRecordType } from './versions';

const dollars = (cents: number) => Math.round(cents) / 100;

type Live<State> = Exclude<State, { status: 'none' } | { status: 'deleted' }>;
/** Shows a record only while it exists: not before its creation, not after its deletion. */
const whileLive =
  <State extends { status: string }>(show: (state: Live<State>) => RecordFields) =>
  (state: State): RecordFields | null =>
    state.status === 'none' || state.status === 'deleted' ? null : show(state as Live<State>);

const userFields = whileLive<UserState>((user) => ({
  id: user.id,
  full_name: user.fullName,
  email: user.email,
  role: user.role,
  status: user.status,
  is_active: user.status === 'active',
  company_name: user.companyName,
  permissions: user.permissions,
  parent_user_id: user.parentUserId,
  invitation_pending: user.invitation !== null,
}));

const USER_LABELS = {
  UserPasswordChanged: 'Password changed',
  UserInvited: 'Invited by e-mail',
  UserInvitationAccepted: 'Invitation accepted',
};

export const VERSIONED_RECORDS = {
  users: { label: 'User', decider: foldOf(users), present: userFields, labels: USER_LABELS } satisfies VersionedRecordType<UserState>,

  /** A team member is a user whose organisation is its owner's; the team decider folds the same stream. */
  teamMembers: {
    label: 'Team member',
    decider: foldOf(team),
    present: userFields,
    organisationOf: (state) => (state.status === 'none' ? null : state.parentUserId),
    labels: USER_LABELS,
  } satisfies VersionedRecordType<UserState>,

  partners: {
    label: 'Partner',
    decider: foldOf(partners),
    present: whileLive<PartnerState>((partner) => ({
      // The application's own answers first, so the record's identity and decision always win.
      ...(partner.details ?? {}),
      ...(partner.answers ?? {}),
      id: partner.id,
      user_id: partner.userId,
      status: partner.status,
      company_name: partner.companyName,
      company_logo: partner.companyLogo,
      category: partner.category,
      tier: partner.tier,
      permissions: partner.permissions,
      rejection_reason: partner.rejectionReason,
    })),
    organisationOf: (state) => (state.status === 'none' ? null : state.id),
    labels: { PartnerApplicationDetailsProvided: 'Application submitted', PartnerQuestionnaireAnswered: 'Questionnaire answered' },
  } satisfies VersionedRecordType<PartnerState>,

  products: {
    label: 'Product',
    decider: foldOf(products),
    present: whileLive<ProductState>((product) => ({
      id: product.id,
      name: product.name,
      price: dollars(product.priceCents),
      category: product.category,
      stock_quantity: product.stockQuantity,
      moq: product.moq,
      description: product.description,
      image: product.image,
      status: product.status,
    })),
    labels: { StockReserved: 'Stock reserved for an order', StockReleased: 'Stock released by an order' },
  } satisfies VersionedRecordType<ProductState>,

  orders: {
    label: 'Order',
    decider: foldOf(orders),
    present: whileLive<OrderState>((order) => ({
      id: order.id,
      order_number: order.orderNumber,
      organisation_id: order.organisationId,
      company_name: order.companyName,
      placed_by: order.placedBy,
      status: order.status,
      notes: order.notes,
      shipping_address: order.shippingAddress,
      estimated_delivery: order.estimatedDelivery,
      total_amount: dollars(order.totalCents),
      item_count: order.items.length,
      items: order.items.map((line) => ({
        product_id: line.productId,
        product_name: line.productName,
        quantity: line.quantity,
        unit_price: dollars(line.unitPriceCents),
        line_total: dollars(line.lineTotalCents),
      })),
    })),
    organisationOf: (state) => (state.status === 'none' ? null : state.organisationId),
    labels: { OrderUnitsSerialised: 'Serial numbers recorded' },
  } satisfies VersionedRecordType<OrderState>,

  projects: {
    label: 'Project',
    decider: foldOf(projects),
    present: whileLive<ProjectState>((project) => ({
      id: project.id,
      organisation_id: project.organisationId,
      status: project.status,
      ...project.details,
      boq_file: project.boqFile,
      start_date: project.startDate,
      registration_status: project.registration,
      expires_at: project.expiresAt,
      extension_status: project.extension,
      milestones: project.milestones,
      team: project.team,
      orders: project.orders,
    })),
    organisationOf: (state) => (state.status === 'none' || state.status === 'deleted' ? null : state.organisationId),
    labels: { ProjectExpiryReminderSent: 'Expiry reminder sent' },
  } satisfies VersionedRecordType<ProjectState>,

  rebates: {
    label: 'Rebate',
    decider: foldOf(rebates),
    present: whileLive<RebateState>((rebate) => ({
      id: rebate.id,
      organisation_id: rebate.organisationId,
      company_name: rebate.companyName,
      submitted_by: rebate.submittedBy,
      status: rebate.status,
      product_name: rebate.claim.productName,
      product_category: rebate.claim.productCategory,
      purchase_date: rebate.claim.purchaseDate,
      invoice_number: rebate.invoiceNumber,
      purchase_amount: dollars(rebate.purchaseAmountCents),
      rebate_type: rebate.claim.rebateType,
      description: rebate.claim.description,
      rebate_amount: rebate.rebateAmountCents === null ? null : dollars(rebate.rebateAmountCents),
      submitted_date: rebate.submittedAt,
      document_count: rebate.documents.length,
    })),
    organisationOf: (state) => (state.status === 'none' || state.status === 'deleted' ? null : state.organisationId),
  } satisfies VersionedRecordType<RebateState>,

  funds: {
    label: 'Fund',
    decider: foldOf(funds),
    present: whileLive<FundState>((fund) => ({
      id: fund.id,
      name: fund.name,
      period_start: fund.periodStart,
      period_end: fund.periodEnd,
      budget: dollars(fund.budgetCents),
      coop_share_percent: fund.coopShareBasisPoints / 100,
      status: fund.status,
      allocations: Object.entries(fund.allocations).map(([organisation_id, cents]) => ({ organisation_id, amount: dollars(cents) })),
    })),
  } satisfies VersionedRecordType<FundState>,

  fundRequests: {
    label: 'Fund request',
    decider: foldOf(fundRequests),
    present: whileLive<FundRequestState>((request) => ({
      id: request.id,
      fund_id: request.fundId,
      organisation_id: request.organisationId,
      status: request.status,
      activity_type: request.activityType,
      title: request.title,
      description: request.description,
      start_date: request.startDate,
      end_date: request.endDate,
      planned_cost: dollars(request.plannedCostCents),
      requested_amount: dollars(request.requestedAmountCents),
      expected_leads: request.expectedLeads,
      approved_amount: request.approvedAmountCents === null ? null : dollars(request.approvedAmountCents),
      claim_deadline: request.claimDeadline,
      claim_id: request.claimId,
      attachment_count: request.attachments.length,
    })),
    organisationOf: (state) => (state.status === 'none' ? null : state.organisationId),
  } satisfies VersionedRecordType<FundRequestState>,

  fundClaims: {
    label: 'Fund claim',
    decider: foldOf(fundClaims),
    present: whileLive<FundClaimState>((claim) => ({
      id: claim.id,
      request_id: claim.requestId,
      fund_id: claim.fundId,
      organisation_id: claim.organisationId,
      status: claim.status,
      actual_cost: dollars(claim.actualCostCents),
      claimed_amount: dollars(claim.claimedAmountCents),
      approved_amount: dollars(claim.approvedAmountCents),
      paid_amount: claim.paidAmountCents === null ? null : dollars(claim.paidAmountCents),
      leads_generated: claim.leadsGenerated,
      proof_count: claim.proof.length,
    })),
    organisationOf: (state) => (state.status === 'none' ? null : state.organisationId),
  } satisfies VersionedRecordType<FundClaimState>,

  tickets: {
    label: 'Ticket',
    decider: foldOf(tickets),
    present: whileLive<TicketState>((ticket) => ({
      id: ticket.id,
      ticket_number: ticket.ticketNumber,
      organisation_id: ticket.organisationId,
      title: ticket.title,
      description: ticket.description,
      priority: ticket.priority,
      category: ticket.category,
      status: ticket.status,
      tags: ticket.tags,
      assigned_to: ticket.assignedTo,
      created_by: ticket.createdBy,
      due_date: ticket.dueAt,
      is_overdue: ticket.overdueFor !== null,
      attachment_count: ticket.attachments.length,
    })),
    organisationOf: (state) => (state.status === 'none' || state.status === 'deleted' ? null : state.organisationId),
    // Comments are not fields of the ticket: the version says one was written, not what (internal notes stay internal).
    labels: { TicketCommented: 'Comment added' },
  } satisfies VersionedRecordType<TicketState>,
} as const;

export type VersionedRecordName = keyof typeof VERSIONED_RECORDS;
