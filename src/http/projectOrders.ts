import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { linkedOrdersAnswer, linkedOrdersChangeAnswer, orderBody, orderCandidatesAnswer, orderParam } from '../../contracts/projects';
import { isLinkableProject, NOT_LINKABLE_MESSAGE } from '../../domain/projects/projects';
import { findOrder, listOrders } from '../../projections/orderQueries';
import { linkedOrderIds, type ProjectRow } from '../../projections/projects';
import { HttpError } from '../plugins/errors';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { projectAccess } from './projectAccess';
import { uuidParam } from './validation';

/** The orders of the project's organisation linked to the project. */
export async function projectOrderRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const { load, loadForChange, ownProject, command } = projectAccess(services);
  const tags = ['projects'];

  const ordersOf = async (row: ProjectRow, db: Queryable = pool) => {
    const ids = await linkedOrderIds(db, row.id);
    return (await Promise.all(ids.map((id) => findOrder(db, id, { organisationId: row.organisation_id })))).filter((order) => order !== undefined);
  };

  app.get(
    '/projects/:id/orders',
    { schema: { tags, summary: 'The orders linked to the project', params: uuidParam, response: { 200: linkedOrdersAnswer } } },
    async (request) => {
      const row = await load(request, request.params.id, reads);
      return { success: true as const, data: await ordersOf(row, reads) };
    },
  );

  app.get(
    '/projects/:id/orders/candidates',
    { schema: { tags, summary: "The organisation's orders not yet linked to the project", params: uuidParam, response: { 200: orderCandidatesAnswer } } },
    async (request) => {
      const row = await loadForChange(request, request.params.id, reads);
      const linked = new Set(await linkedOrderIds(reads, row.id));
      const { rows } = await listOrders(reads, { organisationId: row.organisation_id }, {}, { offset: 0, limit: 100 });
      return { success: true as const, data: rows.filter((o) => !linked.has(o.id)) };
    },
  );

  app.post(
    '/projects/:id/orders',
    {
      ...ownProject,
      schema: {
        tags,
        summary: "Link one of the organisation's orders to the project",
        params: uuidParam,
        body: orderBody,
        response: { 201: linkedOrdersChangeAnswer },
      },
    },
    async (request, reply) => {
      const row = await loadForChange(request, request.params.id);
      const order = await findOrder(pool, request.body.order_id, { organisationId: row.organisation_id });
      if (!order)
        throw new HttpError(400, 'VALIDATION_ERROR', "Only the organisation's own orders can be linked.", [
          { field: 'order_id', message: 'Choose one of the organisation’s orders.' },
        ]);
      if (!isLinkableProject(row)) throw new HttpError(409, 'CONFLICT', NOT_LINKABLE_MESSAGE);
      await command(request, row.id, { type: 'LinkOrder', orderId: order.id });
      reply.status(201);
      return { success: true as const, message: 'Order linked to the project', data: await ordersOf(row) };
    },
  );

  app.delete(
    '/projects/:id/orders/:orderId',
    { ...ownProject, schema: { tags, summary: 'Unlink an order from the project', params: orderParam, response: { 200: linkedOrdersChangeAnswer } } },
    async (request) => {
      const row = await loadForChange(request, request.params.id);
      await command(request, row.id, { type: 'UnlinkOrder', orderId: request.params.orderId });
      return { success: true as const, message: 'Order unlinked from the project', data: await ordersOf(row) };
    },
  );
}
