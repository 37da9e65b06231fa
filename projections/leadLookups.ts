import type { Queryable } from '../platform/db';

/**
 * Small reads of the leads read model (read.leads) for the acceptance-window sweep and the lead
 * notices. The projection and the routes' queries are in `leads.ts`.
 */

/** The leads offered to an organisation and not yet answered, with the end of their acceptance window, soonest first. */
export async function leadsAwaitingAnswer(db: Queryable): Promise<Array<{ id: string; organisation_id: string; due_at: Date }>> {
  const { rows } = await db.query<{ id: string; organisation_id: string; due_at: Date }>(
    `SELECT id, organisation_id, due_at FROM read.leads WHERE status = 'assigned' AND due_at IS NOT NULL ORDER BY due_at`,
  );
  return rows;
}

/** The customer company a lead is from. */
export async function leadCompany(db: Queryable, leadId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ company: string }>('SELECT company FROM read.leads WHERE id = $1', [leadId]);
  return rows[0]?.company;
}
