import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bulkReviewAnswer, extensionBody, extensionDecisionBody, projectCommandAnswer, reviewBody } from '../../contracts/projects';
import { REJECTION_REASON_MAX } from '../../domain/partners/application';
import type { Services } from '../../platform/services';
import { bulkMessage, bulkReviewBody, eachRecord } from './bulk';
import { projectAccess } from './projectAccess';
import { uuidParam } from './validation';

const bulkBody = bulkReviewBody('registration', REJECTION_REASON_MAX, {
  decision: 'rejected',
  reason: 'The customer is already covered by a direct agreement.',
});

/** A project's registration: the administrators' review (one or several) and the one extension. */
export async function projectRegistrationRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { config } = services;
  const { load, loadForChange, ownProject, viewFor, command } = projectAccess(services);
  const tags = ['projects'];

  app.post(
    '/projects/:id/review',
    {
      ...ownProject,
      schema: {
        tags,
        summary: 'Approve or reject a registration (admins; a reason is required to reject, a note to approve a conflict)',
        params: uuidParam,
        body: reviewBody,
        response: { 200: projectCommandAnswer },
      },
    },
    async (request) => {
      const row = await load(request, request.params.id);
      await command(request, row.id, { type: 'ReviewRegistration', decision: request.body.decision, reason: request.body.reason ?? null });
      return {
        success: true as const,
        message: request.body.decision === 'approved' ? 'Registration approved' : 'Registration rejected',
        data: await viewFor(request, row.id),
      };
    },
  );

  app.post(
    '/projects/bulk-review',
    {
      schema: {
        tags,
        summary:
          'Approve or reject several registrations with one reason (admins): one review per registration; the answer lists which were done and which were refused and why',
        body: bulkBody,
        response: { 200: bulkReviewAnswer },
      },
    },
    async (request) => {
      const { ids, decision, reason } = request.body;
      const outcome = await eachRecord(ids, request.log, async (id) => {
        const row = await load(request, id);
        await command(request, row.id, { type: 'ReviewRegistration', decision, reason: reason ?? null });
      });
      return { success: true as const, message: bulkMessage(outcome, ['registration', 'registrations'], decision), data: outcome };
    },
  );

  app.post(
    '/projects/:id/extension',
    {
      ...ownProject,
      schema: {
        tags,
        summary: 'Request the one 30-day extension of a registration, before it expires',
        params: uuidParam,
        body: extensionBody,
        response: { 200: projectCommandAnswer },
      },
    },
    async (request) => {
      const row = await loadForChange(request, request.params.id);
      await command(request, row.id, { type: 'RequestExtension', reason: request.body.reason });
      return { success: true as const, message: 'Extension requested. An administrator will review it.', data: await viewFor(request, row.id) };
    },
  );

  app.post(
    '/projects/:id/extension/decision',
    {
      ...ownProject,
      schema: {
        tags,
        summary: 'Approve (moves the expiry by 30 days) or decline (reason required) an extension request (admins)',
        params: uuidParam,
        body: extensionDecisionBody,
        response: { 200: projectCommandAnswer },
      },
    },
    async (request) => {
      const row = await load(request, request.params.id);
      await command(request, row.id, {
        type: 'DecideExtension',
        decision: request.body.decision,
        reason: request.body.reason ?? null,
        extensionMs: config.DEAL_REGISTRATION_EXTENSION_MS,
      });
      return {
        success: true as const,
        message: request.body.decision === 'approved' ? 'Extension approved' : 'Extension declined',
        data: await viewFor(request, row.id),
      };
    },
  );
}
