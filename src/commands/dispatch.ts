import type { FastifyRequest } from 'fastify';
import type { CommandMetadata, Decider, DomainEvent } from '../../domain/decider';
import { uuidV7 } from '../eventstore/eventIds';
import type { Services } from '../services';
import { handleCommand, type CommandOptions, type CommandResult } from './commandHandler';

/** Who is acting and why, taken from the request; the correlation id follows the request's X-Correlation-Id when sent. */
export function metadataFromRequest(request: FastifyRequest): CommandMetadata {
  const header = request.headers['x-correlation-id'];
  const correlationId = typeof header === 'string' && /^[\w-]{1,100}$/.test(header) ? header : request.id;
  return {
    now: new Date().toISOString(),
    actorId: request.principal?.id ?? null,
    actorRole: request.principal?.role ?? null,
    correlationId,
    causationId: null,
  };
}

/** Metadata for a step that another event caused (process managers, workers). */
export function metadataCausedBy(event: { id: string; metadata: { correlationId: string } }, actor: { id: string | null; role: string | null }): CommandMetadata {
  return { now: new Date().toISOString(), actorId: actor.id, actorRole: actor.role, correlationId: event.metadata.correlationId, causationId: event.id };
}

/**
 * The id of a new record: time-ordered (UUIDv7), like event ids, so a new record's stream and
 * read-model rows land at the right-hand edge of their indexes instead of on random cold pages.
 * Ids are not secrets: access is checked on every request, and keys and invitation tokens are random.
 */
export const newId = () => uuidV7();

/**
 * Runs a command, then waits (bounded) until the read models include its events, so the caller's
 * next read shows what it just did.
 */
export async function runCommand<State, Command, Event extends DomainEvent>(
  services: Pick<Services, 'store' | 'watcher'>,
  decider: Decider<State, Command, Event>,
  recordId: string,
  command: Command,
  metadata: CommandMetadata,
  options?: CommandOptions,
): Promise<CommandResult<State, Event>> {
  const result = await handleCommand(services.store, decider, recordId, command, metadata, options);
  await services.watcher.waitFor(result.position);
  return result;
}
