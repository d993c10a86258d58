import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most time goes to child processes (daemons, the CLI) waiting on I/O: two files at a time
    // on a 2-core machine halves the wall time without starving either.
    maxWorkers: 2,
  },
});
