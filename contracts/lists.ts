import { z } from 'zod';
import { firstUnstorableText } from '../domain/storableText';

/**
 * Page numbers reach this far into a long list (as search engines and payment dashboards do); past it,
 * the caller narrows the filters, sorts the other way or follows the keyset cursor, which is as fast on
 * the last page as on the first. An OFFSET walks every row it skips.
 */
export const MAX_PAGE_OFFSET = 10_000;

const MAX_PAGE_SIZE = 100;

const jsonParam = <T extends z.ZodType>(schema: T, label: string) =>
  z.string().transform((text, ctx) => {
    try {
      const value: unknown = JSON.parse(text);
      // JSON escapes (\u0000) get past the raw query check; the decoded value is checked here.
      const unstorable = firstUnstorableText(value);
      if (unstorable !== undefined) {
        ctx.addIssue({ code: 'custom', message: `${label} contains a character that cannot be stored (a NUL character or a broken Unicode sequence).` });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data as z.infer<T>;
      ctx.addIssue({ code: 'custom', message: `${label} is not valid: ${parsed.error.issues[0]?.message ?? 'unexpected value'}` });
    } catch {
      ctx.addIssue({ code: 'custom', message: `${label} must be JSON.` });
    }
    return z.NEVER;
  });

/** A query-string boolean that also accepts a real boolean (react-admin's JSON filter sends those). */
export const booleanFilter = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * The query of a list route: react-admin's `sort`/`range`/`filter` or the specification's
 * `page`/`limit`/`search` plus the route's own field filters (`fields`), which are also the only keys
 * allowed inside `filter`. `id` is always sortable: it is react-admin's default sort.
 */
export function listQuerySchema<Fields extends z.ZodRawShape, Own extends string>(fields: Fields, ownSortable: readonly [Own, ...Own[]]) {
  type Sort = Own | 'id';
  const sortable = ['id', ...ownSortable] as [Sort, ...Sort[]];
  // `id` (one or many) is react-admin's getMany, so every list answers it.
  const ids = z.union([z.uuid(), z.array(z.uuid()).max(MAX_PAGE_SIZE)]).optional();
  const filterSchema = z.object({ ...fields, id: ids, q: z.string().max(200).optional(), search: z.string().max(200).optional() }).strict();
  return z
    .object({
      ...fields,
      id: ids,
      page: z.coerce.number().int().min(1).optional(),
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
      search: z.string().max(200).optional(),
      /** A keyset position from a previous page's `nextCursor` (lists that offer one): the next page without an OFFSET. */
      after: z
        .string()
        .max(200)
        .regex(/^[\w-]+$/, 'After must be a cursor from a previous page.')
        .optional(),
      sort: jsonParam(z.tuple([z.enum(sortable), z.enum(['ASC', 'DESC', 'asc', 'desc'])]), 'Sort').optional(),
      range: jsonParam(
        z.tuple([z.number().int().min(0), z.number().int().min(0)]).refine(([a, b]) => b >= a && b - a < MAX_PAGE_SIZE, 'Range must span 1 to 100 records.'),
        'Range',
      ).optional(),
      filter: jsonParam(filterSchema, 'Filter').optional(),
    })
    .strict()
    .transform((input): ListQuery<z.infer<z.ZodObject<Fields>>, Sort> => {
      // The input's type depends on the generic `Fields`, so TypeScript cannot pick the base keys declared above out of it.
      const { page, limit, search, sort, range, filter, id, after, ...plain } = input as unknown as BaseQuery<Sort>;
      const reactAdmin = sort !== undefined || range !== undefined || filter !== undefined;
      const size = range ? range[1] - range[0] + 1 : (limit ?? 10);
      const offset = range ? range[0] : ((page ?? 1) - 1) * size;
      const { q, search: filterSearch, id: filterId, ...filterFields } = filter ?? {};
      const wanted = filterId ?? id;
      return {
        reactAdmin,
        offset,
        limit: size,
        page: Math.floor(offset / size) + 1,
        sort: sort ? { field: sort[0], order: sort[1].toUpperCase() as 'ASC' | 'DESC' } : undefined,
        search: (search ?? q ?? filterSearch)?.trim() || undefined,
        ids: wanted === undefined ? undefined : ([] as string[]).concat(wanted as string | string[]),
        after,
        filters: { ...plain, ...filterFields } as Partial<z.infer<z.ZodObject<Fields>>>,
      };
    });
}

interface BaseQuery<Sort extends string> {
  page?: number;
  limit?: number;
  search?: string;
  sort?: [Sort, string];
  range?: [number, number];
  filter?: Record<string, unknown> & { q?: string; search?: string; id?: string | string[] };
  id?: string | string[];
  after?: string;
  [field: string]: unknown;
}

export interface ListQuery<Filters, Sort extends string> extends ListPage {
  sort: { field: Sort; order: 'ASC' | 'DESC' } | undefined;
  search: string | undefined;
  /** Only these records (react-admin's getMany), when given. */
  ids: string[] | undefined;
  /** The keyset cursor the caller sent, when the list offers them. */
  after: string | undefined;
  filters: Partial<Filters>;
}

export interface ListPage {
  reactAdmin: boolean;
  offset: number;
  limit: number;
  page: number;
}
