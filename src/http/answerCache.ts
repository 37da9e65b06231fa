import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GlobalPosition } from '../../platform/eventstore';

/** What the cache needs to know about the read models' progress (the API's ProjectionWatcher). */
export interface ReadModelProgress {
  /** The projector's last committed position as this process knows it; a new object on every advance. */
  readonly position: GlobalPosition | undefined;
  /** True while every NOTIFY committed up to about a second ago has reached this process. */
  alive(): boolean;
}

interface Answer {
  status: number;
  body: string;
  /** The headers the route itself set (Content-Range of a react-admin list, for example). */
  headers: Array<[string, string]>;
}

/** Answers larger than this are not kept: one export-sized page would push out hundreds of lists. */
const MAX_BODY_CHARS = 256 * 1024;
/** What all kept answers of a process may add up to (characters; about twice as many bytes). */
const MAX_TOTAL_CHARS = 16 * 1024 * 1024;

/**
 * Serialised answers of read routes, kept per API process for as long as the read models stay where
 * they were when the answer was read. Any projected event moves the position and so ends every entry:
 * an answer is never older than the read models this process has heard of. While the NOTIFY
 * connection is not known to be alive nothing is served, because an advance could have been missed.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Answer>();
  private chars = 0;
  /** The position every entry in the map was read at. */
  private readAt: GlobalPosition | undefined;

  constructor(
    private readonly progress: ReadModelProgress,
    private readonly maxEntries: number,
  ) {}

  /**
   * The position answers are filed under now, or undefined while nothing may be kept. Taken before the
   * read models are read and handed back to `store`.
   */
  begin(): GlobalPosition | undefined {
    if (this.maxEntries === 0 || !this.progress.alive()) return undefined;
    const position = this.progress.position;
    if (position !== this.readAt) {
      this.clear();
      this.readAt = position;
    }
    return position;
  }

  lookup(key: string): Answer | undefined {
    return this.begin() === undefined ? undefined : this.entries.get(key);
  }

  /** How many characters the kept answers hold. */
  get size(): number {
    return this.chars;
  }

  store(key: string, answer: Answer, readAt: GlobalPosition | undefined): void {
    // An answer read while the position moved may hold the newer rows, but it is filed under the older
    // position only if that is still current, so it is never served after the move is heard of.
    if (readAt === undefined || readAt !== this.begin() || answer.body.length > MAX_BODY_CHARS) return;
    // A burst of distinct reads beyond the bound starts afresh rather than tracking recency per hit.
    const replaced = this.entries.get(key);
    if (replaced) this.chars -= replaced.body.length;
    if (this.entries.size >= this.maxEntries || this.chars + answer.body.length > MAX_TOTAL_CHARS) this.clear();
    this.entries.set(key, answer);
    this.chars += answer.body.length;
  }

  private clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}

/**
 * A GET handler whose JSON answer depends only on read models the projector writes, the URL and
 * the caller (whose account is itself a read model), served from `cache` while those stay unchanged.
 * Access rules still run on every request, before the handler.
 */
/**
 * A handler that sent its answer itself returns the reply, as Fastify asks of async handlers that call `send`; what
 * follows the send is ignored.
 */
// Fastify's route types admit only the schema's answer as a handler's result, not the reply its runtime accepts.
const alreadySent = <Answer>(reply: FastifyReply): Answer => reply as unknown as Answer;

export function cachedRead<Request extends FastifyRequest, Reply extends FastifyReply, Answer>(
  cache: AnswerCache,
  handler: (request: Request, reply: Reply) => Promise<Answer>,
): (request: Request, reply: Reply) => Promise<Answer> {
  return async function cachedHandler(request, reply) {
    // A key acting for its owner may hold fewer permissions than the owner: its answers are its own.
    const key = `${request.principal.id}${request.principal.apiKey ? `:${request.principal.apiKey.id}` : ''} ${request.url}`;
    const hit = cache.lookup(key);
    if (hit) {
      for (const [name, value] of hit.headers) reply.header(name, value);
      // The same answer, serialized when it was stored: sent as it is.
      return alreadySent(reply.code(hit.status).type('application/json; charset=utf-8').send(hit.body));
    }
    const readAt = cache.begin();
    const before = new Set(Object.keys(reply.getHeaders()));
    const answer = await handler(request, reply);
    if (reply.sent || answer === undefined) return answer;
    const headers = Object.entries(reply.getHeaders())
      .filter(([name]) => !before.has(name))
      .map(([name, value]) => [name, String(value)] as [string, string]);
    const body = JSON.stringify(answer);
    cache.store(key, { status: reply.statusCode, body, headers }, readAt);
    // Sent as the string stored.
    return alreadySent(reply.type('application/json; charset=utf-8').send(body));
  };
}
