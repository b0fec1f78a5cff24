import { describe, expect, it } from 'vitest';
import { ThinkFilter } from '../../src/llm/think-filter.js';

function run(pieces: string[]) {
  const filter = new ThinkFilter();
  const shown = pieces.map((piece) => filter.feed(piece)).join('') + filter.end();
  return { filter, shown };
}

describe('ThinkFilter', () => {
  it('removes an inline thinking block, whole or split across pieces at any point', () => {
    const text = '<think>weigh the costs first</think>\n\nCities should price congestion.';
    for (let size = 1; size <= 9; size += 1) {
      const pieces = text.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? [];
      const { filter, shown } = run(pieces);
      expect(shown).toBe('Cities should price congestion.');
      expect(filter.answer).toBe('Cities should price congestion.');
      expect(filter.thinking).toBe('weigh the costs first');
      expect(filter.thinkingPieces).toBeGreaterThan(0);
    }
  });

  it('keeps text that only looks like the start of a tag, and an answer without thinking', () => {
    expect(run(['a <th', 'ing> b <']).shown).toBe('a <thing> b <');
    expect(run(['plain answer']).filter.thinkingPieces).toBe(0);
  });

  it('an answer cut off while still thinking has no answer text', () => {
    const { filter, shown } = run(['<think>still', ' going']);
    expect(shown).toBe('');
    expect(filter.thinking).toBe('still going');
  });

  it('counts thinking from the separate thinking field', () => {
    const filter = new ThinkFilter();
    filter.feedThinking('first');
    filter.feedThinking(' second');
    expect(filter.feed('Answer.')).toBe('Answer.');
    expect(filter.thinkingPieces).toBe(2);
    expect(filter.thinking).toBe('first second');
  });
});
