// One k6 virtual user: a worker thread with its own copy of the script's module state, as in k6.
// The main thread (run.ts) tells it what to run; HTTP goes through the main thread (runtime.mjs).
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { emit, sampleTags, vu } from './runtime.mjs';

const { script, env, vuId, scenario, scenarioTags, flags, answers, mode } = workerData;
vu.flags = new Int32Array(flags);
vu.answers = answers;
vu.scenario = scenario ?? '';
vu.tags = scenarioTags ?? {};

const scriptDir = path.dirname(fileURLToPath(script));
globalThis.__ENV = env;
globalThis.__VU = vuId;
globalThis.__ITER = 0;
// k6's open(): files next to the script, read in the init context.
globalThis.open = (file, how) => {
  const bytes = readFileSync(path.resolve(scriptDir, file));
  return how === 'b' ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes.toString('utf8');
};

register('./hooks.mjs', import.meta.url);

const describe = (error) => (error instanceof Error ? error.message : String(error));
const plain = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

let mod;
try {
  mod = await import(script);
} catch (error) {
  emit({ kind: 'initError', message: describe(error), stack: error?.stack });
  process.exit(0);
}
vu.init = false;

if (mode === 'options') {
  emit({ kind: 'options', options: plain(mod.options ?? {}), exports: Object.keys(mod) });
  process.exit(0);
}

let iteration = 0;
function runIteration(fn, data) {
  globalThis.__ITER = iteration++;
  vu.group = '';
  const began = performance.now();
  let error;
  try {
    fn(data);
  } catch (thrown) {
    error = describe(thrown);
  }
  emit({ kind: 'iteration', duration: performance.now() - began, error, tags: sampleTags() });
}

parentPort.on('message', (message) => {
  if (message.kind === 'call') {
    const fn = mod[message.fn];
    try {
      const value = typeof fn === 'function' ? fn(message.data) : undefined;
      emit({ kind: 'result', value: plain(value) });
    } catch (error) {
      emit({ kind: 'result', error: describe(error) });
    }
    return;
  }
  if (message.kind === 'run') {
    const fn = mod[message.exec];
    if (typeof fn !== 'function') {
      emit({ kind: 'idle', error: `The script exports no function "${message.exec}".` });
      return;
    }
    if (message.once) runIteration(fn, message.data);
    else while (Date.now() < message.until && Atomics.load(vu.flags, 1) === 0) runIteration(fn, message.data);
    emit({ kind: 'idle' });
  }
});
emit({ kind: 'ready' });
