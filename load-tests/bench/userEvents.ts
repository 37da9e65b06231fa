import { randomBytes, randomUUID } from 'node:crypto';
import type { NewEvent } from '../../platform/eventstore';
import { newEventId, uuidV7 } from '../../platform/eventstore/eventIds';
import type { UserEvent } from '../../domain/identity/users';

type Registered = Extract<UserEvent, { type: 'UserRegistered.v1' }>;

/** An argon2id PHC string of the real length; nothing verifies it, so it is not computed. */
const fakePasswordHash = () => `$argon2id$v=19$m=19456,t=2,p=1$${randomBytes(16).toString('base64url')}$${randomBytes(32).toString('base64url')}`;

/**
 * A `UserRegistered.v1` event as an admin's "Add user" produces it, so appends carry the JSON sizes
 * of real use and the real projections have real work to do. The user id is time-ordered, as the
 * product's record ids are (`newId`).
 */
export function userRegistered(userId: string = uuidV7()): NewEvent<Registered['type'], Registered['data']> {
  const tag = userId.slice(0, 8);
  return {
    // The product's event ids (time-ordered), so the bench writes the index the way commands do.
    id: newEventId(),
    type: 'UserRegistered.v1',
    data: {
      userId,
      email: `load.${userId}@bench.partnerhub.test`,
      fullName: `Load Tester ${tag}`,
      companyName: 'Benchmark Networks Ltd',
      role: 'distributor',
      permissions: ['view_products', 'view_orders', 'create_orders', 'view_deals'],
      parentUserId: null,
      passwordHash: fakePasswordHash(),
      selfRegistered: false,
      status: 'active',
      previousStatus: null,
    },
    metadata: {
      actorId: '5b0e5c4e-0000-4000-8000-000000000001',
      actorRole: 'admin',
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
    },
  };
}
