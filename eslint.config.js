// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.build/**',
      'data/**',
      'coverage/**',
      '.scratch/**',
      '.ci/node/**',
      'bench/site/**',
      'test/fixtures/**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Plain JavaScript that runs before TypeScript can (the start script, thread shims): Node's globals.
  { files: ['**/*.mjs'], languageOptions: { globals: { process: 'readonly', URL: 'readonly', Buffer: 'readonly' } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config.ts reads the environment.' },
      ],
    },
  },
  {
    files: ['src/config.ts', 'test/**', 'bench/**', 'vitest.config.ts', '.ci/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/extraction/**', 'src/parsers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/config.js', '**/http/**', '**/schema/**', '**/engines/**', '**/plugins/**', '**/domain/**'],
              message:
                'Extraction and parsers are pure functions of a page: no configuration, transports, engines, plugins or services.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/schema/**', '**/engines/**', '**/plugins/**', '**/config.js'],
              message:
                'src/domain never imports src/config.ts, transports, engines or plugins (they reach it through ModuleContext).',
            },
            { group: ['hono', 'hono/*', 'graphql-yoga', 'bree'], message: 'src/domain stays transport-free.' },
          ],
        },
      ],
    },
  },
  {
    files: ['engines/**', 'plugins/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/domain/**'],
              message:
                'Engines and plugins depend on the interfaces in src/ (engine, pipeline, parsers, models, search), never on modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['schema/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/http/**'], message: 'The GraphQL schema never imports the REST transport.' }] },
      ],
    },
  },
);
