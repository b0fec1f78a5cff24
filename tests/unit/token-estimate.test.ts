import { describe, expect, it } from 'vitest';
import {
  calibrate,
  DEFAULT_CHARS_PER_TOKEN,
  estimateTokens,
  promptBudget,
} from '../../src/core/token-estimate.js';

describe('token estimate', () => {
  it('errs on the large side of the characters-per-token ratio', () => {
    expect(estimateTokens(4000)).toBe(Math.ceil((4000 / DEFAULT_CHARS_PER_TOKEN) * 1.1));
    expect(estimateTokens(4000, 2)).toBeGreaterThan(estimateTokens(4000, 4));
  });

  it('calibrates per model from the counts the server reported', () => {
    const ratios = calibrate([
      { model: 'llama3', promptChars: 3000, promptTokens: 1000 },
      { model: 'llama3', promptChars: 5000, promptTokens: 1000 },
      { model: 'mistral', promptChars: 900, promptTokens: 300 },
      { model: 'ignored', promptChars: 100, promptTokens: 0 },
    ]);
    expect(ratios.get('llama3')).toBe(4);
    expect(ratios.get('mistral')).toBe(3);
    expect(ratios.has('ignored')).toBe(false);
  });

  it('leaves room for the answer and a margin', () => {
    expect(promptBudget(8192, 1024, 256)).toBe(6912);
  });
});
