import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * Files that start Chromium. A browser page costs Chromium ~0.5 s of CPU even when it is empty,
 * so on a 2-core machine two of these files beside each other (and beside the rest of the suite)
 * push pages past their time budgets; they run one at a time, next to the other files.
 */
const BROWSER_FILES = [
  'test/contract/playwright-*.test.ts',
  'test/integration/scrapes-browser.test.ts',
  'test/regression/graphiql-blank-without-internet.test.ts',
  'test/unit/pdf/pdf-text.test.ts',
];

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node loads its CJS entry for yoga and Pothos, while Vite
    // would pick the .mjs "module" entry for our files: two copies break instanceof checks.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      // Two cores on CI machines: three files at once (and one browser file) keep the cores busy
      // while tests wait on timers and sockets, and Postgres still responsive.
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: BROWSER_FILES,
          maxWorkers: 3,
        },
      },
      // A browser test may run several pages, each with a budget of up to 30 s (FETCH_BUDGET_MS).
      { extends: true, test: { name: 'browser', include: BROWSER_FILES, maxWorkers: 1, testTimeout: 120_000 } },
    ],
  },
});
