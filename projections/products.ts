import { pageOf } from './paging';
import type { ProductView } from '../contracts/products';
import {
  DELIVERY_TIME_LABELS,
  DELIVERY_TIME_STOCK,
  deliveryTime,
  LOW_STOCK_LIMIT,
  stockStatus,
  type DeliveryTime,
  type ProductEvent,
  type StockStatus,
} from '../domain/products/products';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/** read.products: the catalogue as buyers and the admin panel see it. */
export const catalogueProjection: Projection = {
  name: 'catalogue',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<ProductEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'ProductAdded.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO products (id, name, price, category, stock_quantity, moq, description, image, created_at, updated_at)
           VALUES ($1, $2, $3::bigint / 100.0, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (id) DO NOTHING`,
          [d.productId, d.name, d.priceCents, d.category, d.stockQuantity, d.moq, d.description, d.image, at],
        );
        return;
      }
      case 'ProductUpdated.v1': {
        const d = event.data;
        await db.query(
          `UPDATE products SET name = $2, price = $3::bigint / 100.0, category = $4, stock_quantity = $5, moq = $6, description = $7, image = $8, updated_at = $9 WHERE id = $1`,
          [d.productId, d.name, d.priceCents, d.category, d.stockQuantity, d.moq, d.description, d.image, at],
        );
        return;
      }
      case 'ProductRemoved.v1':
        await db.query('DELETE FROM products WHERE id = $1', [event.data.productId]);
        return;
      case 'StockReserved.v1':
      case 'StockReleased.v1':
        await db.query('UPDATE products SET stock_quantity = $2 WHERE id = $1', [event.data.productId, event.data.stockQuantity]);
        return;
    }
  },
};

// ---- queries ----

export interface ProductRow {
  id: string;
  name: string;
  price: string;
  category: string;
  stock_quantity: number;
  moq: number;
  description: string;
  image: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The product as the API answers it (spec 002 §3), with its stock level and delivery time. */
export function toProductView(row: ProductRow): ProductView {
  return {
    id: row.id,
    name: row.name,
    price: Number(row.price),
    category: row.category,
    stock_quantity: row.stock_quantity,
    moq: row.moq,
    description: row.description,
    image: row.image,
    image_url: row.image ? `/uploads/${row.image}` : null,
    stock_status: stockStatus(row.stock_quantity),
    delivery_time: DELIVERY_TIME_LABELS[deliveryTime(row.stock_quantity)],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function findProduct(db: Queryable, id: string): Promise<ProductRow | undefined> {
  const { rows } = await db.query<ProductRow>('SELECT * FROM read.products WHERE id = $1', [id]);
  return rows[0];
}

export interface ProductFilters {
  category?: string;
  stock?: StockStatus;
  delivery?: DeliveryTime;
  search?: string;
  ids?: string[];
}

export type ProductSortField = 'id' | 'name' | 'moq' | 'stock_quantity' | 'price' | 'created_at' | 'category';

const STOCK_RANGES: Readonly<Record<StockStatus, { min: number; max: number | null }>> = {
  out_of_stock: { min: 0, max: 0 },
  low_stock: { min: 1, max: LOW_STOCK_LIMIT },
  in_stock: { min: LOW_STOCK_LIMIT + 1, max: null },
};

/** Newest first unless a sort is asked for; the search matches name, description or category, ignoring case. */
export async function listProducts(
  db: Queryable,
  filters: ProductFilters,
  page: { offset: number; limit: number; sort?: { field: ProductSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: ProductRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.category) where.push(`category = ${param(filters.category)}`);
  for (const range of [filters.stock && STOCK_RANGES[filters.stock], filters.delivery && DELIVERY_TIME_STOCK[filters.delivery]]) {
    if (!range) continue;
    where.push(`stock_quantity >= ${param(range.min)}`);
    if (range.max !== null) where.push(`stock_quantity <= ${param(range.max)}`);
  }
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(name ILIKE ${pattern} OR description ILIKE ${pattern} OR category ILIKE ${pattern})`);
  }
  if (filters.ids) where.push(`id = ANY(${param(filters.ids)}::uuid[])`);
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const sortColumn = page.sort ? (page.sort.field === 'name' ? 'lower(name)' : page.sort.field) : 'created_at';
  const order = `${sortColumn} ${page.sort?.order ?? 'DESC'}, lower(name), id`;
  return pageOf<ProductRow>(db, { columns: '*', from: 'read.products', where: clause, order, params, offset: page.offset, limit: page.limit });
}
