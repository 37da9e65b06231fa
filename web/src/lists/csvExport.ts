import { defaultExporter, type DataProvider, type RaRecord } from 'react-admin';
import type { ListSort } from './listControls';

/** One column of an export: its heading and how a row gives its value. */
export interface CsvColumn<Row> {
  label: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/** Without a row type it takes columns written for any one kind of row (a column's `value` only ever receives rows). */
export interface CsvExport<Row = never> {
  resource: string;
  /** The list's current filter, so the file has exactly the rows the filters select. */
  filter: Record<string, unknown>;
  sort: ListSort;
  /** The file name without ".csv". */
  fileName: string;
  columns: CsvColumn<Row>[];
  meta?: Record<string, unknown>;
}

const API_PAGE = 100;
/** More rows than this is not a spreadsheet any more; the button says so instead of freezing the tab. */
export const MAX_EXPORT_ROWS = 10_000;

/**
 * Spreadsheets run a cell that starts with = + - @ as a formula; such text cells get a leading
 * apostrophe so a company named "=HYPERLINK(...)" stays text.
 */
export function csvSafe(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Rows as the objects react-admin's exporter writes, one key per column heading, in column order. */
export function csvRows<Row>(rows: Row[], columns: CsvColumn<Row>[]): Record<string, string | number | boolean>[] {
  return rows.map((row) => Object.fromEntries(columns.map((column) => [column.label, csvSafe(column.value(row))])));
}

/** Every row the filter selects, page by page, in the list's order. */
export async function fetchAllRows<Row extends RaRecord>(dataProvider: DataProvider, config: CsvExport<Row>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const { data, total } = await dataProvider.getList<Row>(config.resource, {
      pagination: { page, perPage: API_PAGE },
      sort: config.sort,
      filter: config.filter,
      meta: config.meta,
    });
    rows.push(...data);
    if (rows.length > MAX_EXPORT_ROWS) throw new Error(`More than ${MAX_EXPORT_ROWS.toLocaleString('en-US')} rows match; narrow the filters first.`);
    if (data.length < API_PAGE || (total !== undefined && rows.length >= total)) return rows;
  }
}

/** Fetches what the filters select and downloads it with react-admin's CSV exporter. */
export async function exportCsv<Row extends RaRecord>(dataProvider: DataProvider, config: CsvExport<Row>): Promise<number> {
  const rows = await fetchAllRows(dataProvider, config);
  await defaultExporter(csvRows(rows, config.columns), () => Promise.resolve({}), dataProvider, config.fileName);
  return rows.length;
}
