/**
 * `npm run load -- <script.js> [-e KEY=VALUE ...]`: runs a k6 script with the real k6 when it is on
 * the PATH (`k6 run`), and with the Node runner (run.ts) otherwise or when LOAD_RUNNER=node.
 * The exit code is k6's: 0, 99 when a threshold was crossed, 107 when the script could not run.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { runK6Script } from './run';

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function parseArguments(args: string[]) {
  const env: Record<string, string> = {};
  let script: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-e' || arg === '--env') {
      const pair = args[++i] ?? '';
      const eq = pair.indexOf('=');
      if (eq < 1) throw new Error(`-e expects KEY=VALUE (got "${pair}").`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else if (arg.startsWith('-')) {
      throw new Error(`Unknown option ${arg}; the Node runner takes a script and -e KEY=VALUE.`);
    } else if (!script) script = arg;
    else throw new Error(`One script at a time (got ${script} and ${arg}).`);
  }
  if (!script) throw new Error('Usage: npm run load -- load-tests/k6/<scenario>.js [-e KEY=VALUE ...]');
  return { script, env };
}

async function main() {
  const args = process.argv.slice(2);
  const k6 = process.env.LOAD_RUNNER === 'node' ? undefined : onPath('k6');
  if (k6) {
    const ran = spawnSync(k6, ['run', ...args], { stdio: 'inherit' });
    process.exit(ran.status ?? 1);
  }
  const { script, env } = parseArguments(args);
  const result = await runK6Script(script, { env });
  console.log(result.summary);
  if (result.iterationErrors.count)
    console.log(`     ${result.iterationErrors.count} iterations ended with an exception (first: ${result.iterationErrors.first[0]})`);
  process.exit(result.exitCode);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(107);
});
