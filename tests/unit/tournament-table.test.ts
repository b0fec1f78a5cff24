import { describe, expect, it } from 'vitest';
import { computeStandings } from '../../src/analytics/tournament-standings.js';
import { standingsCsv, tournamentTable } from '../../src/render/tournament-table.js';
import { visibleLength } from '../../src/render/wrap-text.js';
import { roundRobinPlan } from '../../src/tournament/round-robin.js';
import { modelsOf, playDebate, type SyntheticWorld } from '../helpers/synthetic-tournament.js';

// Model names as long as a user's can be: a Hugging Face path with a quantisation tag.
const world: SyntheticWorld = {
  strengths: {
    'hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M': 0.9,
    'mistral-nemo:12b-instruct-2407-q4_K_M': 0.3,
    'qwen2.5:7b-instruct-q4_K_M': -0.3,
    'phi3:3.8b-mini-128k-instruct-q4_K_M': -0.9,
  },
  seed: 2,
  judges: ['gemma2:9b-instruct-q4_K_M', 'llama3.2:3b-instruct-q4_K_M'],
};
const motions = (count: number) => Array.from({ length: count }, (_, at) => `${at + 1}`);
const matches = roundRobinPlan(modelsOf(world), motions(6)).map((debate) => playDebate(world, debate));
matches.push({ ...(matches[0] as (typeof matches)[number]), runId: 'stopped', score: null });
const standings = computeStandings(matches, { resamples: 100 });

describe('tournamentTable', () => {
  for (const borders of [true, false]) {
    it(`fits 80 columns with long model names (${borders ? 'terminal' : 'pipe'})`, () => {
      const text = tournamentTable(standings, { width: 80, borders });
      const lines = text.split('\n');
      for (const line of lines) expect(visibleLength(line), line).toBeLessThanOrEqual(80);
      // Drawn in columns, not stacked as one "key: value" block per model.
      expect(text).not.toMatch(/^Model: /m);
      expect(lines.filter((line) => /\d{4}–\d{4}/.test(line)).length).toBeGreaterThanOrEqual(4);
      for (const heading of ['Rating:', 'Style:', 'Separability:', 'Judge gemma2', 'Robustness:']) {
        expect(text).toContain(heading);
      }
      // The lines under the table, each sentence joined up again from its wrapped lines.
      const prose = text.replace(/\n {2}/g, ' ');
      expect(prose).toMatch(
        /Judge gemma2:9b-instruct-q4_K_M: order flips \d\.\d\d \(\d+ of \d+ side-swapped readings/,
      );
      expect(prose).toMatch(
        /Coefficients: length [+−]\d\.\d\d \([+−]\d\.\d\d to [+−]\d\.\d\d\) log-odds per doubling/,
      );
      expect(prose).toMatch(
        /Robustness: changing the outcome of \d+ debates? would put \S+ on top instead of \S+/,
      );
    });
  }

  it('warns in plain words when the tournament is too small to separate the models', () => {
    const close: SyntheticWorld = { strengths: { a: 0.05, b: 0, c: -0.05 }, seed: 3 };
    const small = computeStandings(
      roundRobinPlan(modelsOf(close), motions(2)).map((debate) => playDebate(close, debate)),
      { resamples: 100 },
    );
    expect(small.tooSmall).toBe(true);
    expect(small.separability.share).toBe(0);
    expect(tournamentTable(small, { width: 80, borders: false })).toContain(
      'Warning: Too small to separate the models',
    );
    expect(standings.tooSmall).toBe(false);
    expect(tournamentTable(standings, { width: 80, borders: false })).not.toContain('Too small');
  });

  it('gives no separability from a handful of debates, whose intervals hardly vary', () => {
    // One debate: every resample is that debate, so the intervals collapse to points and would
    // "separate" the two models completely.
    const one = computeStandings(matches.slice(0, 1), { resamples: 100 });
    expect(one.tooSmall).toBe(true);
    expect(one.separability.share).toBeNull();
    const text = tournamentTable(one, { width: 80, borders: false }).replace(/\n {2}/g, ' ');
    expect(text).toContain('Separability: n/a');
    expect(text).toContain('Warning: Too small for intervals: a model has only 1 debate with a result');
  });
});

describe('standingsCsv', () => {
  it('gives each interval’s ends as two numeric columns', () => {
    const { columns, rows } = standingsCsv(standings);
    expect(columns).toEqual([
      'Model',
      'Rating',
      '95% low',
      '95% high',
      'Style-controlled',
      'Style-controlled 95% low',
      'Style-controlled 95% high',
      'Wins',
      'Losses',
      'Ties',
      'No result',
      'Debates',
    ]);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const [, rating, low, high] = row as number[];
      expect(low).toBeLessThanOrEqual(rating ?? 0);
      expect(high).toBeGreaterThanOrEqual(rating ?? 0);
    }
  });
});
