import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../src/testing/database';

describe('migrations', () => {
  it('create the event store tables on an empty database', async () => {
    const db = await createTestDatabase();
    try {
      const { rows } = await db.pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
      expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['events', 'pgmigrations']));
    } finally {
      await db.drop();
    }
  });
});
