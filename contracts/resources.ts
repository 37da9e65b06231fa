import { z } from 'zod';
import { RESOURCE_CATEGORIES } from '../domain/resources/resources';
import { createdAnswers, listAnswer, recordAnswer } from './answers';

/**
 * The resources library of the Support Center's Downloads tab.
 *
 * Routes (all under /api):
 * - GET    /resources               the documents the caller may download — `resourceListAnswer`
 * - GET    /resources/files/:name   a resource's file — `resourceFile`
 * - POST   /resources               publish (administrators; multipart `resourceFields` and `file`) → 201 `resourceAnswer`
 * - DELETE /resources/:id           remove (administrators) — `resourceAnswer`
 */

/** The text fields of the multipart publication. */
export const resourceFields = z
  .object({
    title: z.string().max(200).optional(),
    category: z.string().max(60).optional(),
    description: z.string().max(5000).optional(),
    /** Comma separated, or the field repeated. */
    roles: z.union([z.string().max(500), z.array(z.string().max(60)).max(20)]).optional(),
  })
  .strict();
export type ResourceFields = z.infer<typeof resourceFields>;

export const resourceCategoryFilter = z.enum(RESOURCE_CATEGORIES);

export const resourceSchema = z.object({
  id: z.string(),
  title: z.string(),
  category: z.string(),
  description: z.string(),
  roles: z.array(z.string()),
  file_name: z.string(),
  original_name: z.string(),
  type: z.string(),
  /** Where the file is downloaded from. */
  url: z.string(),
  created_at: z.string(),
});
export type Resource = z.infer<typeof resourceSchema>;

export const resourceListAnswer = listAnswer('resources', resourceSchema);
export const resourceAnswer = recordAnswer(resourceSchema);
export const resourceCreatedAnswers = createdAnswers(resourceSchema);

/** The file is sent as stored, with its own content type: the serializer never sees it. */
export const resourceFile = z.string().describe('The document itself (PDF, Office document or image), with its own content type and file name');
