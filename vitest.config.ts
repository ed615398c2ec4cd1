import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

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
    // Two cores on CI machines: a few files at once keeps Postgres and Chromium responsive.
    maxWorkers: 3,
  },
});
