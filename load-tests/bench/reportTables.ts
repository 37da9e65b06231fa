/** Plain-text tables for the console report. */
import type { LatencySummary } from './percentiles';

export type Cell = string | number;

const isNumeric = (cell: Cell) => typeof cell === 'number' || /^[-+]?[\d,.]+\s*(%|ms|\/s|x)?$/.test(cell);

/** Numbers are right-aligned unless `align` says otherwise for a column ('left' or 'right'). */
export function renderTable(title: string, header: readonly string[], rows: readonly (readonly Cell[])[], align?: readonly ('left' | 'right')[]): string {
  const text = rows.map((row) => row.map((cell) => String(cell)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[], numeric: readonly boolean[]) =>
    '| ' + cells.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ') + ' |';
  const rule = '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|';
  return [
    title,
    line(
      header,
      header.map(() => false),
    ),
    rule,
    ...rows.map((row, r) =>
      line(
        text[r],
        row.map((cell, i) => (align?.[i] ? align[i] === 'right' : i > 0 && isNumeric(cell))),
      ),
    ),
  ].join('\n');
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const formatRate = (perSecond: number) => (Number.isFinite(perSecond) ? `${grouped.format(perSecond)}/s` : 'n/a');
export const formatCount = (count: number) => grouped.format(count);
export const formatMs = (ms: number) => (Number.isFinite(ms) ? `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms` : 'n/a');
export const formatPercent = (ratio: number) => (Number.isFinite(ratio) ? `${(ratio * 100).toFixed(1)}%` : 'n/a');

/** A command bench's table: one line per kind of request with its count and latency percentiles. */
export function latencyTable(title: string, lines: ReadonlyArray<readonly [string, LatencySummary]>): string {
  return renderTable(
    title,
    ['what', 'count', 'p50', 'p95', 'p99', 'max'],
    lines.map(([what, summary]) => [
      what,
      formatCount(summary.count),
      formatMs(summary.p50),
      formatMs(summary.p95),
      formatMs(summary.p99),
      formatMs(summary.max),
    ]),
  );
}

/** The line under a command bench's table: how many commands in how long, and the first error if any. */
export function commandsLine(
  section: { commands: number; seconds: number; commandsPerSecond: number; errors: number; firstError?: string | null },
  counts = '',
): string {
  const first = section.firstError ? `; first: ${section.firstError}` : '';
  return `   commands: ${formatCount(section.commands)} in ${section.seconds.toFixed(1)} s = ${formatRate(section.commandsPerSecond)} (${counts}${section.errors} errors${first})`;
}
