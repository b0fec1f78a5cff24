/**
 * A duel judgement and a formal verdict written up as a person would: the call, why, the criteria
 * as a table, the side-swap check in one line, and a judge that contradicted itself named.
 */

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { AssessmentEvent, Stored } from '../../src/core/events.js';
import { criteriaTableText, readJudgement, sideSwapText } from '../../src/render/judgement-text.js';
import { createLiveView } from '../../src/render/live-view.js';
import { eventHtml } from '../../src/web/event-html.js';
import { scenarioOf } from '../helpers/run-events.js';

function assessment(phase: 'judgement' | 'verdict', round: number, result: Record<string, unknown>) {
  return {
    seq: 5,
    at: '2026-01-01T00:00:05.000Z',
    type: 'assessment' as const,
    phase,
    round,
    judge: 'Judge',
    model: 'qwen2.5',
    result,
    abstained: false,
    promptTokens: 10,
    outputTokens: 20,
    promptChars: 40,
    realMs: 5,
    attempts: 1,
  } satisfies Stored<AssessmentEvent>;
}

const swap = (picks: [string | null, string | null], agreed: boolean | null) => ({
  presented_first: ['a', 'b'],
  picks,
  answers: [{}, {}],
  agreed,
});

describe('the side-swap check in one line', () => {
  it('says agreed, disagreed (and what that made of the round or the verdict), or unchecked', () => {
    expect(sideSwapText({ side_swap: swap(['a', 'a'], true) }, 'judgement')).toBe(
      'read in both orders: agreed',
    );
    expect(sideSwapText({ side_swap: swap(['a', 'b'], false) }, 'judgement')).toBe(
      'the two readings disagreed (A, then B), so the round is even',
    );
    expect(sideSwapText({ side_swap: swap(['affirmative', 'negative'], false) }, 'verdict')).toBe(
      'the two readings disagreed (affirmative, then negative), so the verdict is a tie',
    );
    expect(sideSwapText({ side_swap: swap(['a', null], null) }, 'judgement')).toContain(
      'only one reading was usable',
    );
    expect(sideSwapText({ stronger: 'a' }, 'judgement')).toBe('');
  });
});

describe('a judgement written up', () => {
  it('duel: who took the round and why, with no dump of the answer', async () => {
    const scenario = await scenarioOf('duel');
    const event = assessment('judgement', 2, {
      summary: 'Both spoke of cost.',
      why: 'B answered the cost.',
      stronger: 'even',
      no_new_arguments: false,
      side_swap: swap(['a', 'b'], false),
    });
    const reading = readJudgement(scenario, event);
    expect(reading).toMatchObject({
      headline: 'Round 2 even',
      why: 'B answered the cost.',
      summary: 'Both spoke of cost.',
      criteria: [],
    });
    const page = eventHtml(event, scenario).value;
    expect(page).toContain('<p class="why">B answered the cost.</p>');
    expect(page).toContain('The two readings disagreed (A, then B), so the round is even.');
    expect(page).not.toContain('<dl>');
    expect(page).not.toContain('presented first');
  });

  it('formal: the criteria with their weights as a table, and a winner against the scores flagged', async () => {
    const scenario = await scenarioOf('formal');
    const scores = (value: number) => ({
      argument_strength: value,
      relevance: value,
      persuasiveness: value,
      clarity: value,
    });
    const event = assessment('verdict', 0, {
      summary: 'Close.',
      reasons: 'Better evidence.',
      affirmative: scores(4),
      negative: scores(2),
      winner: 'affirmative',
      named_winner: 'negative',
      winner_contradicts_scores: true,
      totals: { affirmative: 4, negative: 2 },
    });
    const reading = readJudgement(scenario, event);
    expect(reading?.criteria[0]).toEqual({
      criterion: 'argument strength',
      weight: 0.4,
      affirmative: 4,
      negative: 2,
    });
    expect(reading?.warnings).toEqual([
      'The judge named negative the winner, but its own weighted scores favour affirmative; the scores decide.',
    ]);
    const table = criteriaTableText(reading as NonNullable<typeof reading>).split('\n');
    expect(table[0]).toMatch(/^Criterion +Weight +Affirmative +Negative$/);
    expect(table.at(-1)).toMatch(/^weighted total +4\.00 +2\.00$/);
    const page = eventHtml(event, scenario).value;
    expect(page).toContain('<tr><td>clarity</td><td>0.10</td><td>4</td><td>2</td></tr>');
    expect(page).toContain('<p class="warning">⚠ The judge named negative the winner');
  });
});

describe('the live view says what cut a statement', () => {
  it('a duel or formal statement cut by its token cap says so, not the time limit', async () => {
    const scenario = await scenarioOf('duel');
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => {
      written += chunk.toString();
    });
    createLiveView(out, { color: false, scenario }).onEvent({
      seq: 3,
      at: '2026-01-01T00:00:03.000Z',
      type: 'statement',
      phase: 'argument',
      round: 1,
      speaker: 'Ada',
      side: 'a',
      model: 'llama3',
      text: 'Cut here',
      promptTokens: 10,
      promptChars: 40,
      outputTokens: 600,
      realMs: 5,
      attempts: 1,
      truncated: true,
    });
    expect(written).toContain('(600 tokens, cut by its token cap)');
    expect(written).not.toContain('time limit');
  });
});

describe('a knockout vote against its own scores', () => {
  it('is flagged on the page as in the terminal', async () => {
    const scenario = await scenarioOf('knockout');
    const vote = (inconsistent: boolean) =>
      eventHtml(
        {
          seq: 4,
          at: '2026-01-01T00:00:04.000Z',
          type: 'vote-cast',
          round: 1,
          judge: 'Yusuf',
          model: 'mistral',
          evaluation: {
            round_number: 1,
            position_y_performance: { argument_strength: 5 },
            total_score: 4.5,
            comments: '',
            continue_vote: false,
            ...(inconsistent ? { inconsistent: true } : {}),
          },
          abstained: false,
          attempts: 1,
          promptTokens: 10,
          promptChars: 40,
          outputTokens: 20,
          realMs: 5,
        },
        scenario,
      ).value;
    expect(vote(true)).toContain(
      '<span class="warning">⚠ against its own scores (replaces the debater with a total over 3)</span>',
    );
    expect(vote(false)).not.toContain('against its own scores');
  });
});
