// Lint for the whole tree. Only syntactic rules: the type-checked presets would build the TypeScript program a
// second time beside `tsc --noEmit` (the slowest step of `npm test` already), for findings tsc mostly covers.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'web/dist/**', 'uploads/**', 'screenshots/**', 'migrations/**', 'load-tests/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `_`-prefixed parameters and destructured leftovers are how the code says "deliberately unused"
      // (Fastify handler signatures, `{ password: _, ...rest }` to drop a field).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // A `let` declared before the closures that read it and assigned once later (a stop handler that must
      // exist before the sweeps it stops are started, a timer its own callback clears) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Text checks strip or refuse control characters on purpose (file names, uploads, plain-text fields).
      'no-control-regex': 'off',
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // Only the two classic hook rules: the preset's React-compiler rules judge code written for a compiler this
    // project does not use.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Tests and load scripts read answers of many shapes loosely and let their assertions check them (as
    // Fastify's `inject().json()` already does); typing every answer there would repeat the contracts.
    files: ['**/*.test.ts', 'web/e2e/**', 'load-tests/**', 'src/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // k6 scenarios run in k6 (or the Node runner that imitates it), which provides these globals.
    files: ['load-tests/k6/**/*.js', 'load-tests/runner/fixtures/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' } },
  },
);
