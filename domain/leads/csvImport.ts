import { DomainError } from '../decider';
import { LEAD_SOURCES, normalizeLeadDetails, type LeadDetails, type LeadSource } from './leads';

/**
 * Leads from a CSV file: columns named like the API's fields (`company`, `contact_name`, `email`,
 * `phone`, `country`, `region`, `product_interest`, `estimated_value`, `source`, `notes`), comma- or
 * semicolon-separated, quoted as spreadsheets write them. Each row is checked on its own, so the
 * preview can list every bad row with its line and message.
 */

export const IMPORT_COLUMNS = [
  'company',
  'contact_name',
  'email',
  'phone',
  'country',
  'region',
  'product_interest',
  'estimated_value',
  'source',
  'notes',
] as const;
export const REQUIRED_COLUMNS = ['company', 'contact_name', 'email'] as const;
export const MAX_IMPORT_ROWS = 5000;

export interface ImportRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  /** The company cell as written, so a bad row can be recognised in the report. */
  company: string | null;
  details: LeadDetails | null;
  errors: Array<{ field: string; message: string }>;
}

/** RFC 4180 records: quotes may hold separators, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === separator) {
      record.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records.filter((r) => r.some((value) => value.trim() !== ''));
}

const invalidFile = (message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field: 'file', message }]);

/** `Web form`, `web-form` and `web_form` are the same source. */
function sourceOf(text: string): LeadSource | string {
  const key = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return key === '' ? 'other' : (LEAD_SOURCES as readonly string[]).includes(key) ? key : text.trim();
}

/** The file's rows, each with its lead's details or its problems. Refuses a file that is not a lead list at all. */
export function importRows(text: string): ImportRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) throw invalidFile('The file is empty.');
  const columns = header.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => name && !(IMPORT_COLUMNS as readonly string[]).includes(name));
  if (unknown.length)
    throw invalidFile(`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Columns are named ${IMPORT_COLUMNS.join(', ')}.`);
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length) throw invalidFile(`The file needs the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
  if (records.length === 0) throw invalidFile('The file has no rows below its header.');
  if (records.length > MAX_IMPORT_ROWS) throw invalidFile(`Import at most ${MAX_IMPORT_ROWS} rows at a time.`);
  return records.map((values, index) => {
    const line = index + 2;
    const cell = (name: string) => {
      const at = columns.indexOf(name);
      return at < 0 ? '' : (values[at] ?? '').trim();
    };
    const company = cell('company') || null;
    if (values.length > columns.length)
      return { line, company, details: null, errors: [{ field: 'row', message: `The row has ${values.length} cells; the header names ${columns.length}.` }] };
    const valueText = cell('estimated_value').replace(/[$,\s]/g, '');
    const value = valueText === '' ? null : Number(valueText);
    if (value !== null && !Number.isFinite(value))
      return { line, company, details: null, errors: [{ field: 'estimated_value', message: 'Estimated value must be a number.' }] };
    try {
      const details = normalizeLeadDetails({
        company: cell('company'),
        contactName: cell('contact_name'),
        email: cell('email'),
        phone: cell('phone') || null,
        country: cell('country') || null,
        region: (cell('region') || null) as LeadDetails['region'],
        productInterest: cell('product_interest') || null,
        estimatedValue: value,
        source: sourceOf(cell('source')) as LeadSource,
        notes: cell('notes') || null,
      });
      return { line, company, details, errors: [] };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return {
        line,
        company,
        details: null,
        errors: (error.details as Array<{ field: string; message: string }>) ?? [{ field: 'row', message: error.message }],
      };
    }
  });
}

/** The same row always names the same lead, so a file imported twice creates nothing the second time. */
export const importKey = (details: LeadDetails) =>
  [
    'lead-import',
    details.company.toLowerCase(),
    details.contactName.toLowerCase(),
    details.email,
    details.phone ?? '',
    details.country ?? '',
    details.region ?? '',
    details.productInterest ?? '',
    details.estimatedValue ?? '',
    details.source,
    details.notes ?? '',
  ].join('\u001f');
