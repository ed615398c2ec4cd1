import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import SuiteOrder from './test/support/suite-order.js';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node loads its CJS entry for yoga and Pothos, while Vite
    // would pick the .mjs "module" entry for our files: two copies break instanceof checks.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
    // Files that start Chromium take the one browser slot in turn (test/support/browser-slot.ts).
    setupFiles: ['test/support/browser-slot.ts'],
    // The longest files first; the browser files spread through the rest.
    sequence: { sequencer: SuiteOrder },
    // Two cores on CI machines: three files at once keep the cores busy while tests wait on
    // timers and sockets, and Postgres still responsive.
    maxWorkers: 3,
  },
});
