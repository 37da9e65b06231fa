import type { Pool, PoolClient } from '../platform/db';
import type { GlobalPosition } from '../platform/eventstore';

type Queryable = Pool | PoolClient;

interface CheckpointRow {
  commit_position: string;
  prepare_position: string;
}

const toPosition = (row: CheckpointRow | undefined): GlobalPosition | undefined =>
  row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : undefined;

/** A checkpoint table: `read.checkpoints` for read models, `subscription_checkpoints` for other followers. */
export class CheckpointStore {
  constructor(private readonly table: string) {}

  async load(db: Queryable, name: string): Promise<GlobalPosition | undefined> {
    const { rows } = await db.query<CheckpointRow>(`SELECT commit_position, prepare_position FROM ${this.table} WHERE name = $1`, [name]);
    return toPosition(rows[0]);
  }

  /**
   * The checkpoint and the primary's WAL insert position, read by one statement: every commit the checkpoint
   * counts was in the WAL before that position, so a streaming replica that has replayed it holds them all.
   */
  async loadWithWalPosition(db: Queryable, name: string): Promise<{ position: GlobalPosition; lsn: string } | undefined> {
    const { rows } = await db.query<CheckpointRow & { lsn: string }>(
      `SELECT commit_position, prepare_position, pg_current_wal_insert_lsn()::text AS lsn FROM ${this.table} WHERE name = $1`,
      [name],
    );
    const position = toPosition(rows[0]);
    return position && { position, lsn: rows[0].lsn };
  }

  /** Moves the checkpoint from `expected` to `next`; false when someone else moved it first. */
  async compareAndSet(db: Queryable, name: string, expected: GlobalPosition | undefined, next: GlobalPosition): Promise<boolean> {
    const values = [name, next.commit.toString(), next.prepare.toString()];
    const result = expected
      ? await db.query(
          `UPDATE ${this.table} SET commit_position = $2, prepare_position = $3, updated_at = now()
           WHERE name = $1 AND commit_position = $4 AND prepare_position = $5`,
          [...values, expected.commit.toString(), expected.prepare.toString()],
        )
      : await db.query(`INSERT INTO ${this.table} (name, commit_position, prepare_position) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, values);
    return result.rowCount === 1;
  }

  async set(db: Queryable, name: string, next: GlobalPosition): Promise<void> {
    await db.query(
      `INSERT INTO ${this.table} (name, commit_position, prepare_position) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET commit_position = EXCLUDED.commit_position, prepare_position = EXCLUDED.prepare_position, updated_at = now()`,
      [name, next.commit.toString(), next.prepare.toString()],
    );
  }
}
