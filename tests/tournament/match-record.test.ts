/**
 * Tournament matches read from real transcripts: duel, formal and knockout debates built from a motion by the
 * tournament, run against the mock server, their transcript.json read back as `TournamentMatch`.
 */
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../../src/manager/debate-manager.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import type { KnockoutVerdict } from '../../src/tournament/knockout-verdict.js';
import { markdownElements } from '../../src/tournament/markdown-count.js';
import { tournamentMatch } from '../../src/tournament/match-record.js';
import { matchScenario } from '../../src/tournament/match-scenario.js';
import {
  type PlannedMatch,
  pairingMatches,
  type TournamentSpec,
} from '../../src/tournament/tournament-plan.js';
import { tempDir } from '../helpers/cli.js';

let server: MockOllama;
beforeAll(async () => {
  server = await startMockOllama({ models: ['llama3', 'mistral', 'qwen2.5'], profile: 'instant', speed: 0 });
});
afterAll(() => server.close());

function spec(format: TournamentSpec['format']): TournamentSpec {
  return {
    models: ['llama3', 'mistral', 'qwen2.5'],
    motions: [
      {
        id: '1',
        motion: 'Tea is better than coffee',
        positions: { a: 'Tea', b: 'Coffee' },
        persona: { b: 'You run a café.' },
      },
    ],
    format,
    rounds: 2,
    seed: 7,
    schedule: 'round-robin',
    budget: 6,
    judges: null,
  };
}

async function play(tournament: TournamentSpec, match: PlannedMatch) {
  const scenario = await matchScenario(tournament, match, 'motions.yaml');
  const format = formatNamed(scenario.format);
  if (!format) throw new Error('no format');
  const { runId, paths } = createRunDir(tempDir(), scenario);
  await driveDebate({
    format,
    paths,
    start: { runId, scenario },
    provider: new OllamaProvider({ host: server.url }),
    logger: pino({ enabled: false }),
  });
  return JSON.parse(readFileSync(paths.transcriptJson, 'utf8'));
}

describe('a tournament match from its transcript', () => {
  it('reads a duel: sides, the result, each round’s two readings and the style of each side', async () => {
    const tournament = spec('duel');
    const [, swapped] = pairingMatches(tournament, 't', '1', ['llama3', 'mistral'], 1);
    const transcript = await play(tournament, swapped as PlannedMatch);
    // The second order of the pairing: mistral on the first side, the motion's persona with its side.
    expect(transcript.debaters.a.model).toBe('mistral');
    expect(transcript.judge.model).toBe('qwen2.5');
    const match = tournamentMatch(transcript, '1');
    expect(match?.first).toBe('mistral');
    expect(match?.second).toBe('llama3');
    const won = transcript.stats.roundsWon;
    expect(match?.score).toBe(
      transcript.status !== 'completed' ? null : won.a > won.b ? 1 : won.b > won.a ? 0 : 0.5,
    );
    const judged = transcript.rounds.filter(
      (round: { judgement: { abstained: boolean } | null }) => round.judgement && !round.judgement.abstained,
    );
    expect(match?.readings).toHaveLength(judged.length);
    const asSide = (pick: string) => (pick === 'a' ? 'first' : pick === 'b' ? 'second' : 'tie');
    judged.forEach((round: { number: number; judgement: { side_swap: { picks: string[] } } }, at: number) => {
      expect(match?.readings[at]).toEqual({
        judgeModel: 'qwen2.5',
        inOrder: asSide(round.judgement.side_swap.picks[0] as string),
        swapped: asSide(round.judgement.side_swap.picks[1] as string),
        unit: String(round.number),
      });
    });
    const firstSide = transcript.rounds.flatMap(
      (round: { statements: Array<{ side: string; outputTokens: number }> }) =>
        round.statements.filter((statement) => statement.side === 'a'),
    );
    const mean =
      firstSide.reduce(
        (sum: number, statement: { outputTokens: number }) => sum + statement.outputTokens,
        0,
      ) / firstSide.length;
    expect(match?.style.first.tokensPerStatement).toBeCloseTo(mean, 6);
  });

  it('reads a formal debate with the first model on the affirmative, whatever the seed draws', async () => {
    for (const seed of [1, 2, 3]) {
      const tournament = { ...spec('formal'), seed };
      const [match] = pairingMatches(tournament, 't', '1', ['llama3', 'mistral'], 1);
      const transcript = await play(tournament, match as PlannedMatch);
      expect(transcript.sides.affirmative.model, `seed ${seed}`).toBe('llama3');
      const record = tournamentMatch(transcript, '1');
      expect(record?.first).toBe('llama3');
      expect(record?.readings[0]?.judgeModel).toBe('qwen2.5');
      const winner = transcript.verdict.winner;
      expect(record?.score).toBe(winner === 'affirmative' ? 1 : winner === 'negative' ? 0 : 0.5);
    }
  });

  it('reads a knockout: X on the first model, the four Ys on the second, the result from the verdict alone', async () => {
    const tournament = spec('knockout');
    const [, swapped] = pairingMatches(tournament, 't', '1', ['llama3', 'mistral'], 1);
    const transcript = await play(tournament, swapped as PlannedMatch);
    expect(transcript.status).toBe('completed');
    const seated = (position: string) =>
      transcript.agents
        .filter((agent: { position: string }) => agent.position === position)
        .map((agent: { model: string }) => agent.model);
    expect(seated('X')).toEqual(['mistral']);
    expect(seated('Y')).toEqual(['llama3', 'llama3', 'llama3', 'llama3']);
    // The Ys scored the exchanges themselves: the format's own votes are there, and count for nothing.
    expect(transcript.rounds[0].evaluations.length).toBeGreaterThan(0);
    expect(tournamentMatch(transcript, '1')?.score).toBeNull();
    expect(tournamentMatch(transcript, '1')?.readings).toEqual([]);
    const verdict = (
      picks: KnockoutVerdict['picks'],
      winner: KnockoutVerdict['winner'],
    ): KnockoutVerdict => ({
      judge: 'qwen2.5',
      presentedFirst: ['x', 'y'],
      picks,
      reasons: [null, null],
      winner,
    });
    const won = tournamentMatch(transcript, '1', verdict(['y', 'y'], 'y'));
    expect(won?.first).toBe('mistral');
    expect(won?.second).toBe('llama3');
    expect(won?.score).toBe(0);
    expect(won?.readings).toEqual([{ judgeModel: 'qwen2.5', inOrder: 'second', swapped: 'second' }]);
    const split = tournamentMatch(transcript, '1', verdict(['x', 'y'], 'tie'));
    expect(split?.score).toBe(0.5);
    expect(split?.readings).toEqual([{ judgeModel: 'qwen2.5', inOrder: 'first', swapped: 'second' }]);
    expect(won?.style.first.tokensPerStatement).toBeGreaterThan(0);
    expect(won?.style.second.tokensPerStatement).toBeGreaterThan(0);
  });
});

describe('markdown in a statement', () => {
  it('counts headings, list items and emphasis, not plain prose', () => {
    expect(markdownElements('A plain sentence, with a * star and snake_case_name.')).toBe(0);
    expect(markdownElements('## Case\n- one\n- two\n1. three\nThis is **vital** and *new*.')).toBe(6);
  });
});
