import { recordAuditEntry } from '../plugins/auditTrail';
import type { TestPortal } from './portal';

const DAY_MS = 24 * 3600 * 1000;

const auditLines = async (t: TestPortal) => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM read.audit_log')).rows[0].n;

/**
 * A longer audit log: the demo administrator downloaded an export a day for `days` days until a year
 * ago, each an audit line (a day's lines share a stream, so one a day lets them be appended at once).
 * Returns the log's length once the projection has written them.
 */
export async function lengthenAuditLog(t: TestPortal, days: number): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM read.users WHERE email = 'admin@partnerhub.test'");
  const adminId = rows[0].id;
  const before = await auditLines(t);
  const yearAgo = Date.now() - 365 * DAY_MS;
  for (let first = 0; first < days; first += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, days - first) }, (_, i) =>
        recordAuditEntry(
          t.portal.services.store,
          { type: 'ExportDownloaded.v1', data: { userId: adminId, export: 'orders', filters: {} } },
          { actorId: adminId, actorRole: 'admin', occurredAt: new Date(yearAgo - (first + i) * DAY_MS).toISOString() },
        ),
      ),
    );
  }
  for (let waited = 0; waited < 60_000; waited += 100) {
    const lines = await auditLines(t);
    if (lines >= before + days) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The audit log did not reach ${before + days} lines within a minute.`);
}
