// The `k6` module for scripts run by the Node runner: check, group, sleep, fail.
import { emit, pause, sampleTags, vu } from '../runtime.mjs';

export function check(value, checks, tags = {}) {
  let all = true;
  for (const [name, predicate] of Object.entries(checks)) {
    let pass;
    try {
      pass = Boolean(typeof predicate === 'function' ? predicate(value) : predicate);
    } catch {
      pass = false;
    }
    all &&= pass;
    emit({ kind: 'check', name, pass, group: vu.group, tags: sampleTags({ check: name, ...tags }) });
  }
  return all;
}

export function group(name, fn) {
  const outer = vu.group;
  vu.group = `${outer}::${name}`;
  const began = performance.now();
  try {
    return fn();
  } finally {
    emit({ kind: 'trend', metric: 'group_duration', value: performance.now() - began, tags: sampleTags() });
    vu.group = outer;
  }
}

export function sleep(seconds) {
  pause(seconds);
}

export function fail(message = '') {
  throw new Error(message);
}

export default { check, group, sleep, fail };
