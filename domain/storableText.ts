/** A value met on the walk, with the way back to the root (for the path of an offending string). */
interface Visit {
  value: unknown;
  key: string | undefined;
  parent: Visit | undefined;
}

const pathOf = (visit: Visit): string => {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.') || 'value';
};

/**
 * Text the portal stores must be text PostgreSQL and JSON can hold: no NUL character and no half of a
 * UTF-16 surrogate pair. Returns the path of the first offending string (`items.0.name`), if any.
 * The walk keeps its own stack, so it costs one step per key and value however deep the value is
 * nested, and never overflows the call stack.
 */
export function firstUnstorableText(value: unknown): string | undefined {
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value === 'string') {
      if (UNSTORABLE.test(visit.value)) return pathOf(visit);
      continue;
    }
    if (visit.value === null || typeof visit.value !== 'object') continue;
    // A key is checked as the value it names, and before it; pushed in reverse so the first entry is looked at first.
    const entries = Object.entries(visit.value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      const child: Visit = { value: item, key, parent: visit };
      pending.push(child, { value: key, key, parent: visit });
    }
  }
  return undefined;
}

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
