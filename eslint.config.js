// ESLint flat configuration: the recommended rules of ESLint and typescript-eslint for every
// TypeScript source of the project (npm run lint, inside npm test).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'playwright-report/', 'blob-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
      },
    },
    rules: {
      // Unused on purpose: a leading underscore (a rest sibling left out, a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Terminal colour sequences (ESC) are matched on purpose, to take them out of messages.
      'no-control-regex': 'off',
    },
  },
  {
    // Playwright's fixtures declare what they depend on by destructuring: `async ({}, use) => ...` depends on nothing.
    files: ['fixtures/**/*.ts', 'tests/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
