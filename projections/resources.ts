import { pageOf } from './paging';
import type { Resource } from '../contracts/resources';
import type { ResourceEvent } from '../domain/resources/resources';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/** read.resources: one row per published resource. */
export const resourcesProjection: Projection = {
  name: 'resources',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<ResourceEvent>(recorded);
    switch (event.type) {
      case 'ResourcePublished.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO resources (id, title, category, description, roles, file_name, original_name, type, published_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
          [
            d.resourceId,
            d.title,
            d.category,
            d.description,
            d.roles,
            d.file.name,
            d.file.originalName,
            d.file.type,
            d.publishedBy,
            recorded.metadata.occurredAt,
          ],
        );
        return;
      }
      case 'ResourceRemoved.v1':
        await db.query('DELETE FROM resources WHERE id = $1', [event.data.resourceId]);
        return;
    }
  },
};

interface ResourceRow {
  id: string;
  title: string;
  category: string;
  description: string;
  roles: string[];
  file_name: string;
  original_name: string;
  type: string;
  created_at: Date;
}

export function toResourceView(row: ResourceRow): Resource {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    description: row.description,
    roles: row.roles,
    file_name: row.file_name,
    original_name: row.original_name,
    type: row.type,
    url: `/api/resources/files/${row.file_name}`,
    created_at: row.created_at.toISOString(),
  };
}
export type ResourceView = Resource;

/** What the caller may download: resources for their role (everything, for `role` undefined: admins). */
export async function listResources(
  db: Queryable,
  role: string | undefined,
  filters: { ids?: string[]; category?: string; search?: string },
  page: { offset: number; limit: number; sort?: { field: 'id' | 'title' | 'category' | 'created_at'; order: 'ASC' | 'DESC' } },
): Promise<{ rows: ResourceView[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (role) where.push(`${param(role)} = ANY(roles)`);
  if (filters.ids) where.push(`id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.category) where.push(`category = ${param(filters.category)}`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(title ILIKE ${pattern} OR description ILIKE ${pattern} OR category ILIKE ${pattern})`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const order = page.sort ? `${page.sort.field} ${page.sort.order}` : 'created_at DESC';
  const { rows, total } = await pageOf<ResourceRow>(db, {
    columns: '*',
    from: 'read.resources',
    where: clause,
    order: `${order}, id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(toResourceView), total };
}

export async function findResource(db: Queryable, id: string): Promise<ResourceView | undefined> {
  const { rows } = await db.query<ResourceRow>('SELECT * FROM read.resources WHERE id = $1', [id]);
  return rows[0] && toResourceView(rows[0]);
}

export async function resourceByFile(db: Queryable, fileName: string): Promise<ResourceView | undefined> {
  const { rows } = await db.query<ResourceRow>('SELECT * FROM read.resources WHERE file_name = $1', [fileName]);
  return rows[0] && toResourceView(rows[0]);
}
