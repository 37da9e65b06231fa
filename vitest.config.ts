import path from 'node:path';
import { defineConfig } from 'vitest/config';

const SERVER_AND_UNIT_TESTS = '{src,domain,contracts,platform,projections,commands,workers,web/src,load-tests}/**/*.test.ts';
const BROWSER_TESTS = 'web/e2e/**/*.test.ts';
const REBUILD_PROPERTY = 'projections/rebuildEqualsLive.int.test.ts';

export default defineConfig({
  resolve: { alias: { '@domain': path.resolve(import.meta.dirname, 'domain'), '@contracts': path.resolve(import.meta.dirname, 'contracts') } },
  test: {
    // Integration test files run in parallel: each creates its own database and Redis key prefix.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    // A test portal seeds the whole demo world through real commands before its first test; on a loaded machine that has taken two minutes.
    hookTimeout: 300_000,
    globalSetup: ['./src/testing/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'suite', include: [SERVER_AND_UNIT_TESTS], exclude: ['**/node_modules/**', REBUILD_PROPERTY], sequence: { groupOrder: 0 } },
      },
      // A browser test loads several screens, each a build's worth of JavaScript in Chromium beside the two test files
      // running at once; on a loaded two-core machine one such test has taken three times as long as it takes alone.
      { extends: true, test: { name: 'browser', include: [BROWSER_TESTS], testTimeout: 120_000, sequence: { groupOrder: 0 } } },
      // The rebuild property test runs alone, after the rest: its replays are long transactions, and an open
      // transaction in any database holds back the cluster-wide snapshot horizon below which the event store's
      // readers read, so beside it every other test portal's projector (and its seed) would wait.
      { extends: true, test: { name: 'rebuild', include: [REBUILD_PROPERTY], sequence: { groupOrder: 1 } } },
    ],
  },
});
