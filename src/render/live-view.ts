/** The terminal's live view of a run, for every format: statements as they stream, judges, outcomes. */
import type { Writable } from 'node:stream';
import type { RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';

export interface LiveView {
  onNotice(notice: LiveNotice): void;
  onEvent(event: RunEvent): void;
}

export function createLiveView(out: Writable, options: { color: boolean }): LiveView {
  const dim = (text: string) => (options.color ? `\u001b[2m${text}\u001b[22m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const write = (text: string) => out.write(text);
  const statementEnd = (event: {
    outputTokens: number;
    truncated: boolean;
    degraded?: boolean;
    failureReason?: string;
    fallbackFrom?: string;
    model: string;
    agentName: string;
    extra?: string;
  }) => {
    if (event.degraded) {
      write(
        `\n${bold(`${event.agentName}'s turn is degraded: ${event.failureReason ?? 'the model failed'}`)}\n`,
      );
      return;
    }
    const notes = [
      `${event.outputTokens} tokens`,
      event.extra ?? '',
      event.truncated ? 'cut by the time limit' : '',
      event.fallbackFrom ? `spoken by fallback model ${event.model}; ${event.fallbackFrom} kept failing` : '',
    ].filter((note) => note !== '');
    write(`\n${dim(`(${notes.join(', ')})`)}\n`);
  };
  return {
    onNotice(notice) {
      switch (notice.type) {
        case 'turn-start':
          write(`\n${bold(`${notice.heading} · ${notice.agent} (${notice.label}) · ${notice.model}`)}\n`);
          write(`${dim(`${notice.agent} is generating (up to ${notice.tokenLimit} tokens)…`)}\n`);
          return;
        case 'turn-delta':
          write(notice.text);
          return;
        case 'judging-start':
          write(`\n${dim(`Judges scoring ${notice.subject}: ${notice.judges.join(', ')}…`)}\n`);
          return;
        case 'judge-retry':
          write(`${dim(`  ${notice.judge}'s answer was unusable (${notice.reason}); asking again`)}\n`);
          return;
        case 'summary-start':
          write(
            `\n${dim(`Summarising rounds 1-${notice.throughRound} with ${notice.model} to keep prompts within the context window…`)}\n`,
          );
          return;
        case 'moderation':
          write(
            `\n${dim(`Moderator on ${notice.agent}: ${notice.passed ? 'passes' : `objects (${notice.reason})`}`)}\n`,
          );
          return;
        case 'retry':
          write(
            `${dim(`  ${notice.what} failed (${notice.reason}); retry ${notice.attempt} in ${Math.round(notice.delayMs)} ms`)}\n`,
          );
          return;
      }
    },
    onEvent(event) {
      switch (event.type) {
        case 'turn-end':
          statementEnd({ ...event, agentName: event.agent, extra: `${event.simulatedSeconds} s simulated` });
          return;
        case 'statement':
          statementEnd({
            ...event,
            agentName: event.speaker,
            extra: [
              event.wordLimited ? 'cut to the word limit' : '',
              event.regenerated ? 'regenerated once' : '',
              event.flagged ? `flagged: ${event.flagged}` : '',
            ]
              .filter((note) => note !== '')
              .join(', '),
          });
          return;
        case 'vote-cast':
          if (event.evaluation) {
            write(
              `  ${event.judge}: ${event.evaluation.total_score.toFixed(2)} → ${event.evaluation.continue_vote ? 'continue' : 'rotate'}\n`,
            );
          } else {
            write(`  ${event.judge}: abstained (${event.abstainReason ?? 'no usable answer'})\n`);
          }
          return;
        case 'assessment': {
          if (!event.result) {
            write(`  ${event.judge}: abstained (${event.reason ?? 'no usable answer'})\n`);
            return;
          }
          const summary = typeof event.result.summary === 'string' ? event.result.summary : '';
          write(
            `${bold(`${event.phase === 'verdict' ? 'Verdict' : `Judge on round ${event.round}`} (${event.judge})`)}: ${summary}\n`,
          );
          return;
        }
        case 'round-end': {
          const { tally } = event;
          const result =
            event.outcome === 'rotation' && event.rotation
              ? `rotation: ${event.rotation.to} replaces ${event.rotation.from}`
              : event.outcome === 'continue'
                ? `${event.debater} continues`
                : event.outcome === 'debate-over'
                  ? `${event.debater} voted out in the final round`
                  : event.outcome === 'void'
                    ? `void vote, ${event.debater} continues without a verdict`
                    : `${event.debater} continues (${event.outcome.replace(/-/g, ' ')})`;
          const tie =
            tally.decidedBy === 'votes' || tally.decidedBy === 'void'
              ? ''
              : ` [tie decided by ${tally.decidedBy}]`;
          write(
            `${bold(`Round ${event.round}: ${tally.rotateVotes} rotate / ${tally.continueVotes} continue → ${result}`)}${tie}\n`,
          );
          return;
        }
        case 'summary':
          write(
            `${dim(`Summary through round ${event.throughRound} written (${event.outputTokens} tokens).`)}\n`,
          );
          return;
        case 'run-end':
          write(
            `\n${bold(`Run ${event.status}: ${event.stopReason}`)}${event.error ? ` — ${event.error}` : ''}\n`,
          );
          return;
        default:
          return;
      }
    },
  };
}
