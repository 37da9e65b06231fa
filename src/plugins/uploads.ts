import fastifyMultipart from '@fastify/multipart';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import type { Services } from '../../platform/services';
import { HttpError } from './errors';
import { attachmentDisposition, safeDownloadName } from './downloadName';
import { firstUnstorableText } from '../../domain/storableText';
import { unstorableTextError } from './text';
import { UPLOAD_NAME, type FileToStore, type Visibility } from '../../platform/uploadStorage';

/** Accepted file types, recognised by their content (magic bytes), never by name or declared type. */
export const FILE_TYPES = {
  png: { mime: 'image/png', label: 'PNG' },
  jpg: { mime: 'image/jpeg', label: 'JPG' },
  gif: { mime: 'image/gif', label: 'GIF' },
  webp: { mime: 'image/webp', label: 'WEBP' },
  svg: { mime: 'image/svg+xml', label: 'SVG' },
  pdf: { mime: 'application/pdf', label: 'PDF' },
  doc: { mime: 'application/msword', label: 'DOC' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', label: 'DOCX' },
  xls: { mime: 'application/vnd.ms-excel', label: 'XLS' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', label: 'XLSX' },
  csv: { mime: 'text/csv', label: 'CSV' },
  mp4: { mime: 'video/mp4', label: 'MP4' },
  webm: { mime: 'video/webm', label: 'WEBM' },
} as const;
export type FileTypeName = keyof typeof FILE_TYPES;

export const IMAGE_TYPES: readonly FileTypeName[] = ['png', 'jpg', 'gif', 'webp', 'svg'];
export const DOCUMENT_TYPES: readonly FileTypeName[] = ['pdf', 'doc', 'docx', 'jpg', 'png'];

const MB = 1024 * 1024;
/** The largest single file any route accepts; each route's own rule is checked after. */
const MAX_FILE_BYTES = 10 * MB;
/** Files and text fields together. */
const MAX_PARTS = 120;

export interface FileRule {
  label: string; // 'Company logo' — used in messages
  types: readonly FileTypeName[];
  maxBytes: number;
  maxCount: number;
}

export interface ReceivedFile extends FileToStore {
  field: string;
  type: FileTypeName;
}

export interface MultipartForm {
  fields: Record<string, string | string[]>;
  files: Record<string, ReceivedFile[]>;
}

const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/**
 * Comma- or semicolon-separated text: UTF-8 without control characters, at least two lines, and the
 * same number of separators on each of the first lines. Plain prose renamed to .csv is not.
 */
function looksLikeCsv(bytes: Buffer): boolean {
  const text = bytes.subarray(0, 64 * 1024).toString('utf8');
  if (text.includes('\uFFFD') || /[\x00-\x08\x0B\x0C\x0E-\x1F]/.test(text)) return false;
  const lines = text
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .slice(0, 20);
  if (bytes.length > 64 * 1024) lines.pop(); // the last line may be cut off
  if (lines.length < 2) return false;
  return [',', ';'].some((separator) => {
    const counts = lines.map((line) => line.replace(/"[^"]*"/g, '').split(separator).length - 1);
    return counts[0] > 0 && counts.every((count) => count === counts[0]);
  });
}

async function detectType(bytes: Buffer, fileName = ''): Promise<FileTypeName | undefined> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && detected.ext !== 'xml') {
    // The legacy Office container holds Word and Excel documents alike; the name tells which.
    if (detected.ext === 'cfb') return /\.xls$/i.test(fileName) ? 'xls' : 'doc';
    return (Object.keys(FILE_TYPES) as FileTypeName[]).find((name) => FILE_TYPES[name].mime === detected.mime);
  }
  // SVG is text: accept it only when it really is an SVG document.
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'svg';
  if (looksLikeCsv(bytes)) return 'csv';
  return undefined;
}

/**
 * Reads a multipart request whole, checking each file against its field's rule. Nothing is stored
 * here: routes store files only once the rest of the request is valid (see storeUpload).
 */
export async function readMultipart(request: FastifyRequest, rules: Record<string, FileRule>): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This request must be sent as multipart/form-data.');
  const form: MultipartForm = { fields: {}, files: {} };
  try {
    await readParts(request, rules, form);
  } catch (error) {
    if (error instanceof HttpError || (error as { code?: string }).code?.startsWith('FST_')) throw error;
    // The parser's own complaints (no boundary, a boundary that never comes, a body cut short) are the client's.
    throw new HttpError(400, 'MALFORMED_MULTIPART', `The upload could not be read: the multipart body is malformed (${(error as Error).message}).`);
  }
  return form;
}

/** The longest text field of a form; longer ones are refused, not cut. */
const MAX_FIELD_BYTES = 100 * 1024;

/**
 * Every part is read as bytes (busboy would otherwise decode text fields itself and put U+FFFD in place
 * of broken UTF-8, also when the part claims a charset), so a text field is decoded here strictly:
 * text that is not UTF-8 is refused as JSON refuses it.
 */
const PARSE_AS_BYTES = { isPartAFile: () => true, limits: { files: MAX_PARTS, fileSize: MAX_FILE_BYTES } };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

async function readTextField(field: string, stream: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_FIELD_BYTES) {
      throw new HttpError(400, 'VALIDATION_ERROR', `${field} is too long: at most ${MAX_FIELD_BYTES / 1024} KB of text.`, [
        { field, message: `At most ${MAX_FIELD_BYTES / 1024} KB of text.` },
      ]);
    }
    chunks.push(chunk);
  }
  try {
    return strictUtf8.decode(Buffer.concat(chunks));
  } catch {
    throw unstorableTextError(field);
  }
}

async function readParts(request: FastifyRequest, rules: Record<string, FileRule>, form: MultipartForm): Promise<void> {
  for await (const part of request.parts(PARSE_AS_BYTES)) {
    if (part.type !== 'file') continue; // every part arrives as bytes (PARSE_AS_BYTES)
    // A part without a file name is a text field.
    if (part.filename === undefined) {
      const value = await readTextField(part.fieldname, part.file);
      if (firstUnstorableText({ [part.fieldname]: value }) !== undefined) throw unstorableTextError(part.fieldname);
      const existing = form.fields[part.fieldname];
      form.fields[part.fieldname] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
      continue;
    }
    if (firstUnstorableText({ [part.fieldname]: part.filename }) !== undefined) {
      part.file.resume();
      throw unstorableTextError(part.fieldname);
    }
    const rule = rules[part.fieldname];
    if (!rule) {
      part.file.resume();
      throw new HttpError(400, 'VALIDATION_ERROR', `Unexpected file field: ${part.fieldname}.`, [
        { field: part.fieldname, message: 'No file is expected here.' },
      ]);
    }
    const bytes = await part.toBuffer();
    const list = (form.files[part.fieldname] ??= []);
    if (bytes.length === 0) continue; // an empty file input
    if (list.length >= rule.maxCount) {
      throw new HttpError(400, 'VALIDATION_ERROR', `${rule.label}: at most ${rule.maxCount} file${rule.maxCount === 1 ? '' : 's'}.`, [
        { field: part.fieldname, message: `At most ${rule.maxCount}.` },
      ]);
    }
    if (bytes.length > rule.maxBytes) {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `${rule.label} must be at most ${mb(rule.maxBytes)}.`, [
        { field: part.fieldname, message: `At most ${mb(rule.maxBytes)}.` },
      ]);
    }
    const type = await detectType(bytes, part.filename);
    if (!type || !rule.types.includes(type)) {
      const allowed = rule.types.map((t) => FILE_TYPES[t].label).join(', ');
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `${rule.label} must be a ${allowed} file; "${part.filename}" is not.`, [
        { field: part.fieldname, message: `Accepted: ${allowed}.` },
      ]);
    }
    list.push({ field: part.fieldname, originalName: safeDownloadName(part.filename, type), type, bytes });
  }
}

export const uploadNameParam = z.object({ name: z.string().regex(UPLOAD_NAME, 'There is no such file.') }).strict();

/**
 * Sends a stored file; routes for private files check access first. With `downloadAs` (the uploader's
 * name, as recorded) it is offered as a download under that name made safe, with the extension of the
 * type its content was checked to be when it was stored.
 */
export async function sendUpload(reply: import('fastify').FastifyReply, uploadDir: string, name: string, visibility: Visibility, downloadAs?: string) {
  const file = path.join(uploadDir, visibility, name);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
  const typeName = name.split('.').pop() as FileTypeName;
  const type = FILE_TYPES[typeName];
  reply.header('content-type', type.mime);
  if (downloadAs !== undefined) reply.header('content-disposition', attachmentDisposition(safeDownloadName(downloadAs, typeName)));
  reply.header('content-length', info.size);
  reply.header('x-content-type-options', 'nosniff');
  // An SVG opened directly must not run scripts.
  reply.header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
  reply.header('cache-control', visibility === 'public' ? 'public, max-age=86400' : 'private, no-store');
  return reply.send(createReadStream(file));
}

/** Multipart parsing for the whole API, and public files (logos, product images) at /uploads/<name>. */
export async function registerUploads(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_FILE_BYTES, files: 10, fields: 100, fieldSize: MAX_FIELD_BYTES, parts: MAX_PARTS },
    throwFileSizeLimit: true,
  });
  app.get('/uploads/:name', { schema: { hide: true, params: uploadNameParam } }, async (request, reply) =>
    sendUpload(reply, services.config.UPLOAD_DIR, (request.params as { name: string }).name, 'public'),
  );
}
