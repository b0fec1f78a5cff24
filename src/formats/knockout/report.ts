/** The final result and statistics tables, fitted to the terminal they are shown on. */

import { plural } from '../../core/plural.js';
import { type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { renderTextTable } from '../../render/text-table.js';
import type { KnockoutTranscript } from './transcript.js';

/** A judge's weighted score with its scale, so 3.4 is not read as a percentage or a rank. */
export const outOfFive = (score: number) => `${score.toFixed(2)} / 5`;

export function agentTable(transcript: KnockoutTranscript, layout: TextLayout = WIDE_LAYOUT): string {
  return renderTextTable(
    [
      'Agent',
      'Pos',
      'Model',
      'Rounds',
      'Mean score',
      'Votes against',
      'Knocked out',
      'Sim. time',
      'Tokens in',
      'Tokens out',
      'Real time',
    ],
    transcript.stats.agents.map((agent) => [
      agent.name,
      agent.position,
      agent.model,
      agent.roundsDebated,
      agent.meanScore === null ? '—' : outOfFive(agent.meanScore),
      agent.votesAgainst,
      agent.knockedOut ? 'yes' : 'no',
      `${agent.simulatedSeconds.toFixed(1)} s`,
      agent.tokensIn,
      agent.tokensOut,
      `${(agent.realMs / 1000).toFixed(1)} s`,
    ]),
    layout,
    // On a narrow screen one line per agent beats a block of eleven lines each: the counts of
    // tokens and the real time (in transcript.json too) give way first.
    { leaveOut: ['Real time', 'Tokens out', 'Tokens in', 'Sim. time'], keepNames: ['Agent'] },
  );
}

export function roundTable(transcript: KnockoutTranscript, layout: TextLayout = WIDE_LAYOUT): string {
  return renderTextTable(
    ['Round', 'Speakers', 'Judges: score / vote', 'Outcome', 'Real time'],
    transcript.rounds.map((round) => {
      const judges = round.evaluations
        .map((item) =>
          item.abstained
            ? `${item.judge}: abstained`
            : `${item.judge}: ${outOfFive(item.total_score ?? 0)}, ${item.continue_vote ? 'continue' : 'rotate'}`,
        )
        .join('\n');
      const outcome = round.outcome
        ? round.outcome.result === 'void'
          ? 'VOID (failure)'
          : `${round.outcome.result === 'rotation' ? 'rotation' : round.outcome.result.replace(/-/g, ' ')}${round.outcome.decidedBy === 'votes' ? '' : ` (tie broken by ${round.outcome.decidedBy})`}`
        : 'in progress';
      return [
        round.number,
        round.statements.map((statement) => `${statement.agent} (${statement.position})`).join('\n'),
        judges || '—',
        outcome,
        round.realMs === null ? '—' : `${(round.realMs / 1000).toFixed(1)} s${round.slow ? ' SLOW' : ''}`,
      ];
    }),
    layout,
    // A name broken over lines ("Dr." / "Miriam" / "Okafor") is hard to read: the real time goes first.
    { keepNames: ['Speakers', 'Judges: score / vote'], leaveOut: ['Real time'] },
  );
}

export function resultSummary(transcript: KnockoutTranscript): string {
  const { stats, result } = transcript;
  const y = stats.agents.filter((agent) => agent.position === 'Y' && agent.meanScore !== null);
  const best = [...y].sort((a, b) => (b.meanScore ?? 0) - (a.meanScore ?? 0))[0];
  const lines = [
    result.summary,
    `Rounds debated: ${stats.rounds} of ${result.plannedRounds}; rotations: ${stats.rotations}.`,
    best
      ? `Best-scored Position Y debater: ${best.name} (mean ${outOfFive(best.meanScore ?? 0)}, judges score 1-5).`
      : '',
    `Simulated speaking time: ${transcript.positions.x} (X) ${stats.simulatedSecondsPerSide.X.toFixed(1)} s, ${transcript.positions.y} (Y) ${stats.simulatedSecondsPerSide.Y.toFixed(1)} s.`,
    `Model calls: ${stats.modelCalls}; prompt tokens ${stats.promptTokens}; output tokens ${stats.outputTokens}; abstentions ${stats.abstentions}.`,
    stats.slowRounds.length > 0
      ? `Rounds over the ${stats.roundTimeLimitSeconds} s target: ${stats.slowRounds.join(', ')}.`
      : '',
    stats.claims
      ? `Claims ledger: ${plural(stats.claims.recorded, 'claim')} recorded (${stats.claims.nearMatched} of them from a quote one word off); ${stats.claims.notInStatement} dropped as not in their statement; ${plural(stats.claims.fellBack, 'extraction')} fell back to key sentences.`
      : '',
  ];
  return lines.filter((line) => line !== '').join('\n');
}
