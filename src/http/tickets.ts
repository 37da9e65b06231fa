import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasPermission, seesAllOrganisations } from '../../domain/access';
import { MAX_TICKET_ATTACHMENTS, TICKET_MESSAGES, isSupportStaff, tickets, type TicketAttachment } from '../../domain/tickets/tickets';
import { asOfRecordAnswer, statusHistoryAnswer } from '../../contracts/identity';
import {
  assignBody,
  assigneesAnswer,
  commentBody,
  commentCreatedAnswers,
  commentsAnswer,
  deletedTicketAnswer,
  rmaBody,
  statusBody,
  supportDashboardAnswer,
  ticketAnswer,
  ticketCreatedAnswers,
  ticketCreateFields,
  ticketListAnswer,
  ticketListQuery,
  ticketParam,
  TICKET_READ_ONLY_FIELDS,
  ticketStatisticsAnswer,
  ticketUpdateFields,
  warrantyCheckAnswer,
  warrantyCheckBody,
  type Ticket,
} from '../../contracts/tickets';
import { statusHistoryOf } from '../../projections/statusHistory';
import {
  findTicket,
  listTickets,
  supportDashboardFigures,
  ticketAssignees,
  ticketComments,
  ticketStatistics,
  ticketWithAttachment,
  type TicketScope,
} from '../../projections/tickets';
import { findUser } from '../../projections/users';
import { findUnit } from '../../projections/warranty';
import { warrantyChecks, WARRANTY_MESSAGES } from '../../domain/warranty/warranty';
import { metadataFromRequest, newId, runCommand } from '../../platform/commands/dispatch';
import { assigneeOf, openTicket } from '../../commands/tickets';
import { HttpError } from '../plugins/errors';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { DOCUMENT_TYPES, readMultipart, sendUpload, uploadNameParam } from '../plugins/uploads';
import { removeUpload, storeUpload } from '../../platform/uploadStorage';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { sendList } from './lists';
import { validationError } from './validation';
import { recordAnswer, updateBody } from './records';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { readBatch } from '../../platform/readBatch';

const ATTACHMENT_RULE = { label: 'Attachments', types: DOCUMENT_TYPES, maxBytes: 10 * 1024 * 1024, maxCount: MAX_TICKET_ATTACHMENTS };

const updateTicketBody = updateBody(ticketUpdateFields, TICKET_READ_ONLY_FIELDS).meta({
  example: { title: 'Switch reboots every night', priority: 'High', tags: ['firmware'], due_date: '2027-01-15' },
});

export async function ticketRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const scopeOf = (request: FastifyRequest): TicketScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
    seesInternal: isSupportStaff(request.principal.role),
  });
  /** A ticket the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const ticket = await findTicket(db, id, scopeOf(request));
    if (!ticket) throw new HttpError(404, 'NOT_FOUND', TICKET_MESSAGES.notFound);
    return ticket;
  };
  const withComments = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const ticket = await load(request, id, db);
    return { ...ticket, comments: await ticketComments(db, ticket.id, scopeOf(request)) };
  };
  /**
   * Record scope before the body is validated: a ticket of another organisation is answered 404
   * whatever the body, so a refusal never tells which of its fields were wrong.
   */
  const visibleTicket = async (request: FastifyRequest) => {
    const id = (request.params as { id?: unknown }).id;
    const parsed = ticketParam.safeParse({ id });
    if (parsed.success) await load(request, parsed.data.id);
  };
  const run = (request: FastifyRequest, id: string, command: Parameters<typeof tickets.decide>[0]) =>
    runCommand(services, tickets, id, command, metadataFromRequest(request));

  app.get(
    '/tickets',
    {
      schema: {
        tags: ['tickets'],
        summary: "Tickets the caller sees, with the statistics cards' figures",
        querystring: ticketListQuery,
        response: { 200: ticketListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const scope = scopeOf(request);
      // The page and, for the spec's answer, the statistics beside it leave together (readBatch): one round trip.
      const db = q.reactAdmin ? reads : readBatch(reads);
      const [{ rows, total }, statistics] = await Promise.all([
        listTickets(db, scope, { ids: q.ids, search: q.search, ...q.filters }, { offset: q.offset, limit: q.limit, sort: q.sort }),
        q.reactAdmin ? null : ticketStatistics(db, scope),
      ]);
      if (q.reactAdmin || !statistics) return sendList(reply, 'tickets', q, rows, total) as Ticket[];
      const totalPages = Math.max(1, Math.ceil(total / q.limit));
      return {
        success: true as const,
        data: {
          tickets: rows,
          total,
          page: q.page,
          limit: q.limit,
          totalPages,
          statistics,
          pagination: { page: q.page, limit: q.limit, total, total_pages: totalPages },
        },
      };
    },
  );

  app.get(
    '/tickets/statistics',
    { schema: { tags: ['tickets'], summary: 'Ticket statistics of the tickets the caller sees', response: { 200: ticketStatisticsAnswer } } },
    async (request) => {
      return { success: true as const, data: await ticketStatistics(reads, scopeOf(request)) };
    },
  );

  app.get(
    '/tickets/dashboard',
    { schema: { tags: ['tickets'], summary: "The support dashboard's ticket figures (support staff and admins)", response: { 200: supportDashboardAnswer } } },
    async () => {
      return { success: true as const, data: await supportDashboardFigures(reads) };
    },
  );

  app.get(
    '/tickets/assignees',
    { schema: { tags: ['tickets'], summary: 'Who a ticket may be assigned to: active support staff and administrators', response: { 200: assigneesAnswer } } },
    async () => {
      const users = await ticketAssignees(reads);
      return { success: true as const, data: users };
    },
  );

  app.get(
    '/tickets/attachments/:name',
    {
      schema: {
        tags: ['tickets'],
        summary: "A ticket's attachment, for those who see the ticket",
        params: uploadNameParam,
        response: { 200: z.string().describe("The attached file's bytes, with its own content type (a document or an image)") },
      },
    },
    async (request, reply) => {
      const attachment = await ticketWithAttachment(reads, request.params.name, scopeOf(request));
      if (!attachment) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
      return sendUpload(reply, services.config.UPLOAD_DIR, request.params.name, 'private', attachment.originalName);
    },
  );

  app.get(
    '/tickets/:id',
    {
      schema: {
        tags: ['tickets'],
        summary: 'One ticket with its conversation (internal notes for support staff only); with asOf: the ticket as it was at that moment',
        params: ticketParam,
        querystring: asOfQuery,
        response: { 200: z.union([asOfRecordAnswer, ticketAnswer]) },
      },
    },
    async (request) => {
      if (!request.query.asOf) return recordAnswer(await withComments(request, request.params.id, reads));
      const ticket = await load(request, request.params.id, reads);
      return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.tickets, ticket.id, request.query.asOf, request.principal, TICKET_MESSAGES.notFound));
    },
  );

  versionsRoute(app, services, {
    path: '/tickets',
    type: VERSIONED_RECORDS.tickets,
    params: ticketParam,
    notFound: TICKET_MESSAGES.notFound,
    visible: async (request, id) => (await load(request, id, reads)).id,
  });

  app.get(
    '/tickets/:id/comments',
    {
      schema: {
        tags: ['tickets'],
        summary: "A ticket's conversation (internal notes for support staff only)",
        params: ticketParam,
        response: { 200: commentsAnswer },
      },
    },
    async (request) => {
      const ticket = await load(request, request.params.id, reads);
      return { success: true as const, data: await ticketComments(reads, ticket.id, scopeOf(request)) };
    },
  );

  app.get(
    '/tickets/:id/history',
    { schema: { tags: ['tickets'], summary: "A ticket's status history", params: ticketParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const ticket = await load(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'tickets', ticket.id) };
    },
  );

  app.post(
    '/tickets',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Open a ticket (multipart: the form fields, tags comma separated, up to 5 attachments)',
        consumes: ['multipart/form-data'],
        response: ticketCreatedAnswers,
      },
    },
    async (request, reply) => {
      const { principal } = request;
      const form = await readMultipart(request, { attachments: ATTACHMENT_RULE });
      const fields = Object.fromEntries(
        Object.entries(form.fields).map(([key, value]) => [key, key === 'tags' || !Array.isArray(value) ? value : value[value.length - 1]]),
      );
      const parsed = ticketCreateFields.safeParse(fields);
      if (!parsed.success) throw validationError(parsed.error.issues);
      const body = parsed.data;
      if (body.assigned_to && !hasPermission(principal, 'Support.Update')) {
        throw new HttpError(403, 'FORBIDDEN', 'Only support staff can assign tickets.', [{ field: 'assigned_to', message: 'Leave this out.' }]);
      }
      // Support staff open a case for someone: they choose who works it (the form asks the same).
      if (!body.assigned_to && isSupportStaff(principal.role)) {
        throw new HttpError(400, 'VALIDATION_ERROR', TICKET_MESSAGES.assigneeRequired, [{ field: 'assigned_to', message: TICKET_MESSAGES.assigneeRequired }]);
      }
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      const files = form.files.attachments ?? [];
      const stored: TicketAttachment[] = [];
      const ticketId = newRecordId(request, 'ticket');
      const created = { id: ticketId, location: `/api/tickets/${ticketId}` };
      const read = async () => recordAnswer(await withComments(request, ticketId), TICKET_MESSAGES.created);
      const earlier = await earlierCreation(services, request, tickets.streamId(ticketId), ticketId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      try {
        for (const file of files)
          stored.push({ name: await storeUpload(services.config.UPLOAD_DIR, file, 'private'), originalName: file.originalName.slice(0, 200), type: file.type });
        await openTicket(
          services,
          {
            ticketId,
            organisationId: principal.organisationId,
            companyName: organisation ? organisation.company_name : principal.companyName,
            title: body.title ?? '',
            description: body.description ?? '',
            priority: body.priority,
            category: body.category,
            tags: body.tags,
            dueDate: body.due_date,
            assignedTo: body.assigned_to,
            initialComment: body.initial_comment ? { commentId: newId(), comment: body.initial_comment } : null,
            attachments: stored,
          },
          metadataFromRequest(request),
        );
      } catch (error) {
        for (const file of stored) await removeUpload(services.config.UPLOAD_DIR, file.name, 'private');
        throw error;
      }
      return answerCreated(services, reply, created, read);
    },
  );

  app.post(
    '/warranty/checks',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Look up a shipped unit by serial number: product, order, delivery and warranty end (each check is recorded)',
        body: warrantyCheckBody,
        response: { 200: warrantyCheckAnswer },
      },
    },
    async (request) => {
      const { principal } = request;
      const scope = scopeOf(request);
      const unit = await findUnit(pool, request.body.serial_number, scope.organisationId);
      const checkId = newId();
      await runCommand(
        services,
        warrantyChecks,
        checkId,
        {
          type: 'RecordWarrantyCheck',
          checkId,
          serialNumber: request.body.serial_number,
          organisationId: principal.organisationId,
          unit: unit ? { orderId: unit.order_id, underWarranty: unit.under_warranty } : null,
        },
        metadataFromRequest(request),
      );
      if (!unit) return { success: true as const, found: false, message: WARRANTY_MESSAGES.notFound(request.body.serial_number.toUpperCase()), data: null };
      return { success: true as const, found: true, message: unit.under_warranty ? WARRANTY_MESSAGES.underWarranty : WARRANTY_MESSAGES.expired, data: unit };
    },
  );

  app.post(
    '/tickets/rma',
    {
      schema: {
        tags: ['tickets'],
        summary: 'Request a return (RMA) for a shipped unit under warranty: opens a ticket of category RMA linked to the order and unit',
        body: rmaBody,
        response: ticketCreatedAnswers,
      },
    },
    async (request, reply) => {
      const { principal } = request;
      const unit = await findUnit(pool, request.body.serial_number, scopeOf(request).organisationId);
      if (!unit)
        throw new HttpError(404, 'NOT_FOUND', WARRANTY_MESSAGES.notFound(request.body.serial_number.toUpperCase()), [
          { field: 'serial_number', message: 'No shipped unit of yours has this serial number.' },
        ]);
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      const ticketId = newRecordId(request, 'rma');
      const created = { id: ticketId, location: `/api/tickets/${ticketId}` };
      const read = async () => recordAnswer(await withComments(request, ticketId), TICKET_MESSAGES.rmaCreated);
      const earlier = await earlierCreation(services, request, tickets.streamId(ticketId), ticketId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      await openTicket(
        services,
        {
          ticketId,
          organisationId: principal.organisationId,
          companyName: organisation ? organisation.company_name : principal.companyName,
          title: request.body.title?.trim() || `RMA: ${unit.product_name} ${unit.serial_number}`,
          description:
            request.body.description?.trim() || `Return requested for ${unit.product_name}, serial number ${unit.serial_number}, order ${unit.order_number}.`,
          priority: 'High',
          attachments: [],
          rma: {
            serialNumber: unit.serial_number,
            orderId: unit.order_id,
            orderNumber: unit.order_number,
            productName: unit.product_name,
            underWarranty: unit.under_warranty,
          },
        },
        metadataFromRequest(request),
      );
      return answerCreated(services, reply, created, read);
    },
  );

  app.patch(
    '/tickets/:id/status',
    {
      preValidation: visibleTicket,
      schema: {
        tags: ['tickets'],
        summary: "Change a ticket's status, with an optional comment (internal or public)",
        params: ticketParam,
        body: statusBody,
        response: { 200: ticketAnswer },
      },
    },
    async (request) => {
      const ticket = await load(request, request.params.id);
      const { status, comment, is_internal, resolution_notes } = request.body;
      await run(request, ticket.id, {
        type: 'ChangeTicketStatus',
        status,
        comment: comment ? { commentId: newId(), comment, isInternal: is_internal ?? false } : null,
        resolutionNotes: resolution_notes ?? null,
      });
      return recordAnswer(await withComments(request, ticket.id), TICKET_MESSAGES.statusUpdated);
    },
  );

  app.post(
    '/tickets/:id/comments',
    {
      preValidation: visibleTicket,
      schema: {
        tags: ['tickets'],
        summary: 'Add a reply or (support staff) an internal note',
        params: ticketParam,
        body: commentBody,
        response: commentCreatedAnswers,
      },
    },
    async (request, reply) => {
      const ticket = await load(request, request.params.id);
      const commentId = newRecordId(request, 'comment');
      const created = { id: commentId, location: `/api/tickets/${ticket.id}/comments` };
      const read = async () => {
        const comments = await ticketComments(pool, ticket.id, scopeOf(request));
        return { success: true as const, message: TICKET_MESSAGES.commentAdded, data: comments.find((c) => c.id === commentId) ?? null, comments };
      };
      const earlier = await earlierCreation(services, request, tickets.streamId(ticket.id), commentId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      await run(request, ticket.id, { type: 'AddComment', commentId, comment: request.body.comment, isInternal: request.body.is_internal ?? false });
      return answerCreated(services, reply, created, read);
    },
  );

  app.patch(
    '/tickets/:id/assign',
    {
      preValidation: visibleTicket,
      schema: {
        tags: ['tickets'],
        summary: 'Assign a ticket to support staff or an administrator',
        params: ticketParam,
        body: assignBody,
        response: { 200: ticketAnswer },
      },
    },
    async (request) => {
      const ticket = await load(request, request.params.id);
      const assignee = await assigneeOf(services, request.body.assigned_to);
      const comment = request.body.comment?.trim();
      await run(request, ticket.id, { type: 'AssignTicket', assignee: assignee ?? null, comment: comment ? { commentId: newId(), comment } : null });
      return recordAnswer(await withComments(request, ticket.id), TICKET_MESSAGES.assigned);
    },
  );

  app.put(
    '/tickets/:id',
    {
      preValidation: visibleTicket,
      schema: {
        tags: ['tickets'],
        summary: "Change a ticket's title, description, priority, category, tags or due date",
        params: ticketParam,
        body: updateTicketBody,
        response: { 200: ticketAnswer },
      },
    },
    async (request) => {
      const ticket = await load(request, request.params.id);
      const b = request.body;
      await run(request, ticket.id, {
        type: 'UpdateTicket',
        title: b.title,
        description: b.description,
        priority: b.priority,
        category: b.category,
        tags: b.tags,
        dueDate: b.due_date ?? undefined,
      });
      return recordAnswer(await withComments(request, ticket.id), TICKET_MESSAGES.updated);
    },
  );

  app.delete(
    '/tickets/:id',
    {
      preValidation: visibleTicket,
      schema: {
        tags: ['tickets'],
        summary: 'Delete a ticket (its history stays in the event log)',
        params: ticketParam,
        response: { 200: deletedTicketAnswer },
      },
    },
    async (request) => {
      const ticket = await load(request, request.params.id);
      await run(request, ticket.id, { type: 'DeleteTicket' });
      return recordAnswer(ticket, TICKET_MESSAGES.deleted);
    },
  );
}
