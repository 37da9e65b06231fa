// Random list queries as the portal's clients send them: the web app's react-admin lists (sort, range and
// filter as JSON) and API clients following the specification (page, limit, search and plain field filters).
// Each list declares what it accepts (see listQuerySchema in contracts/lists.ts); anything else answers 400,
// so a list only ever gets its own sort fields and filters here.
import { pick } from './portal.js';

/** react-admin's page sizes; API clients use the same few. */
const PAGE_SIZES = [10, 25, 25, 50, 100];
/** contracts/lists.ts MAX_PAGE_OFFSET: page numbers reach this far into a list. */
const MAX_PAGE_OFFSET = 10000;

export const randomInt = (min, max) => min + Math.floor(Math.random() * (max - min + 1));
export const daysAgo = (days) => new Date(Date.now() - days * 86400000).toISOString().slice(0, 10);

/** A filter choice: one of `values` for `field` (none when there are no values to choose from). */
export const oneOf = (field, values) => (values && values.length ? () => ({ [field]: pick(values) }) : null);

/** A filter choice of two fields that bound a period, the first day before the last. */
export const period =
  (fromField, toField, { maxDaysAgo = 365 } = {}) =>
  () => {
    const from = randomInt(1, maxDaysAgo);
    const to = randomInt(0, from - 1);
    return Math.random() < 0.5 ? { [fromField]: daysAgo(from) } : { [fromField]: daysAgo(from), [toField]: daysAgo(to) };
  };

/** A filter choice of a lower and an upper bound from ascending `steps`: one of them, or both in order. */
export const bounds = (lowField, highField, steps) => () => {
  const low = randomInt(0, steps.length - 2);
  const high = randomInt(low + 1, steps.length - 1);
  const choice = Math.random();
  if (choice < 1 / 3) return { [lowField]: String(steps[low]) };
  if (choice < 2 / 3) return { [highField]: String(steps[high]) };
  return { [lowField]: String(steps[low]), [highField]: String(steps[high]) };
};

/**
 * One request's query string for a list. `list` is `{ sorts, filters, searches }`: its sortable fields
 * (besides `id`), filter choices (see oneOf and period) and words worth searching for; `total` is how
 * many records the caller saw in the list (pages are chosen among those that exist, mostly the first).
 * The web app's form (react-admin) and the specification's (page/limit) are both used.
 */
export function listQuery(list, total = 0) {
  const size = pick(PAGE_SIZES);
  const pages = Math.max(1, Math.min(Math.ceil(total / size), Math.floor(MAX_PAGE_OFFSET / size)));
  const page = Math.random() < 0.5 ? 1 : randomInt(1, pages);
  const filters = {};
  for (const choose of (list.filters || []).filter(Boolean)) if (Math.random() < 0.3) Object.assign(filters, choose());
  const search = list.searches && Math.random() < 0.25 ? pick(list.searches) : undefined;
  if (Math.random() < 0.6) {
    const sort = [pick(['id', ...(list.sorts || [])]), pick(['ASC', 'DESC'])];
    const start = (page - 1) * size;
    return encode({
      sort: JSON.stringify(sort),
      range: JSON.stringify([start, start + size - 1]),
      filter: JSON.stringify(search ? { ...filters, q: search } : filters),
    });
  }
  return encode({ page, limit: size, ...(search ? { search } : {}), ...filters });
}

/** The query of the page after `query`'s by the list's cursor: the same filters and size, from that position. */
export function nextPageQuery(query, param, cursor) {
  const kept = query.split('&').filter((pair) => !pair.startsWith('page='));
  return [...kept, `${param}=${encodeURIComponent(cursor)}`].join('&');
}

const encode = (params) =>
  Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
