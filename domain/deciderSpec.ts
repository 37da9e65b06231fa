import { expect } from 'vitest';
import { fold, type CommandMetadata, type Decider, type DomainEvent } from './decider';

export const testMetadata = (overrides: Partial<CommandMetadata> = {}): CommandMetadata => ({
  now: '2026-11-21T10:00:00.000Z',
  actorId: 'actor-1',
  actorRole: 'admin',
  correlationId: 'correlation-1',
  causationId: null,
  ...overrides,
});

/** given(events).when(command, metadata?).then(events) | .thenThrows(message) */
export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command, metadata: Partial<CommandMetadata> = {}) {
          const run = () => decider.decide(command, fold(decider, events), testMetadata(metadata));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(message: string | RegExp, code?: string) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught, 'the command should have been refused').toBeInstanceOf(Error);
              expect((caught as Error).message).toMatch(message);
              if (code) expect((caught as { code?: string }).code).toBe(code);
            },
          };
        },
      };
    },
  };
}
