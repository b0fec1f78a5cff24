import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: false,
    include: ['tests/**/*.test.ts'],
    // Fails the run when a test leaves runs, records or database copies in the checkout.
    globalSetup: ['tests/helpers/checkout-clean.ts'],
    sequence: { shuffle: true },
    // A guard against hangs, not a speed check: tests that start CLI processes slow down a lot on a
    // loaded two-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
