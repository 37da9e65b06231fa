import { z } from 'zod';

/**
 * Liveness.
 *
 * Routes (all under /api):
 * - GET /health    the API process and the servers it depends on — `healthAnswer` (200, or 503 without PostgreSQL)
 */

export const DEPENDENCY_STATES = ['ok', 'degraded', 'unavailable'] as const;
export const dependencySchema = z.enum(DEPENDENCY_STATES);
export type Dependency = z.infer<typeof dependencySchema>;

export const healthAnswer = z.object({
  /** False when PostgreSQL does not answer (then the status code is 503). */
  success: z.boolean(),
  status: dependencySchema,
  checks: z.object({ postgres: dependencySchema, redis: dependencySchema }),
});
export type Health = z.infer<typeof healthAnswer>;
