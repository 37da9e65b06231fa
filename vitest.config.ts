import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{src,domain,projections,workers,web/src,web/e2e}/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // Integration tests share one Postgres database and one Redis; each file creates its own schema or keys.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['./src/testing/global-setup.ts'],
  },
});
