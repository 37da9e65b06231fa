import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { auditStreamId, type AuditEntry } from '../../domain/audit/audit';
import type { EventStore } from '../../platform/eventstore';

/** Who did it and when: from the request when there is one. */
export interface AuditActor {
  actorId: string | null;
  actorRole: string | null;
  correlationId?: string;
  occurredAt?: string;
  /** The API key the action was taken with. */
  apiKeyId?: string;
  apiKeyName?: string;
}

export const auditActorOf = (request: FastifyRequest): AuditActor => ({
  actorId: request.principal?.id ?? null,
  actorRole: request.principal?.role ?? null,
  correlationId: request.id,
  ...(request.principal?.apiKey ? { apiKeyId: request.principal.apiKey.id, apiKeyName: request.principal.apiKey.name } : {}),
});

/**
 * The one way to record what no module's command records (sign-ins, failed sign-ins, exports, use of
 * an API key): an audit event appended to the log, so the audit log read model is rebuilt from it
 * like any other. It is a fact that already happened, so nothing can refuse it.
 */
export async function recordAuditEntry(store: Pick<EventStore, 'appendToStream'>, entry: AuditEntry, actor: AuditActor): Promise<void> {
  const occurredAt = actor.occurredAt ?? new Date().toISOString();
  const subject = actor.actorId ?? ('userId' in entry.data ? entry.data.userId : null);
  await store.appendToStream(
    auditStreamId(occurredAt, subject),
    [
      {
        id: randomUUID(),
        type: entry.type,
        data: entry.data,
        metadata: {
          actorId: actor.actorId,
          actorRole: actor.actorRole,
          correlationId: actor.correlationId ?? randomUUID(),
          causationId: null,
          occurredAt,
          ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId, apiKeyName: actor.apiKeyName } : {}),
        },
      },
    ],
    { expectedRevision: 'any' },
  );
}

/** The query an export was asked with, as the audit log shows it (each value cut to 200 characters). */
export function exportFilters(request: FastifyRequest): Record<string, string> {
  const params = new URL(request.url, 'http://portal.invalid').searchParams;
  return Object.fromEntries([...params].slice(0, 20).map(([key, value]) => [key.slice(0, 50), value.slice(0, 200)]));
}

/** An export's lines, then its audit entry once the last line is out: an export that fails half-way is not recorded as downloaded. */
export async function* recordedWhenDone<T>(lines: AsyncIterable<T>, record: () => Promise<void>): AsyncGenerator<T> {
  yield* lines;
  await record();
}
