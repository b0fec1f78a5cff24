import { describe, expect, it } from 'vitest';
import { CONTRADICTION_RATE, makeCoherent, statedWeights } from '../../src/mock-ollama/coherent-answer.js';
import { judgedLevel, levelFrom, levelWeights } from '../../src/mock-ollama/judged-level.js';
import { createRng } from '../../src/mock-ollama/random.js';

const SCHEMA = {
  type: 'object',
  properties: {
    comments: { type: 'string' },
    performance: {
      type: 'object',
      properties: Object.fromEntries(
        ['argument_strength', 'relevance', 'persuasiveness', 'clarity'].map((name) => [
          name,
          { type: 'integer', minimum: 1, maximum: 5 },
        ]),
      ),
    },
    continue_vote: { type: 'boolean' },
  },
};

const PROMPT = [
  'Each criterion is scored from 1 (poor) to 5 (excellent):',
  '- argument_strength (weight 0.4): Quality of the reasoning.',
  '- relevance (weight 0.2): How directly the arguments address the question.',
  '- persuasiveness (weight 0.3): How convincing the case is.',
  '- clarity (weight 0.1): How clear the statements are.',
].join('\n');

describe('how good a simulated judge finds what it judges', () => {
  it('draws levels that bunch in the middle of the scale, as small models score', () => {
    const weights = levelWeights(5);
    expect(weights.reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1, 10);
    // Threes, then fours, then twos, then fives; ones rarest.
    const order = [...weights.keys()].sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0));
    expect(order).toEqual([2, 3, 1, 4, 0]);
    expect(weights[0]).toBeLessThan(0.03);
    expect(weights[4]).toBeLessThan(0.1);

    const counts = [0, 0, 0, 0, 0];
    const draws = 5000;
    for (let i = 0; i < draws; i++) {
      const level = judgedLevel([`statement number ${i}`, 'the same rules'])('performance', 1, 5);
      counts[level - 1] = (counts[level - 1] ?? 0) + 1;
    }
    for (const [index, count] of counts.entries()) {
      expect(Math.abs(count / draws - (weights[index] ?? 0))).toBeLessThan(0.025);
    }
  });

  it('maps the unit interval onto the scale by those weights, ends included', () => {
    expect(levelFrom(0, 1, 5)).toBe(1);
    expect(levelFrom(0.999999, 1, 5)).toBe(5);
    expect(levelFrom(0.5, 1, 5)).toBe(3);
    expect(levelFrom(0.5, 0, 0)).toBe(0);
  });

  it('judges the same material alike whatever order its lines come in (the side-swap check)', () => {
    const first = ['**Ann** (a): cars out.', '**Bob** (b): cars in.'];
    const swapped = ['**Bob** (b): cars in.', '**Ann** (a): cars out.'];
    for (const group of ['a', 'b', 'performance']) {
      expect(judgedLevel(swapped)(group, 1, 5)).toBe(judgedLevel(first)(group, 1, 5));
    }
  });

  it('reads the criteria weights a prompt states', () => {
    expect(statedWeights(PROMPT)).toEqual({
      argument_strength: 0.4,
      relevance: 0.2,
      persuasiveness: 0.3,
      clarity: 0.1,
    });
    expect(statedWeights('no weights here')).toEqual({});
  });

  it('votes against its own weighted scores only in its small seeded share', () => {
    const weights = statedWeights(PROMPT);
    let against = 0;
    const answers = 4000;
    for (let i = 0; i < answers; i++) {
      const value = {
        comments: 'x',
        performance: { argument_strength: 1, relevance: 1, persuasiveness: 1, clarity: 1 },
        continue_vote: true,
      };
      const level = judgedLevel([`material ${i}`]);
      makeCoherent(value, SCHEMA, createRng(`seed ${i}`, 'coherence'), level, weights);
      const scores = value.performance;
      const total =
        0.4 * scores.argument_strength +
        0.2 * scores.relevance +
        0.3 * scores.persuasiveness +
        0.1 * scores.clarity;
      // The engine's check: continue below the midpoint, or replace above it.
      if (value.continue_vote ? total < 3 - 1e-9 : total > 3 + 1e-9) against += 1;
    }
    expect(Math.abs(against / answers - CONTRADICTION_RATE)).toBeLessThan(0.015);
  });
});
