import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import type { CommandMetadata, Decider, DomainEvent } from '../../domain/decider';
import { comparePositions, type GlobalPosition } from '../eventstore';
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
    ...(request.principal?.apiKey ? { apiKeyId: request.principal.apiKey.id, apiKeyName: request.principal.apiKey.name } : {}),
  };
}

/** Metadata for a step that another event caused (process managers, workers). */
/**
 * When a fact that falls due at `dueAt` (a registration lapsing, a ticket becoming overdue) is recorded late
 * (workers down, a restart, the demo history replayed), it carries the time it became true: the due time, or
 * the stream's last event when that is later (a stream's events stay in time order), never later than now.
 */
export function dueFactTime(dueAt: string, lastEventAt: string | undefined, now: string): string {
  const at = Math.max(Date.parse(dueAt), lastEventAt ? Date.parse(lastEventAt) : 0);
  return new Date(Math.min(at, Date.parse(now))).toISOString();
}

export function metadataCausedBy(
  event: { id: string; metadata: { correlationId: string } },
  actor: { id: string | null; role: string | null },
): CommandMetadata {
  return { now: new Date().toISOString(), actorId: actor.id, actorRole: actor.role, correlationId: event.metadata.correlationId, causationId: event.id };
}

/**
 * The id of a new record: time-ordered (UUIDv7), like event ids, so a new record's stream and
 * read-model rows land at the right-hand edge of their indexes instead of on random cold pages.
 * Ids are not secrets: access is checked on every request, and keys and invitation tokens are random.
 */
export const newId = () => uuidV7();

/** What the commands of one HTTP request appended, and whether the read models showed all of it in time. */
export class WriteTrail {
  /** The furthest position the request's commands appended at. */
  position: GlobalPosition | undefined;
  /** The furthest position a wait saw the read models reach (they then hold everything before it too). */
  private shown: GlobalPosition | undefined;

  note(position: GlobalPosition | undefined, shown: boolean): void {
    if (!position) return;
    if (!this.position || comparePositions(position, this.position) > 0) this.position = position;
    if (shown && (!this.shown || comparePositions(position, this.shown) > 0)) this.shown = position;
  }

  /** False when a wait ran out before the read models showed every write: the answer must not rely on them. */
  get caughtUp(): boolean {
    return !this.position || (this.shown !== undefined && comparePositions(this.shown, this.position) >= 0);
  }
}

// The commands a route runs are often several calls deep (placeOrder, registerUser, openTicket …); the
// request's trail follows them there without every helper passing it on.
const trails = new AsyncLocalStorage<WriteTrail>();

/** Runs `next` (the rest of a request) with a fresh trail of its writes. */
export function followWrites(next: () => void): void {
  trails.run(new WriteTrail(), next);
}

/** The current request's trail (undefined outside a request, in workers and the seed). */
export const currentWrites = (): WriteTrail | undefined => trails.getStore();

/**
 * Waits (bounded) until the read models include `position`, and notes on the request's trail whether
 * they did: a route then answers 202 rather than reading a record that is not there yet.
 */
export async function waitForReadModels(services: Pick<Services, 'watcher'>, position: GlobalPosition | undefined): Promise<boolean> {
  const caughtUp = await services.watcher.waitFor(position);
  currentWrites()?.note(position, caughtUp);
  return caughtUp;
}

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
  await waitForReadModels(services, result.position);
  return result;
}
