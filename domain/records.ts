/**
 * Objects built from a list of their keys. `Object.fromEntries` types its result's keys as any string; these keep the
 * keys' names, so a list that misses a field of the type the result should have fails the type check where it is used.
 */

/** An object with exactly these keys, each valued by `value`. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  // The one widening: Object.fromEntries types its keys as any string, and the entries are exactly `keys`.
  return Object.fromEntries(keys.map((key) => [key, value(key)])) as Record<K, V>;
}

/** The fields of `source` that `keys` names, each with its own type. */
export function pick<T extends object, K extends keyof T & string>(source: T, keys: readonly K[]): Pick<T, K> {
  // As above: the entries are exactly `keys`, each valued as `source` holds it.
  return Object.fromEntries(keys.map((key) => [key, source[key]])) as Pick<T, K>;
}
