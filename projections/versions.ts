import { isUuid } from '../domain/ids';
import type { Queryable } from '../platform/db';

/** What the versions of a record (src/http/versions.ts) read of the read models: people's names and order numbers today. */

/** The current full name of each account id given (ids of removed accounts are left out). */
export async function personNames(db: Queryable, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string' && isUuid(id)))];
  if (!wanted.length) return new Map();
  // Compared as uuids, so the primary key finds them (a text comparison would read every account).
  const { rows } = await db.query<{ id: string; full_name: string }>('SELECT id::text, full_name FROM read.users WHERE id = ANY($1::uuid[])', [wanted]);
  return new Map(rows.map((row) => [row.id, row.full_name]));
}

/** The order number of each order id given. */
export async function orderNumbers(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (!wanted.length) return new Map();
  const { rows } = await db.query<{ id: string; order_number: string }>('SELECT id::text, order_number FROM read.orders WHERE id = ANY($1::uuid[])', [wanted]);
  return new Map(rows.map((row) => [row.id, row.order_number]));
}
