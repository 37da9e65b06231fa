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

/** About this many characters go out in one write: a write per line would be a socket write per line. */
const CHUNK_CHARS = 32 * 1024;

/** The lines gathered into chunks of about `size` characters, in order; the last chunk holds what is left. */
export async function* inChunks(lines: AsyncIterable<string>, size = CHUNK_CHARS): AsyncGenerator<string> {
  let chunk = '';
  for await (const line of lines) {
    chunk += line;
    if (chunk.length >= size) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Sends the lines as a stream, written as they are read, a chunk at a time. Fastify never serializes a stream, so the reply
 * is taken as the plain FastifyReply: a route's typed reply would want the answer its response schema (the file, as a string) describes.
 */
export function sendCsv(reply: FastifyReply, lines: AsyncIterable<string>): FastifyReply {
  return reply.send(Readable.from(inChunks(lines)));
}
