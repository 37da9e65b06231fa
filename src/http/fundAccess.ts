import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { seesAllOrganisations } from '../../domain/access';
import { FUND_CLAIM_MESSAGES } from '../../domain/funds/claims';
import { FUND_MESSAGES } from '../../domain/funds/funds';
import { FUND_REQUEST_MESSAGES, type FundAttachment } from '../../domain/funds/requests';
import { findFund, findFundClaim, findFundFile, findFundRequest, type FundScope } from '../../projections/funds';
import { findUser } from '../../projections/users';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import { sendUpload, uploadNameParam, type MultipartForm } from '../plugins/uploads';
import { removeUpload, storeUpload } from '../../platform/uploadStorage';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { csvLines, sendCsv, type CsvColumns } from './csv';
import { validationError } from './validation';

/** What the funds, fund request and fund claim routes share: who sees what, the uploads, and the downloads. */

/** The largest attachment or proof file. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const fileParams = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }), name: uploadNameParam.shape.name }).strict();
export const organisationFilter = { organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional() };

/** A multipart form's text fields, each sent once, checked by `schema`. */
export function formFields<T extends z.ZodType>(form: MultipartForm, schema: T): z.infer<T> {
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
    single[name] = value;
  }
  const parsed = schema.safeParse(single);
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}

/** Every row of a list read in pages, for the CSV exports. */
export async function* pages<T>(read: (offset: number, limit: number) => Promise<{ rows: T[] }>): AsyncGenerator<T> {
  const size = 500;
  for (let offset = 0; ; offset += size) {
    const { rows } = await read(offset, size);
    yield* rows;
    if (rows.length < size) return;
  }
}

/** A list route's query after validation: the module's filters, search, ids and the page asked for. */
interface ListQuery<Filters, Sort> {
  filters: Filters;
  search?: string;
  ids?: string[];
  offset: number;
  limit: number;
  sort?: Sort;
}
type ListRead<Filters, Sort, View> = (
  db: Queryable,
  scope: FundScope,
  filters: Filters & { search?: string; ids?: string[] },
  page: { offset: number; limit: number; sort?: Sort },
) => Promise<{ rows: View[]; total: number }>;

export function fundAccess(services: Services) {
  const { pool, reads, config } = services;
  const scopeOf = (request: FastifyRequest): FundScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** A CSV download, streamed as the rows are read (a stream skips the answer's serializer, so the reply is taken untyped). */
  const csv = <T>(request: FastifyRequest, reply: FastifyReply, name: string, columns: CsvColumns<T>, rows: AsyncIterable<T>) => {
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`);
    reply.header('cache-control', 'private, no-store');
    const recorded = () =>
      recordAuditEntry(
        services.store,
        { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: name, filters: exportFilters(request) } },
        auditActorOf(request),
      );
    return sendCsv(reply, recordedWhenDone(csvLines(columns, rows), recorded));
  };
  return {
    scopeOf,
    csv,
    /** The page of a list the query asks for, as the caller may see it. */
    listed: <Filters, Sort, View>(request: FastifyRequest, read: ListRead<Filters, Sort, View>, q: ListQuery<Filters, Sort>) =>
      read(reads, scopeOf(request), { ...q.filters, search: q.search, ids: q.ids }, { offset: q.offset, limit: q.limit, sort: q.sort }),
    /** Every row of the list the query filters, as a CSV download. */
    exported: <Filters, Sort, View>(
      request: FastifyRequest,
      reply: FastifyReply,
      name: string,
      columns: CsvColumns<View>,
      read: ListRead<Filters, Sort, View>,
      q: ListQuery<Filters, Sort>,
    ) => {
      const scope = scopeOf(request);
      return csv(
        request,
        reply,
        name,
        columns,
        pages((offset, limit) => read(reads, scope, { ...q.filters, search: q.search }, { offset, limit, sort: q.sort })),
      );
    },
    companyOf: async (request: FastifyRequest) => {
      const { principal } = request;
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      return organisation ? organisation.company_name : principal.companyName;
    },
    loadFund: async (request: FastifyRequest, id: string, db: Queryable = pool) => {
      const fund = await findFund(db, id, scopeOf(request));
      if (!fund) throw new HttpError(404, 'NOT_FOUND', FUND_MESSAGES.notFound);
      return fund;
    },
    /** A record the caller may not see is answered exactly like one that does not exist. */
    loadRequest: async (request: FastifyRequest, id: string, db: Queryable = pool) => {
      const found = await findFundRequest(db, id, scopeOf(request));
      if (!found) throw new HttpError(404, 'NOT_FOUND', FUND_REQUEST_MESSAGES.notFound);
      return found;
    },
    loadClaim: async (request: FastifyRequest, id: string, db: Queryable = pool) => {
      const found = await findFundClaim(db, id, scopeOf(request));
      if (!found) throw new HttpError(404, 'NOT_FOUND', FUND_CLAIM_MESSAGES.notFound);
      return found;
    },
    /** Stores the checked files, runs `step`, and removes the files again when it is refused. */
    withStoredFiles: async (files: MultipartForm['files'][string] | undefined, step: (stored: FundAttachment[]) => Promise<void>) => {
      const stored: FundAttachment[] = [];
      try {
        for (const file of files ?? [])
          stored.push({
            file: await storeUpload(config.UPLOAD_DIR, file, 'private'),
            name: file.originalName.slice(0, 200) || `file.${file.type}`,
            type: file.type,
            size: file.bytes.length,
          });
        await step(stored);
      } catch (error) {
        await Promise.all(stored.map((d) => removeUpload(config.UPLOAD_DIR, d.file, 'private')));
        throw error;
      }
    },
    /** A request's attachment or a claim's proof file, to those who may see the record. */
    sendFile: async (request: FastifyRequest, params: z.infer<typeof fileParams>, reply: FastifyReply, kind: 'attachment' | 'proof') => {
      const file = await findFundFile(reads, params.id, kind, params.name, scopeOf(request));
      if (!file) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
      reply.header('content-disposition', `attachment; filename="${file.name.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
      return sendUpload(reply, config.UPLOAD_DIR, file.file, 'private');
    },
  };
}
