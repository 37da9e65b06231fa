import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceAnswer, resourceCategoryFilter, resourceCreatedAnswers, resourceFields, resourceFile, resourceListAnswer } from '../../contracts/resources';
import { isAdminRole } from '../../domain/access';
import { mayDownload, RESOURCE_MESSAGES, resources } from '../../domain/resources/resources';
import { findResource, listResources, resourceByFile } from '../../projections/resources';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { HttpError } from '../plugins/errors';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { DOCUMENT_TYPES, readMultipart, sendUpload, uploadNameParam } from '../plugins/uploads';
import { removeUpload, storeUpload } from '../../platform/uploadStorage';
import type { Services } from '../../platform/services';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer } from './records';

const listQuery = listQuerySchema({ category: resourceCategoryFilter.optional() }, ['title', 'category', 'created_at']);

/** The resources library of the Support Center's Downloads tab. */
export async function resourceRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;

  app.get(
    '/resources',
    {
      schema: {
        tags: ['resources'],
        summary: 'The documents the caller may download; search with q',
        querystring: listQuery,
        response: { 200: resourceListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const role = isAdminRole(request.principal.role) ? undefined : request.principal.role;
      const { rows, total } = await listResources(
        reads,
        role,
        { ids: q.ids, category: q.filters.category, search: q.search },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'resources', q, rows, total);
    },
  );

  app.get(
    '/resources/files/:name',
    {
      schema: {
        tags: ['resources'],
        summary: "A resource's file, for the roles it was published to",
        params: uploadNameParam,
        response: { 200: resourceFile },
      },
    },
    async (request, reply) => {
      const resource = await resourceByFile(reads, request.params.name);
      if (!resource || !mayDownload(request.principal.role, resource.roles)) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
      return sendUpload(reply, services.config.UPLOAD_DIR, request.params.name, 'private', resource.original_name);
    },
  );

  app.post(
    '/resources',
    {
      schema: {
        tags: ['resources'],
        summary: 'Publish a document (administrators; multipart: title, category, description, roles comma separated or repeated, file)',
        consumes: ['multipart/form-data'],
        response: resourceCreatedAnswers,
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { file: { label: 'The document', types: DOCUMENT_TYPES, maxBytes: 10 * 1024 * 1024, maxCount: 1 } });
      const single = Object.fromEntries(
        Object.entries(form.fields).map(([key, value]) => [key, key === 'roles' || !Array.isArray(value) ? value : value[value.length - 1]]),
      );
      const parsed = resourceFields.safeParse(single);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(
          400,
          'VALIDATION_ERROR',
          issue?.message ?? 'The request is not valid.',
          parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'request', message: i.message })),
        );
      }
      const body = parsed.data;
      const roles = typeof body.roles === 'string' ? body.roles.split(',') : (body.roles ?? []);
      const file = form.files.file?.[0];
      const resourceId = newRecordId(request, 'resource');
      const created = { id: resourceId, location: `/api/resources?filter=${encodeURIComponent(JSON.stringify({ id: [resourceId] }))}` };
      const read = async () => recordAnswer((await findResource(pool, resourceId))!, RESOURCE_MESSAGES.published);
      const earlier = await earlierCreation(services, request, resources.streamId(resourceId), resourceId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      // The rules first, so no file is stored for a refused resource.
      resources.decide(
        {
          type: 'PublishResource',
          resourceId,
          title: body.title ?? '',
          category: body.category ?? '',
          description: body.description,
          roles,
          file: file ? { name: 'x.pdf', originalName: '', type: file.type } : null,
        },
        resources.initialState(),
        metadataFromRequest(request),
      );
      const stored = await storeUpload(services.config.UPLOAD_DIR, file!, 'private');
      try {
        await runCommand(
          services,
          resources,
          resourceId,
          {
            type: 'PublishResource',
            resourceId,
            title: body.title ?? '',
            category: body.category ?? '',
            description: body.description,
            roles,
            file: { name: stored, originalName: file!.originalName.slice(0, 200), type: file!.type },
          },
          metadataFromRequest(request),
        );
      } catch (error) {
        await removeUpload(services.config.UPLOAD_DIR, stored, 'private');
        throw error;
      }
      return answerCreated(services, reply, created, read);
    },
  );

  app.delete(
    '/resources/:id',
    {
      schema: {
        tags: ['resources'],
        summary: 'Remove a document (administrators)',
        params: z.object({ id: z.uuid() }).strict(),
        response: { 200: resourceAnswer },
      },
    },
    async (request) => {
      const resource = await findResource(pool, request.params.id);
      if (!resource) throw new HttpError(404, 'NOT_FOUND', RESOURCE_MESSAGES.notFound);
      await runCommand(services, resources, resource.id, { type: 'RemoveResource' }, metadataFromRequest(request));
      return recordAnswer(resource, RESOURCE_MESSAGES.removed);
    },
  );
}
