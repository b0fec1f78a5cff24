/** transcript.md: the debate as a readable document, with scores and outcomes. */
import { fallbackNote } from '../shared/fallback-note.js';
import type { KnockoutTranscript } from './transcript.js';

const OUTCOME_TEXT: Record<string, string> = {
  continue: 'continues',
  rotation: 'rotation',
  'rotation-limit-reached': 'rotation limit reached, continues',
  'nobody-eligible': 'nobody eligible, continues',
  'debate-over': 'voted out in the final round',
  void: 'void vote (a failure, not a verdict), continues',
};

export function knockoutMarkdown(transcript: KnockoutTranscript): string {
  const lines: string[] = [];
  lines.push(`# ${transcript.title ?? transcript.topic}`, '');
  lines.push(`**Result:** ${transcript.result.summary}`, '');
  lines.push(`- Motion: ${transcript.topic}`);
  lines.push(`- Position X: ${transcript.positions.x}; Position Y: ${transcript.positions.y}`);
  lines.push(`- Run: \`${transcript.runId}\`, seed ${transcript.seed}; status ${transcript.status}`);
  if (transcript.error) lines.push(`- Error: ${transcript.error}`);
  lines.push('', '## Agents', '');
  for (const agent of transcript.agents)
    lines.push(`- **${agent.name}**, Position ${agent.position}, model \`${agent.model}\``);

  const summaries = new Map(transcript.summaries.map((summary) => [summary.throughRound, summary]));
  for (const round of transcript.rounds) {
    lines.push('', `## Round ${round.number}: debating Y is ${round.debatingY}`, '');
    for (const statement of round.statements) {
      const label = statement.position === 'X' ? transcript.positions.x : transcript.positions.y;
      lines.push(
        `### ${statement.agent} (${label})`,
        '',
        statement.degraded
          ? `_Degraded turn: every model call failed (${statement.failureReason}). Not counted as an argument._`
          : `_${statement.outputTokens} tokens, ${statement.simulatedSeconds} s simulated${statement.truncated ? ', cut by the time limit' : ''}${statement.fallbackFrom ? `, ${fallbackNote(statement)}` : ''}_`,
        '',
        statement.text.trim(),
        '',
      );
    }
    if (round.evaluations.length > 0) {
      lines.push(`### Judges on ${round.debatingY}`, '');
      lines.push('| Judge | Scores | Weighted | Vote | Comments |', '| --- | --- | --- | --- | --- |');
      for (const evaluation of round.evaluations) {
        if (evaluation.abstained) {
          lines.push(`| ${evaluation.judge} | — | — | abstained | ${cell(evaluation.abstainReason ?? '')} |`);
          continue;
        }
        const scores = Object.entries(evaluation.position_y_performance ?? {})
          .map(([name, score]) => `${name.replace(/_/g, ' ')} ${score}`)
          .join(', ');
        lines.push(
          `| ${evaluation.judge}${evaluation.fallbackFrom ? ` (${fallbackNote(evaluation, 'answered')})` : ''} | ${scores} | ${evaluation.total_score?.toFixed(2)} | ${evaluation.continue_vote ? 'continue' : 'rotate'}${evaluation.inconsistent ? ' ⚠ against its own scores' : ''} | ${cell(evaluation.comments ?? '')} |`,
        );
      }
      lines.push('');
    }
    if (round.outcome) {
      lines.push(
        `**Outcome:** ${OUTCOME_TEXT[round.outcome.result] ?? round.outcome.result} — ${round.outcome.rotateVotes} rotate, ${round.outcome.continueVotes} continue, ${round.outcome.abstentions} abstained; decided by ${round.outcome.decidedBy}${round.outcome.meanScore === null ? '' : `, mean score ${round.outcome.meanScore.toFixed(2)}`}.`,
        '',
      );
    }
    if (round.transition) lines.push(`> ${round.transition.summary}`, '>', `> ${round.transition.focus}`, '');
    const said = transcript.commentary.find((item) => item.round === round.number && item.text !== '');
    if (said) lines.push(`**Commentary** (for the audience): ${said.text}`, '');
    const summary = summaries.get(round.number);
    if (summary) {
      const rounds =
        summary.fromRound === summary.throughRound
          ? `round ${summary.fromRound}`
          : `rounds ${summary.fromRound}-${summary.throughRound}`;
      lines.push(`### Running summary: ${rounds}`, '', summary.text, '');
    }
  }

  const { stats } = transcript;
  lines.push('', '## Statistics', '');
  lines.push(
    '| Agent | Position | Rounds | Mean score | Votes against | Knocked out | Simulated s | Tokens in/out |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const agent of stats.agents) {
    lines.push(
      `| ${agent.name} | ${agent.position} | ${agent.roundsDebated} | ${agent.meanScore ?? '—'} | ${agent.votesAgainst} | ${agent.knockedOut ? 'yes' : 'no'} | ${agent.simulatedSeconds} | ${agent.tokensIn}/${agent.tokensOut} |`,
    );
  }
  lines.push(
    '',
    `Simulated speaking time: X ${stats.simulatedSecondsPerSide.X} s, Y ${stats.simulatedSecondsPerSide.Y} s. Rotations: ${stats.rotations}. Model calls: ${stats.modelCalls}.`,
  );
  if (stats.claims) {
    lines.push(
      '',
      `Claims ledger: ${stats.claims.recorded} claims recorded (${stats.claims.nearMatched} of them from a quote one word off); ${stats.claims.notInStatement} dropped as not in their statement; ${stats.claims.fellBack} extractions fell back to key sentences.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}
