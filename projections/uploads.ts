import type { Pool } from '../platform/db';
import type { Visibility } from '../platform/uploadStorage';

/**
 * Every read-model column that holds upload names. A module that stores uploads adds its columns here
 * (docs/adding-a-module.md); a file named in any of them is never removed.
 */
export function readModelColumnsHoldingUploads(): ReadonlyArray<{ table: string; column: string; visibility: Visibility }> {
  return [
    { table: 'read.products', column: 'image', visibility: 'public' },
    { table: 'read.partners', column: 'company_logo', visibility: 'public' },
    { table: 'read.ticket_attachments', column: 'name', visibility: 'private' },
    { table: 'read.resources', column: 'file_name', visibility: 'private' },
    { table: 'read.projects', column: 'boq_file', visibility: 'private' },
    { table: 'read.rebate_documents', column: 'file', visibility: 'private' },
    { table: 'read.fund_files', column: 'file', visibility: 'private' },
    { table: 'read.course_lessons', column: 'media_file', visibility: 'private' },
  ];
}

/** Whether any read model still names the upload (of that visibility). */
export async function isUploadReferenced(pool: Pool, name: string, visibility: Visibility): Promise<boolean> {
  const columns = readModelColumnsHoldingUploads().filter((c) => c.visibility === visibility);
  if (columns.length === 0) return false;
  const { rows } = await pool.query<{ referenced: boolean }>(
    `SELECT ${columns.map(({ table, column }) => `EXISTS (SELECT 1 FROM ${table} WHERE ${column} = $1)`).join(' OR ')} AS referenced`,
    [name],
  );
  return rows[0].referenced;
}
