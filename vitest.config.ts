import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: false,
    include: ['tests/**/*.test.ts'],
    sequence: { shuffle: true },
    // A guard against hangs, not a speed check: tests that start CLI processes slow down a lot on a
    // loaded two-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
