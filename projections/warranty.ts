import { warrantyEnd, warrantyMonthsOf, type WarrantyCheckEvent } from '../domain/warranty/warranty';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/** read.warranty_checks (read.order_units is the orders projection's). */
export const warrantyProjection: Projection = {
  name: 'warranty',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<WarrantyCheckEvent>(recorded);
    if (event.type !== 'WarrantyChecked.v1') return;
    const d = event.data;
    await db.query(
      `INSERT INTO warranty_checks (id, serial_number, checked_by, organisation_id, found, order_id, under_warranty, checked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [d.checkId, d.serialNumber, d.checkedBy, d.organisationId, d.found, d.orderId, d.underWarranty, recorded.metadata.occurredAt],
    );
  },
};

export interface UnitWarranty {
  serial_number: string;
  product_id: string;
  product_name: string;
  category: string | null;
  order_id: string;
  order_number: string;
  organisation_id: string;
  company_name: string | null;
  shipped_at: string;
  delivered_at: string | null;
  /** Delivery, or shipping while the unit is on its way: where the warranty starts. */
  warranty_start: string;
  warranty_months: number;
  warranty_ends_at: string;
  under_warranty: boolean;
}

/** A shipped unit by serial number, within the caller's organisation (undefined: none for all organisations). */
export async function findUnit(
  db: Queryable,
  serialNumber: string,
  organisationId: string | undefined,
  now: Date = new Date(),
): Promise<UnitWarranty | undefined> {
  const params: unknown[] = [serialNumber.trim().toUpperCase()];
  const scoped = organisationId ? ` AND u.organisation_id = $${params.push(organisationId)}` : '';
  const { rows } = await db.query<{
    serial_number: string;
    product_id: string;
    product_name: string;
    category: string | null;
    order_id: string;
    order_number: string;
    organisation_id: string;
    company_name: string | null;
    shipped_at: Date;
    delivered_at: Date | null;
  }>(
    `SELECT u.serial_number, u.product_id, u.product_name, p.category, u.order_id, o.order_number, u.organisation_id, o.company_name, u.shipped_at, o.delivered_at
     FROM read.order_units u JOIN read.orders o ON o.id = u.order_id LEFT JOIN read.products p ON p.id = u.product_id
     WHERE u.serial_number = $1${scoped}`,
    params,
  );
  const row = rows[0];
  if (!row) return undefined;
  const start = (row.delivered_at ?? row.shipped_at).toISOString();
  const months = warrantyMonthsOf(row.category);
  const ends = warrantyEnd(start, months);
  return {
    serial_number: row.serial_number,
    product_id: row.product_id,
    product_name: row.product_name,
    category: row.category,
    order_id: row.order_id,
    order_number: row.order_number,
    organisation_id: row.organisation_id,
    company_name: row.company_name,
    shipped_at: row.shipped_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
    warranty_start: start,
    warranty_months: months,
    warranty_ends_at: ends,
    under_warranty: now.getTime() <= Date.parse(ends),
  };
}
