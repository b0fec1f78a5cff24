import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: false,
    include: ['tests/**/*.test.ts'],
    // Fails the run when a test leaves runs, records or database copies in the checkout.
    globalSetup: ['tests/helpers/checkout-clean.ts'],
    sequence: { shuffle: true },
    // Most test files spend their time waiting on CLI processes, mock servers and databases, so two
    // files at once pay even on two cores (vitest's default there is one): about 15 minutes on a two-core
    // machine, where one file at a time took half as long again. More cores keep vitest's default of one file per core but one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A guard against hangs, not a speed check: tests that start CLI processes, servers and browsers
    // slow down several times over on a loaded two-core machine, so no limit here (or in a test's
    // own waits, which stay within this) is one that load could reach.
    testTimeout: 900_000,
    hookTimeout: 600_000,
  },
});
