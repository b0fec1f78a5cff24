/**
 * Who won a knockout and why, in one plain sentence: how many opponents X knocked out, and what the
 * panel's last verdict did, so which position prevails or holds. A run that did not reach its end
 * names no winner, only how far it got and the standing so far.
 */
import { plural } from '../../core/plural.js';
import { endedEarly, stopReasonText } from '../../core/stop-reason-text.js';
import { degradedNote, type RunEnding, roundsProgress, unfinishedSentence } from '../shared/run-ending.js';

/** Where a knockout stands for Position X: whom it faced and beat, and the panel's last verdict. */
export interface KnockoutStanding {
  x: string;
  /** Position X's label (e.g. "Pro-Choice"). */
  xPosition: string;
  yPosition: string;
  /** Position Y agents who debated X, in the order they took the floor. */
  faced: string[];
  /** Those of them a vote removed from the floor. */
  knockedOut: string[];
  /**
   * The panel's last verdict so far. Only a run that reached its end (completed or degraded) has
   * a result: for a stopped or failed one this is the standing when it stopped, not a winner.
   */
  verdict: 'x-prevails' | 'y-holds' | 'undecided';
  /** The Y debater the last verdict was about, and its round; null without any verdict. */
  finalDebater: string | null;
  decidedInRound: number | null;
}

/** What the sentence is made of: the standing (see result.ts) and how far the run got. */
export interface KnockoutOutcomeFacts extends KnockoutStanding, RunEnding {
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
