import { describe, expect, it } from 'vitest';
import { csvLines, inChunks } from './csv';

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

async function* linesOf(count: number, width: number): AsyncGenerator<string> {
  for (let i = 0; i < count; i++) yield `${String(i).padStart(width, '0')}\r\n`;
}

describe('inChunks', () => {
  it('sends every line once, in order, in chunks of at least the size but the last', async () => {
    const chunks = await collect(inChunks(linesOf(1000, 30), 1024));
    expect(chunks.join('')).toBe((await collect(linesOf(1000, 30))).join(''));
    // 32 lines of 32 characters fill a chunk of 1,024: 31 full chunks, then the last 8 lines.
    expect(chunks.length).toBe(32);
    expect(chunks.at(-1)!.length).toBe(8 * 32);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(1024);
  });

  it('sends a file smaller than a chunk as one write, and nothing for no lines', async () => {
    expect(await collect(inChunks(linesOf(3, 4), 1024))).toEqual(['0000\r\n0001\r\n0002\r\n']);
    expect(await collect(inChunks(linesOf(0, 4), 1024))).toEqual([]);
  });

  it('keeps a CSV file byte for byte', async () => {
    async function* rows() {
      yield { name: '=cmd', note: 'a "quoted", line' };
      yield { name: 'plain', note: null };
    }
    const lines = csvLines<{ name: string; note: string | null }>(
      [
        ['Name', (r) => r.name],
        ['Note', (r) => r.note],
      ],
      rows(),
    );
    expect((await collect(inChunks(lines, 8))).join('')).toBe('\uFEFFName,Note\r\n\'=cmd,"a ""quoted"", line"\r\nplain,\r\n');
  });
});
