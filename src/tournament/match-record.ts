/**
 * A finished tournament debate as the standings read it (`TournamentMatch`), from its
 * `transcript.json`: the models on the two sides, the result for the first side, every judge
 * reading in both side orders, and each side's statement length and markdown.
 *
 * The result counts only when the debate completed: a degraded debate (failures decided part of it),
 * a stopped or a failed one names no winner, and the ratings leave it out.
 */
import type {
  JudgeReading,
  SideChoice,
  StyleFeatures,
  TournamentMatch,
} from '../analytics/tournament-match.js';
import type { KnockoutVerdict } from './knockout-verdict.js';
import { markdownElements } from './markdown-count.js';

interface Statement {
  side?: string;
  position?: string;
  text?: string;
  outputTokens?: number;
  phase?: string;
}

interface SwapRecord {
  picks?: Array<string | null>;
}

interface Judgement {
  model?: string;
  abstained?: boolean;
  stronger?: string;
  winner?: string;
  side_swap?: SwapRecord;
}

interface TranscriptRecord {
  agents?: Array<{ position?: string; model?: string }>;
  runId?: string;
  format?: string;
  status?: string;
  debaters?: { a?: { model?: string }; b?: { model?: string } };
  sides?: { affirmative?: { model?: string }; negative?: { model?: string } };
  rounds?: Array<{ number?: number; statements?: Statement[]; judgement?: Judgement | null }>;
  statements?: Statement[];
  verdict?: Judgement | null;
  stats?: { roundsWon?: { a: number; b: number } };
}

function style(statements: readonly Statement[]): StyleFeatures {
  if (statements.length === 0) return { tokensPerStatement: 0, markdownPerStatement: 0 };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    tokensPerStatement: sum(statements.map((each) => each.outputTokens ?? 0)) / statements.length,
    markdownPerStatement:
      sum(statements.map((each) => markdownElements(each.text ?? ''))) / statements.length,
  };
}

/** One judged unit's readings: the first order's pick, and the swapped order's (already in the debate's side names). */
function reading(
  judgement: Judgement | null | undefined,
  pickOf: (judgement: Judgement) => string | undefined,
  choice: (pick: string | null | undefined) => SideChoice | null,
): JudgeReading | null {
  if (!judgement || judgement.abstained || !judgement.model) return null;
  const picks = judgement.side_swap?.picks;
  const inOrder = choice(picks ? picks[0] : pickOf(judgement));
  if (inOrder === null) return null;
  return { judgeModel: judgement.model, inOrder, swapped: picks ? choice(picks[1]) : null };
}

function sideChoice(firstKey: string, secondKey: string) {
  return (pick: string | null | undefined): SideChoice | null => {
    if (pick === null || pick === undefined) return null;
    if (pick === firstKey) return 'first';
    if (pick === secondKey) return 'second';
    return 'tie';
  };
}

/** The first side's score from a verdict: 1 won, 0 lost, 0.5 tied; none unless the debate completed. */
function verdictScore(record: TranscriptRecord, winner: SideChoice | null): TournamentMatch['score'] {
  if (record.status !== 'completed' || winner === null) return null;
  return winner === 'first' ? 1 : winner === 'second' ? 0 : 0.5;
}

function duelMatch(record: TranscriptRecord, runId: string, motionId: string): TournamentMatch | null {
  const first = record.debaters?.a?.model;
  const second = record.debaters?.b?.model;
  if (!first || !second) return null;
  const rounds = record.rounds ?? [];
  const statements = rounds.flatMap((round) => round.statements ?? []);
  const won = record.stats?.roundsWon ?? { a: 0, b: 0 };
  const choice = sideChoice('a', 'b');
  return {
    runId,
    motionId,
    first,
    second,
    score: record.status !== 'completed' ? null : won.a > won.b ? 1 : won.b > won.a ? 0 : 0.5,
    style: {
      first: style(statements.filter((each) => each.side === 'a')),
      second: style(statements.filter((each) => each.side === 'b')),
    },
    // Each round is a judged unit of its own.
    readings: rounds.flatMap((round, at) => {
      const one = reading(round.judgement, (judgement) => judgement.stronger, choice);
      return one ? [{ ...one, unit: String(round.number ?? at + 1) }] : [];
    }),
  };
}

function formalMatch(record: TranscriptRecord, runId: string, motionId: string): TournamentMatch | null {
  const first = record.sides?.affirmative?.model;
  const second = record.sides?.negative?.model;
  if (!first || !second) return null;
  const speeches = (record.statements ?? []).filter((each) => each.phase !== 'preparation');
  const choice = sideChoice('affirmative', 'negative');
  const verdict = reading(record.verdict, (judgement) => judgement.winner, choice);
  const winner = record.verdict && !record.verdict.abstained ? choice(record.verdict.winner) : null;
  return {
    runId,
    motionId,
    first,
    second,
    score: verdictScore(record, winner),
    style: {
      first: style(speeches.filter((each) => each.side === 'affirmative')),
      second: style(speeches.filter((each) => each.side === 'negative')),
    },
    readings: verdict ? [verdict] : [],
  };
}

/**
 * A knockout: Position X's model is the first side, the Position Y agents' the second. The result is
 * the tournament judge's verdict (knockout-verdict.ts), never the Y agents' own scores; without a
 * verdict the debate names no winner.
 */
function knockoutMatch(
  record: TranscriptRecord,
  runId: string,
  motionId: string,
  verdict: KnockoutVerdict | null,
): TournamentMatch | null {
  const first = record.agents?.find((agent) => agent.position === 'X')?.model;
  const second = record.agents?.find((agent) => agent.position === 'Y')?.model;
  if (!first || !second) return null;
  const statements = (record.rounds ?? []).flatMap((round) => round.statements ?? []);
  const choice = sideChoice('x', 'y');
  const winner = verdict ? choice(verdict.winner) : null;
  const inOrder = verdict ? choice(verdict.picks[0]) : null;
  return {
    runId,
    motionId,
    first,
    second,
    score: verdictScore(record, winner),
    style: {
      first: style(statements.filter((each) => each.position === 'X')),
      second: style(statements.filter((each) => each.position === 'Y')),
    },
    readings:
      verdict && inOrder !== null
        ? [{ judgeModel: verdict.judge, inOrder, swapped: choice(verdict.picks[1]) }]
        : [],
  };
}

/**
 * The debate from its transcript's JSON; null for a transcript of another format or without its
 * sides. A knockout's result is the tournament's `verdict` on it.
 */
export function tournamentMatch(
  transcript: unknown,
  motionId: string,
  verdict: KnockoutVerdict | null = null,
): TournamentMatch | null {
  const record = (transcript ?? {}) as TranscriptRecord;
  const runId = record.runId ?? '';
  if (record.format === 'duel') return duelMatch(record, runId, motionId);
  if (record.format === 'formal') return formalMatch(record, runId, motionId);
  if (record.format === 'knockout') return knockoutMatch(record, runId, motionId, verdict);
  return null;
}
