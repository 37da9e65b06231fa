import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seesAllOrganisations } from '../../domain/access';
import { ORDER_MESSAGES, orders, statusLabel } from '../../domain/orders/orders';
import {
  orderBody,
  orderCountsAnswer,
  orderExportAnswer,
  orderListAnswer,
  orderOrganisationsAnswer,
  orderParam,
  orderPlacedAnswers,
  orderReadAnswer,
  orderStatisticsAnswer,
  orderStatusAnswer,
  orderStatusBody,
  orderTrackAnswer,
  shippingProfileAnswer,
  statusHistoryAnswer,
  orderListQuery,
} from '../../contracts/orders';
import type { ShippingAddress } from '../../domain/orders/shipping';
import {
  allOrders,
  decodeOrderCursor,
  encodeOrderCursor,
  findOrder,
  listOrders,
  orderOrganisations,
  orderShippingProfile,
  orderStatistics,
  orderStatusCounts,
  type OrderExportRow,
  orderFiltersOf,
  type OrderScope,
} from '../../projections/orderQueries';
import { csvLines, sendCsv, type CsvColumns } from './csv';
import { statusHistoryOf } from '../../projections/statusHistory';
import { findUser } from '../../projections/users';
import { metadataFromRequest } from '../../platform/commands/dispatch';
import { changeOrderStatus, placeOrder } from '../../commands/orders';
import { linkOrderAtCheckout } from '../../commands/projects';
import { findProjectRow } from '../../projections/projects';
import { isLinkableProject, NOT_LINKABLE_MESSAGE } from '../../domain/projects/projects';
import { HttpError } from '../plugins/errors';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { cachedRead, type AnswerCache } from './answerCache';
import { MAX_PAGE_OFFSET } from '../../contracts/lists';
import { sendList } from './lists';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { recordAnswer, statusErrorHandler } from './records';
import { answerCreated, earlierCreation, newRecordId } from './created';

export const ORDER_LIST_MESSAGES = {
  tooDeep: `Pages stop after the first ${MAX_PAGE_OFFSET.toLocaleString('en-US')} orders: narrow the filters, sort the other way, or follow nextCursor.`,
} as const;

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

// funds.ts reads the status refusal's handler from here still; its home is ./records.

export async function orderRoutes(parent: FastifyInstance, services: Services, answers: AnswerCache): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const scopeOf = (request: FastifyRequest): OrderScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** An order the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const order = await findOrder(db, id, scopeOf(request));
    if (!order) throw new HttpError(404, 'NOT_FOUND', ORDER_MESSAGES.notFound);
    return order;
  };

  /**
   * cachedRead sends the JSON it keeps itself, past the response serializer (the route's schema documents the answer);
   * the handler's answer type is still checked against the schema here.
   */
  const cached = <Request extends FastifyRequest, Answer>(handler: (request: Request, reply: FastifyReply) => Promise<Answer>) =>
    cachedRead(answers, handler) as (request: Request, reply: FastifyReply) => Promise<Answer>;

  app.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "Orders: the caller's organisation's, or all for admins, manufacturers and support",
        querystring: orderListQuery,
        response: { 200: orderListAnswer },
      },
    },
    cached(async (request: FastifyRequest<{ Querystring: z.output<typeof orderListQuery> }>, reply): Promise<z.infer<typeof orderListAnswer>> => {
      const q = request.query;
      const after = q.after === undefined ? undefined : decodeOrderCursor(q.after);
      if (q.after !== undefined && !after)
        throw new HttpError(400, 'VALIDATION_ERROR', 'After must be a cursor from a previous page.', [
          { field: 'after', message: 'After must be a cursor from a previous page.' },
        ]);
      if (!after && q.offset >= MAX_PAGE_OFFSET)
        throw new HttpError(400, 'VALIDATION_ERROR', ORDER_LIST_MESSAGES.tooDeep, [{ field: 'page', message: ORDER_LIST_MESSAGES.tooDeep }]);
      const { rows, total } = await listOrders(reads, scopeOf(request), orderFiltersOf(q), { offset: q.offset, limit: q.limit, sort: q.sort, after });
      // Deep pages: `nextCursor` continues newest-first without an OFFSET.
      const last = rows.length === q.limit && (!q.sort || (q.sort.field === 'created_at' && q.sort.order === 'DESC')) ? rows.at(-1) : undefined;
      return sendList(reply, 'orders', q, rows, total, last ? encodeOrderCursor(last) : undefined);
    }),
  );

  app.get(
    '/orders/counts',
    {
      schema: {
        tags: ['orders'],
        summary: 'How many orders each status tab holds, under the same filters as the list (its own status left out)',
        querystring: orderListQuery,
        response: { 200: orderCountsAnswer },
      },
    },
    async (request) => {
      return { success: true as const, data: await orderStatusCounts(reads, scopeOf(request), orderFiltersOf(request.query)) };
    },
  );

  app.get(
    '/orders/export',
    {
      schema: {
        tags: ['orders'],
        summary: 'CSV of every order the list filters select, in the list order',
        querystring: orderListQuery,
        response: { 200: orderExportAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      // A stream is sent as it is (no serializer); the schema's string describes the file.
      return sendCsv(reply, csvLines(CSV_COLUMNS, allOrders(pool, scopeOf(request), orderFiltersOf(q), q.sort)));
    },
  );

  app.get(
    '/orders/organisations',
    {
      schema: {
        tags: ['orders'],
        summary: 'The organisations the caller may filter orders by (their own only, unless they see all)',
        response: { 200: orderOrganisationsAnswer },
      },
    },
    async (request) => {
      return { success: true as const, data: await orderOrganisations(reads, scopeOf(request)) };
    },
  );

  app.get(
    '/orders/shipping-profile',
    {
      schema: {
        tags: ['orders'],
        summary: "The ordering organisation's profile as a shipping address (prefills the shipping form)",
        response: { 200: shippingProfileAnswer },
      },
    },
    async (request) => ({ success: true as const, data: await orderShippingProfile(reads, request.principal.organisationId) }),
  );

  app.get(
    '/orders/stats',
    { schema: { tags: ['orders'], summary: 'Order statistics of the orders the caller sees', response: { 200: orderStatisticsAnswer } } },
    async (request) => {
      return { success: true as const, data: await orderStatistics(reads, scopeOf(request)) };
    },
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags: ['orders'],
        summary: 'One order (with asOf: as it was at that moment)',
        params: orderParam,
        querystring: asOfQuery,
        response: { 200: orderReadAnswer },
      },
    },
    cached(
      async (
        request: FastifyRequest<{ Params: z.output<typeof orderParam>; Querystring: z.output<typeof asOfQuery> }>,
      ): Promise<z.infer<typeof orderReadAnswer>> => {
        const order = await load(request, request.params.id, reads);
        if (request.query.asOf)
          return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.orders, order.id, request.query.asOf, request.principal, ORDER_MESSAGES.notFound));
        return { success: true as const, data: order };
      },
    ),
  );

  versionsRoute(app, services, {
    path: '/orders',
    type: VERSIONED_RECORDS.orders,
    params: orderParam,
    notFound: ORDER_MESSAGES.notFound,
    visible: async (request, id) => (await load(request, id, reads)).id,
  });

  app.get(
    '/orders/:id/track',
    { schema: { tags: ['orders'], summary: 'An order and its status timeline', params: orderParam, response: { 200: orderTrackAnswer } } },
    async (request) => {
      const order = await load(request, request.params.id, reads);
      const history = await statusHistoryOf(reads, 'orders', order.id);
      return { success: true as const, data: { order, timeline: history } };
    },
  );

  app.get(
    '/orders/:id/history',
    { schema: { tags: ['orders'], summary: "An order's status history", params: orderParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const order = await load(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'orders', order.id) };
    },
  );

  app.post(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: 'Place an order (prices come from the catalogue; an Idempotency-Key header makes a retry safe)',
        body: orderBody,
        response: orderPlacedAnswers,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { principal } = request;
      if (
        body.partner_id !== undefined &&
        body.partner_id !== null &&
        body.partner_id !== '' &&
        ![principal.id, principal.organisationId].includes(String(body.partner_id))
      ) {
        throw new HttpError(403, 'FORBIDDEN', 'Orders can only be placed for your own organisation.', [
          { field: 'partner_id', message: 'Leave this out or send your own id.' },
        ]);
      }
      const project = body.project_id ? await findProjectRow(pool, body.project_id, { organisationId: principal.organisationId }) : undefined;
      if (body.project_id && !project)
        throw new HttpError(400, 'VALIDATION_ERROR', "Choose one of your organisation's projects.", [
          { field: 'project_id', message: "Choose one of your organisation's projects." },
        ]);
      if (project && !isLinkableProject(project))
        throw new HttpError(400, 'VALIDATION_ERROR', NOT_LINKABLE_MESSAGE, [{ field: 'project_id', message: NOT_LINKABLE_MESSAGE }]);
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      const orderId = newRecordId(request, 'order');
      const location = `/api/orders/${orderId}`;
      const read = async () => ({ success: true as const, message: ORDER_MESSAGES.created, data: await load(request, orderId) });
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
      if (!placed.created)
        return answerCreated(
          services,
          reply,
          { id: orderId, location, earlier: await earlierCreation(services, request, orders.streamId(orderId), orderId) },
          read,
        );
      if (project) await linkOrderAtCheckout(services, project.id, orderId, metadataFromRequest(request));
      return answerCreated(services, reply, { id: orderId, location }, read);
    },
  );

  app.put(
    '/orders/admin/:id/status',
    {
      errorHandler: statusErrorHandler,
      schema: {
        tags: ['orders'],
        summary: "Change an order's status (administrators; spec 001 §4)",
        params: orderParam,
        body: orderStatusBody,
        response: { 200: orderStatusAnswer },
      },
    },
    async (request) => {
      const order = await load(request, request.params.id);
      const { carrier, tracking_number: trackingNumber } = request.body;
      const shipment = carrier || trackingNumber ? { carrier: carrier ?? '', trackingNumber: trackingNumber ?? '' } : null;
      const result = await changeOrderStatus(services, order.id, request.body.status, request.body.notes ?? null, metadataFromRequest(request), shipment);
      const changed = result.events.find((event) => event.type === 'OrderStatusChanged.v1');
      const updated = await load(request, order.id);
      return {
        success: true as const,
        message: ORDER_MESSAGES.statusUpdated(updated.order_number, updated.status),
        details: changed ? `Status changed from ${changed.data.previousStatus} to ${updated.status}` : `Status is ${updated.status}`,
        data: updated,
      };
    },
  );
}
