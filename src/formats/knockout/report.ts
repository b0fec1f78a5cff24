/** The final result and statistics tables (cli-table3). */
import Table from 'cli-table3';
import { plural } from '../../core/plural.js';
import type { KnockoutTranscript } from './transcript.js';

const plain = { head: [], border: [] };

export function agentTable(transcript: KnockoutTranscript): string {
  const table = new Table({
    head: [
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
    style: plain,
  });
  for (const agent of transcript.stats.agents) {
    table.push([
      agent.name,
      agent.position,
      agent.model,
      agent.roundsDebated,
      agent.meanScore === null ? '—' : agent.meanScore.toFixed(2),
      agent.votesAgainst,
      agent.knockedOut ? 'yes' : 'no',
      `${agent.simulatedSeconds.toFixed(1)} s`,
      agent.tokensIn,
      agent.tokensOut,
      `${(agent.realMs / 1000).toFixed(1)} s`,
    ]);
  }
  return table.toString();
}

export function roundTable(transcript: KnockoutTranscript): string {
  const table = new Table({
    head: ['Round', 'Speakers', 'Judges: score / vote', 'Outcome', 'Real time'],
    style: plain,
  });
  for (const round of transcript.rounds) {
    const judges = round.evaluations
      .map((item) =>
        item.abstained
          ? `${item.judge}: abstained`
          : `${item.judge}: ${item.total_score?.toFixed(2)} / ${item.continue_vote ? 'continue' : 'rotate'}`,
      )
      .join('\n');
    const outcome = round.outcome
      ? round.outcome.result === 'void'
        ? 'VOID (failure)'
        : `${round.outcome.result === 'rotation' ? 'rotation' : round.outcome.result.replace(/-/g, ' ')}${round.outcome.decidedBy === 'votes' ? '' : ` (tie broken by ${round.outcome.decidedBy})`}`
      : 'in progress';
    table.push([
      round.number,
      round.statements.map((statement) => `${statement.agent} (${statement.position})`).join('\n'),
      judges || '—',
      outcome,
      round.realMs === null ? '—' : `${(round.realMs / 1000).toFixed(1)} s${round.slow ? ' SLOW' : ''}`,
    ]);
  }
  return table.toString();
}

export function resultSummary(transcript: KnockoutTranscript): string {
  const { stats } = transcript;
  const y = stats.agents.filter((agent) => agent.position === 'Y' && agent.meanScore !== null);
  const best = [...y].sort((a, b) => (b.meanScore ?? 0) - (a.meanScore ?? 0))[0];
  const lines = [
    `Result: ${transcript.status}${transcript.stopReason ? ` (${transcript.stopReason})` : ''} after ${plural(stats.rounds, 'round')}, ${plural(stats.rotations, 'rotation')}.`,
    best ? `Best-scored Position Y debater: ${best.name} (mean ${best.meanScore?.toFixed(2)}).` : '',
    `Simulated speaking time: ${transcript.positions.x} (X) ${stats.simulatedSecondsPerSide.X.toFixed(1)} s, ${transcript.positions.y} (Y) ${stats.simulatedSecondsPerSide.Y.toFixed(1)} s.`,
    `Model calls: ${stats.modelCalls}; prompt tokens ${stats.promptTokens}; output tokens ${stats.outputTokens}; abstentions ${stats.abstentions}.`,
    stats.slowRounds.length > 0 ? `Rounds over the 30 s target: ${stats.slowRounds.join(', ')}.` : '',
  ];
  return lines.filter((line) => line !== '').join('\n');
}
