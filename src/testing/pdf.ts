import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The text of a PDF as poppler's pdftotext reads it (what a person sees), with runs of spaces made one. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const child = run('pdftotext', ['-layout', '-', '-'], { encoding: 'utf8' });
  child.child.stdin!.end(pdf);
  const { stdout } = await child;
  return stdout.replace(/[ \t]+/g, ' ');
}

/** The number of pages poppler's pdfinfo finds (it refuses a malformed PDF). */
export async function pdfPages(pdf: Buffer): Promise<number> {
  const child = run('pdfinfo', ['-'], { encoding: 'utf8' });
  child.child.stdin!.end(pdf);
  const { stdout } = await child;
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}
