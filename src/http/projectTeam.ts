import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memberParam, teamAnswer, teamBody, teamCandidatesAnswer, teamChangeAnswer } from '../../contracts/projects';
import { organisationUsers, teamOf } from '../../projections/projects';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';
import { projectAccess } from './projectAccess';
import { uuidParam } from './validation';

/** A project's team (project_teams): active users of the project's organisation. */
export async function projectTeamRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const { load, loadForChange, ownProject, command } = projectAccess(services);
  const tags = ['projects'];

  app.get(
    '/projects/:id/team',
    { schema: { tags, summary: "The project's team (project_teams)", params: uuidParam, response: { 200: teamAnswer } } },
    async (request) => {
      const row = await load(request, request.params.id, reads);
      return { success: true as const, data: await teamOf(reads, row.id) };
    },
  );

  app.get(
    '/projects/:id/team/candidates',
    {
      schema: { tags, summary: "Active users of the project's organisation who may join its team", params: uuidParam, response: { 200: teamCandidatesAnswer } },
    },
    async (request) => {
      const row = await loadForChange(request, request.params.id, reads);
      const members = new Set((await teamOf(reads, row.id)).map((m) => m.user_id));
      return { success: true as const, data: (await organisationUsers(reads, row.organisation_id)).filter((u) => !members.has(u.id)) };
    },
  );

  app.post(
    '/projects/:id/team',
    {
      ...ownProject,
      schema: { tags, summary: "Add a user of the project's organisation to its team", params: uuidParam, body: teamBody, response: { 201: teamChangeAnswer } },
    },
    async (request, reply) => {
      const row = await loadForChange(request, request.params.id);
      const candidates = await organisationUsers(pool, row.organisation_id);
      if (!candidates.some((u) => u.id === request.body.user_id)) {
        throw new HttpError(400, 'VALIDATION_ERROR', "Only active users of the project's organisation can join its team.", [
          { field: 'user_id', message: 'Choose a member of the organisation.' },
        ]);
      }
      await command(request, row.id, { type: 'AddTeamMember', userId: request.body.user_id });
      reply.status(201);
      return { success: true as const, message: 'Team member added', data: await teamOf(pool, row.id) };
    },
  );

  app.delete(
    '/projects/:id/team/:userId',
    { ...ownProject, schema: { tags, summary: 'Remove a member from the project team', params: memberParam, response: { 200: teamChangeAnswer } } },
    async (request) => {
      const row = await loadForChange(request, request.params.id);
      await command(request, row.id, { type: 'RemoveTeamMember', userId: request.params.userId });
      return { success: true as const, message: 'Team member removed', data: await teamOf(pool, row.id) };
    },
  );
}
