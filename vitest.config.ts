import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: false,
    include: ['tests/**/*.test.ts'],
    sequence: { shuffle: true },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
