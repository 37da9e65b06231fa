import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { currentWrites, newId, waitForReadModels } from '../../platform/commands/dispatch';
import type { GlobalPosition } from '../../platform/eventstore';
import type { Services } from '../../platform/services';

export const ACCEPTED_MESSAGE = 'Accepted: it is saved and will be readable at its Location in a moment.';

/** The Idempotency-Key header, when it is one (8–100 letters, digits, `_` or `-`); anything else is ignored. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' && /^[\w-]{8,100}$/.test(header) ? header : undefined;
}

/**
 * Who an Idempotency-Key belongs to: the caller's organisation (a colleague retrying the same form
 * names the same record), the applicant, or, signed out, the whole body (the password included), so
 * only the client that sent a request can repeat it.
 */
function keyOwner(request: FastifyRequest): string {
  if (request.principal?.organisationId) return request.principal.organisationId;
  if (request.applicant?.userId) return request.applicant.userId;
  return `body:${createHash('sha256')
    .update(JSON.stringify(request.body ?? null))
    .digest('hex')}`;
}

/**
 * The id of the record a create request makes: fresh, or with an Idempotency-Key derived from the
 * key, its owner and the kind of record, so a retried request names the record the first one made.
 */
export function newRecordId(request: FastifyRequest, kind: string): string {
  const key = idempotencyKey(request);
  return key ? deterministicUuid(`${kind}:${keyOwner(request)}:${key}`) : newId();
}

/**
 * For commands on a record that already exists (an application, a project's milestones): event ids
 * derived from the Idempotency-Key, so a retried request appends nothing the first one appended.
 */
export function idempotentCommand(request: FastifyRequest, kind: string): { idempotencyKey?: string } {
  const key = idempotencyKey(request);
  return key ? { idempotencyKey: `${kind}:${keyOwner(request)}:${key}` } : {};
}

/**
 * Where a record with this id was already created by an earlier request with the same
 * Idempotency-Key: the position of its stream's last event, or undefined when it was not (or the
 * request has no key). `streamId` is the record's stream, or its parent's for a part of a record
 * (a milestone, a comment), which is found by its id in the events.
 */
export async function earlierCreation(
  services: Pick<Services, 'store'>,
  request: FastifyRequest,
  streamId: string,
  recordId: string,
): Promise<GlobalPosition | undefined> {
  if (!idempotencyKey(request)) return undefined;
  const events = await services.store.readStream(streamId);
  const named = streamId.endsWith(recordId) ? events : events.filter((event) => JSON.stringify(event.data).includes(recordId));
  return named.length ? events[events.length - 1].position : undefined;
}

/**
 * Like earlierCreation, for a record whose id does not come from the key (a rebate's id comes from its
 * invoice, an application's from its applicant): whether a command run with `idempotentCommand(request,
 * kind)` already appended to the stream, told by the event id that key gives its first event.
 */
export async function earlierCommand(
  services: Pick<Services, 'store'>,
  request: FastifyRequest,
  kind: string,
  streamId: string,
): Promise<GlobalPosition | undefined> {
  const { idempotencyKey: key } = idempotentCommand(request, kind);
  if (!key) return undefined;
  const firstEventId = deterministicUuid(`${key}:${streamId}:0`);
  const events = await services.store.readStream(streamId);
  return events.some((event) => event.id === firstEventId) ? events[events.length - 1].position : undefined;
}

export interface CreatedRecord {
  id: string;
  /** Where the record is read (its GET URL): the Location of a 202. */
  location: string;
  /** Set when an earlier request with the same Idempotency-Key created the record (see earlierCreation). */
  earlier?: GlobalPosition;
}

/** A creation saved in the log that the read models do not show yet. */
// A type, not an interface: it then fits the loose `acceptedAnswer` response schema of contracts/answers.ts.
export type AcceptedAnswer = {
  success: true;
  accepted: true;
  message: string;
  id: string;
  position: { commit: string; prepare: string } | null;
  location: string;
  data: { id: string; position: { commit: string; prepare: string } | null; location: string };
};

/**
 * Answers a create request once its commands ran: 201 (200 for a repeated Idempotency-Key) with the
 * record as the read models show it, or, when they have not caught up within the wait, 202 Accepted
 * with the record's id, the event position and a Location to poll: never "not found" for what was
 * just created. `extra` goes into a 202 as well (an API key's secret is shown in its creation's answer only).
 */
export async function answerCreated<T>(
  services: Pick<Services, 'watcher'>,
  reply: FastifyReply,
  created: CreatedRecord,
  read: () => Promise<T>,
  extra: Record<string, unknown> = {},
): Promise<T | AcceptedAnswer> {
  const writes = currentWrites();
  const caughtUp = created.earlier ? await waitForReadModels(services, created.earlier) : (writes?.caughtUp ?? true);
  if (caughtUp) {
    reply.status(created.earlier ? 200 : 201);
    return read();
  }
  const at = created.earlier ?? writes?.position;
  const position = at ? { commit: at.commit.toString(), prepare: at.prepare.toString() } : null;
  reply.status(202).header('location', created.location);
  const data = { id: created.id, position, location: created.location, ...extra };
  return { success: true, accepted: true, message: ACCEPTED_MESSAGE, ...data, data };
}
