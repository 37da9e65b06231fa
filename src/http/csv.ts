/** CSV downloads: one header row, then one row per record, written as the rows arrive. */

import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export type CsvValue = string | number | null | undefined;
export type CsvColumns<Row> = ReadonlyArray<readonly [header: string, value: (row: Row) => CsvValue]>;

/** A CSV cell; text that a spreadsheet would run as a formula is prefixed with a quote. */
export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The lines of the file, starting with a byte-order mark so spreadsheets read it as UTF-8. */
export async function* csvLines<Row>(columns: CsvColumns<Row>, rows: AsyncIterable<Row>): AsyncGenerator<string> {
  yield `\uFEFF${columns.map(([header]) => header).join(',')}\r\n`;
  for await (const row of rows) yield `${columns.map(([, value]) => csvCell(value(row))).join(',')}\r\n`;
}

/**
 * Sends the lines as a stream, written as they are read. Fastify never serializes a stream, so the reply is taken as the
 * plain FastifyReply: a route's typed reply would want the answer its response schema (the file, as a string) describes.
 */
export function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>): FastifyReply {
  return reply.send(Readable.from(lines));
}
