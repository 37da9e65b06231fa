import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../platform/eventstore';
import { identityReactions } from './identity';
import type { ReactionContext } from './reactor';

const activation = (causationId: string | null): RecordedEvent => ({
  id: '7d0f3a52-3c1e-4a51-9b7e-3f1a2b4c5d6e',
  type: 'UserActivated.v1',
  data: { userId: 'b1c2d3e4-0000-4000-8000-000000000001', status: 'active', previousStatus: 'inactive', reason: null },
  metadata: { actorId: 'admin-1', actorRole: 'admin', correlationId: 'c-1', causationId, occurredAt: '2026-11-21T10:00:00.000Z' },
  streamId: 'users-b1c2d3e4-0000-4000-8000-000000000001',
  revision: 1n,
  position: { commit: 10n, prepare: 20n },
  recordedAt: new Date('2026-11-21T10:00:00.000Z'),
});

const context = {} as ReactionContext;
const [notifyActivatedUser] = identityReactions['UserActivated.v1'];

describe('activation notices', () => {
  it('an activation by an admin tells the user', async () => {
    const jobs = await notifyActivatedUser(activation(null), context);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      name: 'account-activated',
      data: expect.objectContaining({ userId: 'b1c2d3e4-0000-4000-8000-000000000001', title: 'Your account is active' }),
    });
  });
  it('an activation that is a step of a process (a partner approval) is announced by that process instead', async () => {
    expect(await notifyActivatedUser(activation('approval-event-id'), context)).toEqual([]);
  });
});
