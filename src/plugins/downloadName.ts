/** Other spellings of a type's extension that a name may keep. */
const EXTENSION_SPELLINGS: Partial<Record<string, readonly string[]>> = { jpg: ['jpeg', 'jpe'] };

/** Longest stem kept (characters); the extension comes on top. */
const MAX_STEM = 120;

/**
 * Characters a saved file name must not hold: controls, format characters (bidirectional overrides
 * and isolates, zero-width marks), line and paragraph separators, private and unassigned code
 * points, and the replacement character left by broken text.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\uFFFD]/gu;
/** Refused in file names by common file systems. */
const RESERVED = /[<>:"|?*]/g;

/**
 * The name a download is offered as: the uploader's name without anything that could disguise it
 * (directions, invisible characters, path parts), ending in the extension of the type the content was
 * checked to be, so a PDF named `evil.html` downloads as `evil.pdf`.
 */
export function safeDownloadName(uploaderName: string, type: string): string {
  const lastPart = uploaderName.normalize('NFC').split(/[\\/]/).pop() ?? '';
  const cleaned = lastPart
    .replace(INVISIBLE, '')
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 ? cleaned.slice(dot + 1) : '';
  const spellings = [type, ...(EXTENSION_SPELLINGS[type] ?? [])];
  if (spellings.includes(extension.toLowerCase()) && [...cleaned].length <= MAX_STEM + extension.length + 1) return cleaned;
  const stem = [...(/^[a-z0-9]{1,10}$/i.test(extension) ? cleaned.slice(0, dot) : cleaned)]
    .slice(0, MAX_STEM)
    .join('')
    .replace(/[\s.]+$/, '');
  return `${stem || 'download'}.${type}`;
}

/** RFC 5987 / 8187 value characters: encodeURIComponent leaves a few more unescaped than it allows. */
const rfc5987 = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition` offering a file as a download under `name` (already made safe): a plain ASCII
 * `filename` for old clients (accents dropped, anything else `_`) and the exact name as `filename*`.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]+/g, '_')
    .replace(/["\\%;']/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}
