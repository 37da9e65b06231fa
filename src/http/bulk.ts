import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../domain/decider';
import { HttpError } from '../plugins/errors';
import { bulkIds } from './records';

/**
 * The body of a bulk review: the records, one decision, and one reason for all of them (required to
 * reject). The reason's limit is the record's own, so a too-long reason is refused once, up front,
 * instead of once per record.
 */
export function bulkReviewBody(noun: string, reasonMax: number, example: { decision: 'approved' | 'rejected'; reason: string }) {
  return z
    .object({
      ids: bulkIds(noun),
      decision: z.enum(['approved', 'rejected'], { error: 'Decision must be approved or rejected.' }),
      reason: z.string().max(reasonMax, `The reason must be at most ${reasonMax} characters.`).nullable().optional(),
    })
    .strict()
    .superRefine((body, ctx) => {
      if (body.decision === 'rejected' && !body.reason?.trim())
        ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Please give a reason for the rejection.' });
    })
    .meta({ example: { ids: ['5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', '6a1d9b0f-3a5c-4d2e-8b8f-4c7e3d2f1a0b'], ...example } });
}

export interface BulkRefusal {
  id: string;
  code: string;
  message: string;
}

export interface BulkOutcome {
  succeeded: string[];
  refused: BulkRefusal[];
}

/**
 * Runs one command per record, in the order given, and says for each whether it was done or refused
 * and why. A refusal of one record never stops the others, and nothing is left unreported: a record
 * that failed for an unexpected reason is listed as refused with a message to try again.
 */
export async function eachRecord(ids: readonly string[], log: FastifyBaseLogger, run: (id: string) => Promise<void>): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { succeeded: [], refused: [] };
  for (const id of ids) {
    try {
      await run(id);
      outcome.succeeded.push(id);
    } catch (error) {
      if (error instanceof DomainError || error instanceof HttpError) {
        outcome.refused.push({ id, code: error.code, message: error.message });
      } else {
        log.error({ err: error, id }, 'bulk action: one record failed');
        outcome.refused.push({ id, code: 'INTERNAL_ERROR', message: 'This record could not be changed. Please try again.' });
      }
    }
  }
  return outcome;
}

/** "2 registrations rejected; 1 refused." */
export function bulkMessage(outcome: BulkOutcome, noun: [string, string], decision: 'approved' | 'rejected'): string {
  const done = outcome.succeeded.length;
  const refused = outcome.refused.length;
  const head = `${done} ${done === 1 ? noun[0] : noun[1]} ${decision}`;
  return refused ? `${head}; ${refused} refused.` : `${head}.`;
}
