import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type JSONType,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  ConcurrencyError,
  type AppendResult,
  type BatchHandler,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './eventstore';

/** Events held in memory ahead of the handler before the subscription stream is paused. */
const BUFFER_HIGH_WATER = 1000;

type EsdbRecordedEvent = NonNullable<ResolvedEvent['event']>;

const isSystemEvent = (type: string) => type.startsWith('$');

function toRecorded(event: EsdbRecordedEvent, position: Position | undefined): RecordedEvent {
  if (!position) throw new Error(`Event ${event.id} of ${event.streamId} arrived without a position.`);
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata as EventMetadata,
    streamId: event.streamId,
    revision: event.revision,
    position: { commit: position.commit, prepare: position.prepare },
    recordedAt: event.created,
  };
}

function toEsdbRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return expected;
}

/** EventStoreDB as the event log: ESDB positions are already { commit, prepare } pairs. */
export class EsdbEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();

  private constructor(private readonly client: EventStoreDBClient) {}

  static async connect(url: string): Promise<EsdbEventStore> {
    const client = EventStoreDBClient.connectionString(url);
    const store = new EsdbEventStore(client);
    // Fail at start-up rather than on the first command when the server is unreachable.
    await store.headPosition();
    return store;
  }

  async appendToStream(streamId: string, events: NewEvent[], { expectedRevision }: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const data = events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as JSONType, metadata: e.metadata }));
    try {
      const result = await this.client.appendToStream(streamId, data, { expectedRevision: toEsdbRevision(expectedRevision) });
      const position = result.position ?? (await this.lastPositionOf(streamId));
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new ConcurrencyError(streamId, expectedRevision, error.actualVersion ?? 'unknown');
      }
      throw error;
    }
  }

  /** Servers that do not report the append's position: the stream's last event has it. */
  private async lastPositionOf(streamId: string): Promise<GlobalPosition> {
    for await (const resolved of this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      if (resolved.event?.position) return { commit: resolved.event.position.commit, prepare: resolved.event.position.prepare };
    }
    throw new Error(`Cannot find the position of the last event of ${streamId}.`);
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId)) {
        if (resolved.event) events.push(toRecorded(resolved.event, resolved.event.position));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END });
    try {
      for await (const resolved of read) {
        const event = resolved.event;
        if (event && !isSystemEvent(event.type)) return { commit: event.position.commit, prepare: event.position.prepare };
      }
      return undefined;
    } finally {
      await read.cancel().catch(() => {});
    }
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    const batchSize = options.batchSize ?? 500;
    const from = options.fromPosition;
    const source = this.client.subscribeToAll({
      fromPosition: from ? { commit: from.commit, prepare: from.prepare } : START,
      filter: excludeSystemEvents(),
    });

    const buffer: RecordedEvent[] = [];
    let stopped = false;
    let failure: Error | undefined;
    let ended = false;
    let wake: (() => void) | undefined;
    const signal = () => wake?.();

    source.on('data', (resolved: AllStreamResolvedEvent) => {
      const event = resolved.event;
      if (!event || isSystemEvent(event.type)) return;
      buffer.push(toRecorded(event, event.position));
      if (buffer.length >= BUFFER_HIGH_WATER) source.pause();
      signal();
    });
    source.on('error', (error: Error) => {
      failure ??= error;
      signal();
    });
    source.on('end', () => {
      ended = true;
      signal();
    });

    const run = async (): Promise<Error | undefined> => {
      try {
        while (!stopped && !failure) {
          if (buffer.length === 0) {
            if (ended) return new Error('The EventStoreDB subscription ended unexpectedly.');
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
            continue;
          }
          const batch = buffer.splice(0, batchSize);
          if (source.isPaused() && buffer.length < BUFFER_HIGH_WATER / 2) source.resume();
          await handler(batch);
        }
        return stopped ? undefined : failure;
      } catch (error) {
        return error as Error;
      } finally {
        source.removeAllListeners('data');
        await source.unsubscribe().catch(() => {});
        source.destroy();
      }
    };

    const done = run();
    const subscription: Subscription = {
      done,
      async stop() {
        stopped = true;
        signal();
        await done;
      },
    };
    this.subscriptions.add(subscription);
    void done.finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}
