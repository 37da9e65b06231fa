import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where uploaded files live: public ones (logos, product images) and private ones (attachments, proofs), under random names. */

export type Visibility = 'public' | 'private';

/** A file checked by its content, ready to be stored. */
export interface FileToStore {
  /** The uploader's name made safe to show and to save under, with the extension of `type`. */
  originalName: string;
  /** The extension of the type the content was recognised as. */
  type: string;
  bytes: Buffer;
}

/** The names `storeUpload` gives: anything else is never read or removed. */
export const UPLOAD_NAME = /^[0-9a-f-]{36}\.(png|jpg|gif|webp|svg|pdf|doc|docx|xls|xlsx|csv|mp4|webm)$/;

/** Stores a checked file under a new random name and returns that name. */
export async function storeUpload(uploadDir: string, file: FileToStore, visibility: Visibility): Promise<string> {
  const name = `${randomUUID()}.${file.type}`;
  const dir = path.join(uploadDir, visibility);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), file.bytes, { flag: 'wx' });
  return name;
}

export async function removeUpload(uploadDir: string, name: string, visibility: Visibility): Promise<void> {
  if (UPLOAD_NAME.test(name)) await rm(path.join(uploadDir, visibility, name), { force: true });
}
