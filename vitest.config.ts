import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@domain': path.resolve(import.meta.dirname, 'domain') } },
  test: {
    include: ['{src,domain,projections,workers,web/src,web/e2e,load-tests}/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // Integration test files run in parallel: each creates its own database and Redis key prefix.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['./src/testing/global-setup.ts'],
  },
});
