/** A CSV cell; text that a spreadsheet would run as a formula is prefixed with a quote. */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV file as lines: a byte-order mark and the header first (spreadsheets then read UTF-8), CRLF endings. */
export async function* csvLines<Row>(columns: ReadonlyArray<readonly [header: string, value: (row: Row) => string | number | null]>, rows: AsyncIterable<Row>): AsyncGenerator<string> {
  yield `\uFEFF${columns.map(([header]) => header).join(',')}\r\n`;
  for await (const row of rows) yield `${columns.map(([, value]) => csvCell(value(row))).join(',')}\r\n`;
}
