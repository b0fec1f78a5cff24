/** The terminal's live view of a knockout run: statements as they stream, judges, outcomes. */
import type { Writable } from 'node:stream';
import type { RunEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';

export interface LiveView {
  onNotice(notice: LiveNotice): void;
  onEvent(event: RunEvent): void;
}

export function createLiveView(
  out: Writable,
  positions: { x: string; y: string },
  options: { color: boolean },
): LiveView {
  const dim = (text: string) => (options.color ? `\u001b[2m${text}\u001b[22m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const write = (text: string) => out.write(text);
  const label = (position: 'X' | 'Y') => (position === 'X' ? positions.x : positions.y);
  return {
    onNotice(notice) {
      switch (notice.type) {
        case 'turn-start':
          write(
            `\n${bold(`Round ${notice.round} · ${notice.agent} (Position ${notice.position}, ${label(notice.position)}) · ${notice.model}`)}\n`,
          );
          write(`${dim(`${notice.agent} is generating (up to ${notice.tokenLimit} tokens)…`)}\n`);
          return;
        case 'turn-delta':
          write(notice.text);
          return;
        case 'judging-start':
          write(`\n${dim(`Judges scoring ${notice.debater}: ${notice.judges.join(', ')}…`)}\n`);
          return;
        case 'judge-retry':
          write(`${dim(`  ${notice.judge}'s answer was unusable (${notice.reason}); asking again`)}\n`);
          return;
        case 'summary-start':
          write(
            `\n${dim(`Summarising rounds 1-${notice.throughRound} with ${notice.model} to keep prompts within the context window…`)}\n`,
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
          if (event.degraded) {
            write(
              `\n${bold(`${event.agent}'s turn is degraded: ${event.failureReason ?? 'the model failed'}`)}\n`,
            );
            return;
          }
          if (event.fallbackFrom)
            write(
              `\n${dim(`(spoken by fallback model ${event.model}; ${event.fallbackFrom} kept failing)`)}`,
            );
          write(
            `\n${dim(`(${event.outputTokens} tokens, ${event.simulatedSeconds} s simulated${event.truncated ? ', cut by the time limit' : ''})`)}\n`,
          );
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
        case 'round-end': {
          const { tally } = event;
          const result =
            event.outcome === 'rotation' && event.rotation
              ? `rotation: ${event.rotation.to} replaces ${event.rotation.from}`
              : event.outcome === 'continue'
                ? `${event.debater} continues`
                : `${event.debater} continues (${event.outcome.replace(/-/g, ' ')})`;
          const tie = tally.decidedBy === 'votes' ? '' : ` [tie decided by ${tally.decidedBy}]`;
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
