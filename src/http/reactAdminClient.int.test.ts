import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils } from 'react-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * react-admin's own REST data provider, unmodified (only given the bearer token, as its documentation
 * shows), against the portal over real HTTP.
 */
let t: TestPortal;
let client: ReturnType<typeof simpleRestProvider>;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], listen: true, env: { READ_YOUR_WRITES_WAIT_MS: '1500' } });
  const { accessToken } = await login(t.app, 'admin@partnerhub.test');
  const httpClient = (url: string, options: fetchUtils.Options = {}) =>
    fetchUtils.fetchJson(url, { ...options, user: { authenticated: true, token: `Bearer ${accessToken}` } });
  client = simpleRestProvider(`${t.url}/api`, httpClient);
});
afterAll(() => t?.close());

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('ra-data-simple-rest, unmodified', () => {
  it.each(['users', 'products', 'orders', 'partner/partners'])('lists %s with its default sort (id)', async (resource) => {
    const { data, total } = await client.getList(resource, { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(data.length).toBeGreaterThan(0);
    expect(total).toBeGreaterThanOrEqual(data.length);
    if (resource !== 'users') expect([...data].sort(byId)).toEqual(data); // users lists administrators first, then by the sort
  });

  it('sorts by id both ways', async () => {
    const ascending = await client.getList('products', { pagination: { page: 1, perPage: 50 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    const descending = await client.getList('products', { pagination: { page: 1, perPage: 50 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(descending.data.map((p) => p.id)).toEqual([...ascending.data].reverse().map((p) => p.id));
  });

  it.each(['orders', 'projects', 'rebates', 'tickets', 'users', 'partner/partners'])('reads many %s by id', async (resource) => {
    const { data: some, total } = await client.getList(resource, { pagination: { page: 1, perPage: 3 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(total).toBeGreaterThan(some.length);
    const { data } = await client.getMany(resource, { ids: some.map((o) => o.id) });
    expect(data.map((o) => o.id).sort()).toEqual(some.map((o) => o.id).sort());
  });

  it('round-trips an edit of a user', async () => {
    const { data: users } = await client.getList('users', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { role: 'support' },
    });
    const { data: record } = await client.getOne('users', { id: users[0].id });
    expect(record).toMatchObject({ id: users[0].id, email: users[0].email });
    // The edit form sends the whole record back, read-only fields included.
    const { data: updated } = await client.update('users', {
      id: record.id,
      data: { ...record, full_name: 'Renamed Through react-admin' },
      previousData: record,
    });
    expect(updated).toMatchObject({ id: record.id, full_name: 'Renamed Through react-admin' });
    const { data: reread } = await client.getOne('users', { id: record.id });
    expect(reread.full_name).toBe('Renamed Through react-admin');
  });

  it('still refuses a truly unknown field on update', async () => {
    const { data: users } = await client.getList('users', {
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'id', order: 'ASC' },
      filter: { role: 'support' },
    });
    const { data: record } = await client.getOne('users', { id: users[0].id });
    await expect(client.update('users', { id: record.id, data: { ...record, favourite_colour: 'teal' }, previousData: record })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('takes a creation answered 202 (the projector late) as a success with the new id', async () => {
    const holder = await t.db.pool.connect();
    let created: { data: { id: string } };
    try {
      // The projector cannot commit while its checkpoint row is locked.
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM read.checkpoints WHERE name = 'read-models' FOR UPDATE");
      created = await client.create('users', {
        data: { full_name: 'Late Projection', email: `late.${Date.now()}@example.test`, password: 'Secret123', role: 'support' },
      });
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    expect(created.data.id).toMatch(/^[0-9a-f-]{36}$/);
    for (let attempt = 0; attempt < 50; attempt++) {
      const found = await client.getOne('users', { id: created.data.id }).catch(() => undefined);
      if (found) return expect(found.data).toMatchObject({ id: created.data.id, full_name: 'Late Projection' });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the user created with a 202 never appeared');
  }, 30_000);
});
