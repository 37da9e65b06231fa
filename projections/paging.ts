import type { Queryable } from '../platform/db';

/** One page of a list query: each part is SQL text whose placeholders number into `params`. */
export interface PageQuery {
  /** The columns of a row. */
  columns: string;
  /** The tables, joins included. */
  from: string;
  /** '' or 'WHERE …'. */
  where: string;
  /** The ORDER BY terms; they should end in a unique column, so that pages neither skip nor repeat a row. */
  order: string;
  /** The where's values first; the order's own values, if any, after them. */
  params: readonly unknown[];
  /** How many of `params` the where uses, when the order has values of its own (default: all of them). */
  whereParams?: number;
  /**
   * The table the where reads, when `from` adds joins (or lateral lookups) for the columns only. The total is
   * then counted there, once per statement, and the joins run for the page's rows alone instead of for every
   * row the window count would otherwise have to build.
   */
  countFrom?: string;
  offset: number;
  limit: number;
}

/**
 * The rows of one page and how many rows the list has on all pages: the total rides with the page
 * (count(*) OVER (), or a count of `countFrom` in the same statement), and is asked for on its own only
 * for a page past the end, which has no row to carry it, so that every list answers the same total
 * whichever page is asked for.
 */
export async function pageOf<Row extends object>(db: Queryable, query: PageQuery): Promise<{ rows: Row[]; total: number }> {
  const params = [...query.params];
  const totalColumn = query.countFrom ? `(SELECT count(*)::int FROM ${query.countFrom} ${query.where})` : 'count(*) OVER ()::int';
  const text = `SELECT ${query.columns}, ${totalColumn} AS page_total FROM ${query.from} ${query.where}
     ORDER BY ${query.order} OFFSET $${params.push(query.offset)} LIMIT $${params.push(query.limit)}`;
  const { rows } = await db.query<Row & { page_total?: number }>(text, params);
  const total = rows[0]?.page_total ?? (query.offset > 0 ? await countOf(db, query) : 0);
  for (const row of rows) delete row.page_total;
  return { rows, total };
}

/**
 * How many rows a list has on all its pages, counted with its own tables and conditions and without
 * reading a row: for a page past the end, and for a KPI card, which shows a list's total and no row.
 */
export async function countOf(db: Queryable, query: Pick<PageQuery, 'from' | 'countFrom' | 'where' | 'params' | 'whereParams'>): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${query.countFrom ?? query.from} ${query.where}`,
    query.params.slice(0, query.whereParams ?? query.params.length),
  );
  return rows[0].n;
}
