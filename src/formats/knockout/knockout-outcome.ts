/**
 * Who won a knockout and why, in one plain sentence: how many opponents X knocked out, and what the
 * panel's last verdict did, so which position prevails or holds. A run that did not reach its end
 * names no winner, only how far it got and the standing so far.
 */
import { plural } from '../../core/plural.js';
import { endedEarly, stopReasonText } from '../../core/stop-reason-text.js';
import { degradedNote, type RunEnding, roundsProgress, unfinishedSentence } from '../shared/run-ending.js';

/** What the sentence is made of: the result (see result.ts) and how far the run got. */
export interface KnockoutOutcomeFacts extends RunEnding {
  x: string;
  xPosition: string;
  yPosition: string;
  faced: string[];
  knockedOut: string[];
  verdict: 'x-prevails' | 'y-holds' | 'undecided';
  finalDebater: string | null;
  decidedInRound: number | null;
  /** Rounds that ended (with a verdict or a void vote). */
  roundsPlayed: number;
  /** The scenario's rounds; absent in transcripts written before it was recorded. */
  plannedRounds?: number;
}

export function knockoutSentence(facts: KnockoutOutcomeFacts): string {
  const opponents = facts.faced.length;
  const tally = `${facts.x} (${facts.xPosition}) knocked out ${facts.knockedOut.length} of ${plural(opponents, 'opponent')}`;
  const progress = roundsProgress(facts.roundsPlayed, facts.plannedRounds);
  const unfinished = unfinishedSentence(
    facts,
    progress,
    opponents > 0 ? tally.replace(' knocked', ' had knocked') : '',
  );
  if (unfinished !== null) return unfinished;
  const final = facts.finalDebater ?? 'the last Position Y debater';
  const verdict =
    facts.verdict === 'undecided'
      ? `no round ended with a verdict (every vote was void), so neither ${facts.xPosition} nor ${facts.yPosition} won`
      : facts.verdict === 'x-prevails'
        ? `${tally}; the last verdict, in round ${facts.decidedInRound}, went against ${final}, so ${facts.xPosition} prevails`
        : facts.decidedInRound === facts.roundsPlayed
          ? `${tally}; ${final} held the floor to the end, so ${facts.yPosition} holds`
          : `${tally}; the last verdict, in round ${facts.decidedInRound}, kept ${final} on the floor, so ${facts.yPosition} holds`;
  const early = endedEarly(facts.stopReason)
    ? ` (${stopReasonText(facts.stopReason)}, so it ended ${progress})`
    : '';
  const sentence = `${verdict}${early}${degradedNote(facts)}.`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`;
}

/** The sentence from a knockout's transcript.json. */
export function knockoutOutcome(transcript: unknown): string {
  const record = (transcript ?? {}) as RunEnding & {
    result?: Omit<KnockoutOutcomeFacts, 'roundsPlayed' | keyof RunEnding>;
    rounds?: Array<{ outcome?: unknown }>;
  };
  const result = record.result ?? {
    x: 'X',
    xPosition: 'Position X',
    yPosition: 'Position Y',
    faced: [],
    knockedOut: [],
    verdict: 'undecided' as const,
    finalDebater: null,
    decidedInRound: null,
  };
  return knockoutSentence({
    ...result,
    status: record.status,
    stopReason: record.stopReason,
    error: record.error,
    ...(record.failedSteps === undefined ? {} : { failedSteps: record.failedSteps }),
    roundsPlayed: (record.rounds ?? []).filter((round) => round.outcome).length,
  });
}
