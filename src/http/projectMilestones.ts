import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  messageAnswer,
  MILESTONE_READ_ONLY_FIELDS,
  milestoneAnswer,
  milestoneCreateBody,
  milestoneCreatedAnswers,
  milestoneFields,
  milestoneListAnswer,
} from '../../contracts/projects';
import { PROJECT_MESSAGES, projects } from '../../domain/projects/projects';
import { findMilestone, milestonesOf } from '../../projections/projects';
import { HttpError } from '../plugins/errors';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { projectAccess } from './projectAccess';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';

const milestoneUpdateBody = updateBody(milestoneFields, MILESTONE_READ_ONLY_FIELDS).meta({
  example: { name: 'Site survey', date: '2027-01-16', status: 'completed' },
});

/** A project's milestones (spec 001 §7), dated within the project's start and expected closure. */
export async function projectMilestoneRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const { load, loadForChange, command } = projectAccess(services);
  const tags = ['projects'];

  app.get(
    '/projects/:id/milestones',
    { schema: { tags, summary: "The project's milestones, by date", params: uuidParam, response: { 200: milestoneListAnswer } } },
    async (request) => {
      const row = await load(request, request.params.id, reads);
      return { success: true as const, data: await milestonesOf(reads, row.id) };
    },
  );

  const loadMilestone = async (request: FastifyRequest, id: string, forChange: boolean, db: Queryable = pool) => {
    const milestone = await findMilestone(db, id);
    if (!milestone) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.milestoneNotFound);
    const project = await (forChange ? loadForChange : load)(request, milestone.project_id, db).catch(() => {
      throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.milestoneNotFound);
    });
    return { milestone, project };
  };

  app.post(
    '/projects/milestones',
    { schema: { tags, summary: 'Add a milestone (project_id, name, date, status)', body: milestoneCreateBody, response: milestoneCreatedAnswers } },
    async (request, reply) => {
      const body = request.body;
      const row = await loadForChange(request, body.project_id);
      const milestoneId = newRecordId(request, 'milestone');
      const created = { id: milestoneId, location: `/api/projects/milestones/${milestoneId}` };
      const read = async () => recordAnswer((await findMilestone(pool, milestoneId))!, 'Milestone created successfully');
      const earlier = await earlierCreation(services, request, projects.streamId(row.id), milestoneId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      await command(request, row.id, {
        type: 'AddMilestone',
        milestoneId,
        name: body.name ?? body.title ?? '',
        date: body.date ?? '',
        status: body.status ?? 'pending',
      });
      return answerCreated(services, reply, created, read);
    },
  );

  app.get(
    '/projects/milestones/:id',
    { schema: { tags, summary: 'One milestone', params: uuidParam, response: { 200: milestoneAnswer } } },
    async (request) => {
      const { milestone } = await loadMilestone(request, request.params.id, false, reads);
      return recordAnswer(milestone);
    },
  );

  app.put(
    '/projects/milestones/:id',
    {
      schema: {
        tags,
        summary: 'Update a milestone (fields not sent keep their value)',
        params: uuidParam,
        body: milestoneUpdateBody,
        response: { 200: milestoneAnswer },
      },
    },
    async (request) => {
      const { milestone, project } = await loadMilestone(request, request.params.id, true);
      const body = request.body;
      await command(request, project.id, {
        type: 'UpdateMilestone',
        milestoneId: milestone.id,
        name: body.name ?? body.title ?? milestone.name,
        date: body.date ?? milestone.date,
        status: body.status ?? milestone.status,
      });
      return recordAnswer((await findMilestone(pool, milestone.id))!, 'Milestone updated successfully');
    },
  );

  app.delete(
    '/projects/milestones/:id',
    { schema: { tags, summary: 'Remove a milestone', params: uuidParam, response: { 200: messageAnswer } } },
    async (request) => {
      const { milestone, project } = await loadMilestone(request, request.params.id, true);
      await command(request, project.id, { type: 'RemoveMilestone', milestoneId: milestone.id });
      return { success: true as const, message: 'Milestone deleted successfully' };
    },
  );
}
