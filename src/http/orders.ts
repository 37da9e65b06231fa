import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seesAllOrganisations } from '../../domain/access';
import { DomainError } from '../../domain/decider';
import { KNOWN_ORDER_STATUSES, ORDER_MESSAGES, ORDER_NUMBER_PATTERN, orders, statusLabel } from '../../domain/orders/orders';
import type { ShippingAddress } from '../../domain/orders/shipping';
import { allOrders, decodeOrderCursor, encodeOrderCursor, findOrder, listOrders, orderOrganisations, orderShippingProfile, orderStatistics, orderStatusCounts, type OrderExportRow, type OrderFilters, type OrderScope } from '../../projections/orders';
import { Readable } from 'node:stream';
import { csvLines, type CsvColumns } from './csv';
import { statusHistoryOf } from '../../projections/statusHistory';
import { findUser } from '../../projections/users';
import { metadataFromRequest } from '../commands/dispatch';
import { changeOrderStatus, placeOrder } from '../commands/orders';
import { linkOrderAtCheckout } from '../commands/projects';
import { findProjectRow } from '../../projections/projects';
import { isLinkableProject, NOT_LINKABLE_MESSAGE } from '../../domain/projects/projects';
import { HttpError } from '../plugins/errors';
import type { Services } from '../services';
import { cachedRead, type AnswerCache } from './answerCache';
import { booleanFilter, listQuerySchema, MAX_PAGE_OFFSET, sendList } from './lists';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { recordAnswer } from './records';
import { answerCreated, earlierCreation, newRecordId } from './created';

export const ORDER_LIST_MESSAGES = {
  tooDeep: `Pages stop after the first ${MAX_PAGE_OFFSET.toLocaleString('en-US')} orders: narrow the filters, sort the other way, or follow nextCursor.`,
} as const;

/** An order is addressed by its id or by its number (ORD-2026-001042). */
const orderParam = z
  .object({ id: z.union([z.uuid(), z.string().trim().toUpperCase().regex(ORDER_NUMBER_PATTERN)], { error: 'The order id in the address is not valid.' }) })
  .strict();

const text = (max: number) => z.string().max(max);

/** Types and sizes are checked here; the business rules (required fields, MOQ, stock, dates) by the order's decider. */
const shippingAddress = z
  .object({
    firstName: text(1000).optional(),
    lastName: text(1000).optional(),
    email: text(1000).optional(),
    phone: text(1000).optional(),
    addressLine1: text(1000).optional(),
    addressLine2: text(1000).optional(),
    city: text(1000).optional(),
    state: text(1000).optional(),
    zipCode: text(1000).optional(),
    country: text(1000).optional(),
    specialInstructions: text(2000).optional(),
  })
  .strict();

const createBody = z
  .object({
    /** The client sends its own id; an order is always placed for the caller's organisation. */
    partner_id: z.union([z.string().max(100), z.number()]).nullable().optional(),
    estimated_delivery: text(40).optional(),
    notes: text(2000).nullable().optional(),
    items: z
      .array(
        z
          .object({
            product_id: z.uuid({ error: 'Choose products from the catalogue.' }),
            quantity: z.number({ error: 'Quantity must be a number.' }).int('Quantity must be a whole number.').min(1, 'Quantity must be at least 1.'),
            /** Accepted for the specification's payload and ignored: prices come from the catalogue. */
            unit_price: z.union([z.number(), z.string().max(40)]).nullable().optional(),
          })
          .strict(),
      )
      .max(50),
    shipping_address: shippingAddress,
    /** Optional: one of the organisation's projects (deal registrations) the order belongs to. */
    project_id: z.uuid({ error: "Choose one of your organisation's projects." }).nullable().optional(),
  })
  .strict()
  .meta({
    example: {
      estimated_delivery: '2027-01-15',
      notes: 'Deliver to the loading dock.',
      items: [{ product_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', quantity: 1 }],
      shipping_address: { firstName: 'Ines', lastName: 'Moreau', email: 'ines.moreau@fjord-networks.example', phone: '+1 415 555 0100', addressLine1: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'United States' },
    },
  });

const statusBody = z
  .object({
    status: z.string({ error: 'Status is required.' }).trim().min(1, 'Status is required.').max(40),
    notes: text(1000).nullable().optional(),
    /** Required when shipping (the order's decider checks them), refused otherwise. */
    carrier: text(200).nullable().optional(),
    tracking_number: text(200).nullable().optional(),
  })
  .strict()
  .meta({ example: { status: 'approved', notes: 'Credit check passed.' } });

/** An amount in dollars: a JSON number from react-admin's filter, or its text in a query string. */
const amount = z.union([z.number(), z.string().trim().regex(/^\d{1,12}(\.\d{1,2})?$/, 'Amounts are numbers such as 1500 or 1500.50.').transform(Number)]).pipe(z.number().min(0, 'Amounts cannot be negative.').max(1e12));
const day = z.iso.date({ error: 'Dates are written YYYY-MM-DD.' });

const listQuery = listQuerySchema(
  {
    status: z.enum(KNOWN_ORDER_STATUSES).optional(),
    organisation_id: z.uuid({ error: 'Choose an organisation from the list.' }).optional(),
    date_gte: day.optional(),
    date_lte: day.optional(),
    total_gte: amount.optional(),
    total_lte: amount.optional(),
    awaiting_shipment: booleanFilter.optional(),
  },
  ['created_at', 'total_amount', 'status', 'order_number', 'company_name', 'estimated_delivery', 'item_count'],
);
type ListQueryOf = z.infer<typeof listQuery>;

const filtersOf = (q: ListQueryOf): OrderFilters => ({
  ids: q.ids,
  status: q.filters.status,
  organisationId: q.filters.organisation_id,
  dateFrom: q.filters.date_gte,
  dateTo: q.filters.date_lte,
  totalMin: q.filters.total_gte,
  totalMax: q.filters.total_lte,
  awaitingShipment: q.filters.awaiting_shipment,
  search: q.search,
});

/** The total GET /orders answers under a react-admin `filter`, for the same scope (the dashboards' cards count with it). */
export async function orderListTotal(db: Services['pool'], scope: OrderScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = listQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  return (await listOrders(db, scope, filtersOf(q), { offset: 0, limit: 1 })).total;
}

const iso = (date: Date | null) => date?.toISOString() ?? '';
const CSV_COLUMNS: CsvColumns<OrderExportRow> = [
  ['order_number', (o) => o.order_number],
  ['order_date', (o) => iso(o.created_at)],
  ['company_name', (o) => o.company_name],
  ['placed_by', (o) => o.placed_by_name],
  ['status', (o) => statusLabel(o.status)],
  ['units', (o) => o.item_count],
  ['total_amount', (o) => Number(o.total_amount).toFixed(2)],
  ['requested_delivery', (o) => o.estimated_delivery],
  ['country', (o) => o.country],
  ['shipped_at', (o) => iso(o.shipped_at)],
  ['carrier', (o) => o.carrier],
  ['tracking_number', (o) => o.tracking_number],
  ['delivered_at', (o) => iso(o.delivered_at)],
  ['cancelled_at', (o) => iso(o.cancelled_at)],
  ['id', (o) => o.id],
];

/**
 * The status update answers `success`, `message` and `details` (spec 001 §3), refusals included:
 * a refused transition carries 'Cannot change status from X to Y' in `details` as well as in the
 * shared error envelope.
 */
export function statusErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError && error.code === 'INVALID_STATUS_TRANSITION') {
    return reply.status(409).send({ success: false, message: error.message, details: error.details, error: { code: error.code, message: error.message, details: error.details } });
  }
  throw error;
}

export async function orderRoutes(parent: FastifyInstance, services: Services, answers: AnswerCache): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool } = services;
  const scopeOf = (request: FastifyRequest): OrderScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** An order the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string) => {
    const order = await findOrder(pool, id, scopeOf(request));
    if (!order) throw new HttpError(404, 'NOT_FOUND', ORDER_MESSAGES.notFound);
    return order;
  };

  app.get('/orders', { schema: { tags: ['orders'], summary: "Orders: the caller's organisation's, or all for admins, manufacturers and support", querystring: listQuery } }, cachedRead(answers, async (request: FastifyRequest<{ Querystring: z.output<typeof listQuery> }>, reply) => {
    const q = request.query;
    const after = q.after === undefined ? undefined : decodeOrderCursor(q.after);
    if (q.after !== undefined && !after) throw new HttpError(400, 'VALIDATION_ERROR', 'After must be a cursor from a previous page.', [{ field: 'after', message: 'After must be a cursor from a previous page.' }]);
    if (!after && q.offset >= MAX_PAGE_OFFSET) throw new HttpError(400, 'VALIDATION_ERROR', ORDER_LIST_MESSAGES.tooDeep, [{ field: 'page', message: ORDER_LIST_MESSAGES.tooDeep }]);
    const { rows, total } = await listOrders(pool, scopeOf(request), filtersOf(q), { offset: q.offset, limit: q.limit, sort: q.sort, after });
    // Deep pages: `nextCursor` continues newest-first without an OFFSET.
    const last = rows.length === q.limit && (!q.sort || (q.sort.field === 'created_at' && q.sort.order === 'DESC')) ? rows.at(-1) : undefined;
    return sendList(reply, 'orders', q, rows, total, last ? encodeOrderCursor(last) : undefined);
  }));

  app.get('/orders/counts', { schema: { tags: ['orders'], summary: 'How many orders each status tab holds, under the same filters as the list (its own status left out)', querystring: listQuery } }, async (request) => {
    return { success: true, data: await orderStatusCounts(pool, scopeOf(request), filtersOf(request.query)) };
  });

  app.get('/orders/export', { schema: { tags: ['orders'], summary: 'CSV of every order the list filters select, in the list order', querystring: listQuery } }, async (request, reply) => {
    const q = request.query;
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
    reply.header('cache-control', 'private, no-store');
    return reply.send(Readable.from(csvLines(CSV_COLUMNS, allOrders(pool, scopeOf(request), filtersOf(q), q.sort))));
  });

  app.get('/orders/organisations', { schema: { tags: ['orders'], summary: 'The organisations the caller may filter orders by (their own only, unless they see all)' } }, async (request) => {
    return { success: true, data: await orderOrganisations(pool, scopeOf(request)) };
  });

  app.get(
    '/orders/shipping-profile',
    { schema: { tags: ['orders'], summary: "The ordering organisation's profile as a shipping address (prefills the shipping form)" } },
    async (request) => ({ success: true, data: await orderShippingProfile(pool, request.principal.organisationId) }),
  );

  app.get('/orders/stats', { schema: { tags: ['orders'], summary: "Order statistics of the orders the caller sees" } }, async (request) => {
    return { success: true, data: await orderStatistics(pool, scopeOf(request)) };
  });

  app.get('/orders/:id', { schema: { tags: ['orders'], summary: 'One order (with asOf: as it was at that moment)', params: orderParam, querystring: asOfQuery } }, cachedRead(answers, async (request: FastifyRequest<{ Params: z.output<typeof orderParam>; Querystring: z.output<typeof asOfQuery> }>) => {
    const order = await load(request, request.params.id);
    if (request.query.asOf) return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.orders, order.id, request.query.asOf, request.principal, ORDER_MESSAGES.notFound));
    return { success: true, data: order };
  }));

  versionsRoute(app, services, { path: '/orders', type: VERSIONED_RECORDS.orders, params: orderParam, notFound: ORDER_MESSAGES.notFound, visible: async (request, id) => (await load(request, id)).id });

  app.get(
    '/orders/:id/track',
    { schema: { tags: ['orders'], summary: "An order and its status timeline", params: orderParam } },
    async (request) => {
      const order = await load(request, request.params.id);
      const history = await statusHistoryOf(pool, 'orders', order.id);
      return { success: true, data: { order, timeline: history } };
    },
  );

  app.get('/orders/:id/history', { schema: { tags: ['orders'], summary: "An order's status history", params: orderParam } }, async (request) => {
    const order = await load(request, request.params.id);
    return { success: true, data: await statusHistoryOf(pool, 'orders', order.id) };
  });

  app.post(
    '/orders',
    {
      schema: { tags: ['orders'], summary: 'Place an order (prices come from the catalogue; an Idempotency-Key header makes a retry safe)', body: createBody },
    },
    async (request, reply) => {
      const body = request.body;
      const { principal } = request;
      if (body.partner_id !== undefined && body.partner_id !== null && body.partner_id !== '' && ![principal.id, principal.organisationId].includes(String(body.partner_id))) {
        throw new HttpError(403, 'FORBIDDEN', 'Orders can only be placed for your own organisation.', [{ field: 'partner_id', message: 'Leave this out or send your own id.' }]);
      }
      const project = body.project_id ? await findProjectRow(pool, body.project_id, { organisationId: principal.organisationId }) : undefined;
      if (body.project_id && !project) throw new HttpError(400, 'VALIDATION_ERROR', "Choose one of your organisation's projects.", [{ field: 'project_id', message: "Choose one of your organisation's projects." }]);
      if (project && !isLinkableProject(project)) throw new HttpError(400, 'VALIDATION_ERROR', NOT_LINKABLE_MESSAGE, [{ field: 'project_id', message: NOT_LINKABLE_MESSAGE }]);
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      const orderId = newRecordId(request, 'order');
      const location = `/api/orders/${orderId}`;
      const read = async () => ({ success: true, message: ORDER_MESSAGES.created, data: await load(request, orderId) });
      // A repeated Idempotency-Key answers the order the first request placed.
      const earlier = await earlierCreation(services, request, orders.streamId(orderId), orderId);
      if (earlier) return answerCreated(services, reply, { id: orderId, location, earlier }, read);
      const placed = await placeOrder(
        services,
        {
          orderId,
          organisationId: principal.organisationId,
          companyName: organisation ? organisation.company_name : principal.companyName,
          placedBy: principal.id,
          items: body.items.map((item) => ({ productId: item.product_id, quantity: item.quantity })),
          shippingAddress: body.shipping_address as ShippingAddress,
          estimatedDelivery: body.estimated_delivery ?? '',
          notes: body.notes ?? null,
        },
        metadataFromRequest(request),
      );
      // A request with the same key placed it in the meantime.
      if (!placed.created) return answerCreated(services, reply, { id: orderId, location, earlier: await earlierCreation(services, request, orders.streamId(orderId), orderId) }, read);
      if (project) await linkOrderAtCheckout(services, project.id, orderId, metadataFromRequest(request));
      return answerCreated(services, reply, { id: orderId, location }, read);
    },
  );

  app.put(
    '/orders/admin/:id/status',
    {
      errorHandler: statusErrorHandler,
      schema: { tags: ['orders'], summary: "Change an order's status (administrators; spec 001 §4)", params: orderParam, body: statusBody },
    },
    async (request) => {
      const order = await load(request, request.params.id);
      const { carrier, tracking_number: trackingNumber } = request.body;
      const shipment = carrier || trackingNumber ? { carrier: carrier ?? '', trackingNumber: trackingNumber ?? '' } : null;
      const result = await changeOrderStatus(services, order.id, request.body.status, request.body.notes ?? null, metadataFromRequest(request), shipment);
      const changed = result.events.find((event) => event.type === 'OrderStatusChanged.v1');
      const updated = await load(request, order.id);
      return {
        success: true,
        message: ORDER_MESSAGES.statusUpdated(updated.order_number, updated.status),
        details: changed ? `Status changed from ${changed.data.previousStatus} to ${updated.status}` : `Status is ${updated.status}`,
        data: updated,
      };
    },
  );
}

