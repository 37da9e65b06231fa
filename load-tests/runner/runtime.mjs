// The state of one virtual user (one worker thread): how it talks to the runner's main thread.
// HTTP in k6 is synchronous; here the VU posts the request to the main thread, which sends it, and
// blocks on a shared flag until the answer is posted back on a port it reads synchronously.
import { parentPort, receiveMessageOnPort } from 'node:worker_threads';

export const vu = {
  /** Int32Array over a SharedArrayBuffer: [0] answer ready, [1] stop after this iteration. */
  flags: undefined,
  /** The port the main thread posts HTTP answers on. */
  answers: undefined,
  scenario: '',
  group: '',
  /** Tags of the scenario, added to every sample. */
  tags: {},
  /** True while the script's module is being loaded (k6's init context: no requests there). */
  init: true,
};

export function emit(message) {
  parentPort.postMessage(message);
}

/** Sends one request through the main thread and waits for its answer. */
export function exchange(request) {
  return roundTrip({ kind: 'http', request: outgoing(request) });
}

/** Sends requests in parallel through the main thread (k6's http.batch) and waits for every answer, in order. */
export function exchangeAll(requests) {
  return roundTrip({ kind: 'batch', requests: requests.map(outgoing) });
}

const outgoing = (request) => ({ ...request, scenario: vu.scenario, group: vu.group, scenarioTags: vu.tags });

function roundTrip(message) {
  if (vu.init) throw new Error('HTTP requests are not allowed in the init context (outside setup(), the scenario functions and teardown()).');
  Atomics.store(vu.flags, 0, 0);
  emit(message);
  for (;;) {
    Atomics.wait(vu.flags, 0, 0, 1000);
    const received = receiveMessageOnPort(vu.answers);
    if (received) return received.message;
  }
}

/** k6's sleep: blocks this VU only. */
export function pause(seconds) {
  const ms = Math.max(0, Number(seconds) * 1000);
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function sampleTags(extra) {
  return { ...vu.tags, scenario: vu.scenario, group: vu.group, ...extra };
}
