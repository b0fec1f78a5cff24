/** The terminal's live view of a run, for every format: statements as they stream, judges, outcomes. */

import type { Writable } from 'node:stream';
import type { Scenario } from '../config/scenario.js';
import { clampedText } from '../core/clamped-text.js';
import type { AssessmentEvent, RunEvent, StatementEvent } from '../core/events.js';
import type { LiveNotice } from '../core/live.js';
import { PERSON_MODEL } from '../core/person-seat.js';
import { stopReasonText } from '../core/stop-reason-text.js';
import {
  councilAnswerText,
  councilStanceText,
  criteriaTableText,
  duelRoundText,
  formalVerdictText,
  readJudgement,
  sentence,
  voteContradictionText,
} from './judgement-text.js';
import { printableDeep, StreamFilter } from './terminal-safe.js';

export interface LiveView {
  onNotice(notice: LiveNotice): void;
  onEvent(event: RunEvent): void;
}

/**
 * `scenario` (as run, debaters resolved) names the sides in the judges' calls. Everything from a
 * model or the scenario is printed without the escape sequences it may hold (terminal-safe.ts);
 * a statement streamed in pieces, with a sequence cut between two pieces removed whole.
 */
export function createLiveView(
  out: Writable,
  given: { color: boolean; scenario?: Scenario | undefined },
): LiveView {
  const options = { ...given, scenario: given.scenario && printableDeep(given.scenario) };
  let stream = new StreamFilter();
  const view = createView(out, options, () => stream);
  return {
    onNotice(notice) {
      if (notice.type === 'turn-start') stream = new StreamFilter();
      // A streamed piece is filtered with the pieces around it, never on its own.
      view.onNotice(notice.type === 'turn-delta' ? notice : printableDeep(notice));
    },
    onEvent(event) {
      const rest = stream.flush();
      if (rest !== '') out.write(rest);
      view.onEvent(printableDeep(event));
    },
  };
}

function createView(
  out: Writable,
  options: { color: boolean; scenario?: Scenario | undefined },
  stream: () => StreamFilter,
): LiveView {
  const dim = (text: string) => (options.color ? `\u001b[2m${text}\u001b[22m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const write = (text: string) => out.write(text);
  // Contributions generated side by side: who is still to come, shown whole when each is recorded.
  let parallel: string[] | null = null;
  const recorded = (key: string) => {
    if (!parallel) return;
    parallel = parallel.filter((who) => who !== key);
    if (parallel.length > 0) write(`${dim(`still to come: ${parallel.join(', ')}…`)}\n`);
  };
  const wholeStatement = (event: StatementEvent) => {
    const what = event.target ? `${event.phase} of ${event.target}` : event.phase;
    write(`\n${bold(`${event.speaker} (${event.side}), ${what}:`)}\n`);
    if (!event.degraded) write(event.text.trim());
  };
  const assessmentLines = (event: AssessmentEvent, result: Record<string, unknown>): string => {
    const said = (key: string) => (typeof result[key] === 'string' ? (result[key] as string).trim() : '');
    switch (event.phase) {
      case 'judgement': {
        const fresh = result.no_new_arguments === true ? dim(' · no new arguments') : '';
        const swap = readJudgement(options.scenario, event)?.sideSwap ?? '';
        return `${bold(`${event.judge}: ${duelRoundText(options.scenario, event.round, result)}`)}${fresh}\n${said('why')}\n${dim(said('summary'))}\n${swap ? `${sentence(swap)}\n` : ''}`;
      }
      case 'verdict': {
        const reading = readJudgement(options.scenario, event);
        const table = reading ? criteriaTableText(reading) : '';
        const after = [
          table,
          reading?.sideSwap ? sentence(reading.sideSwap) : '',
          ...(reading?.warnings ?? []).map((warning) => `⚠ ${warning}`),
        ].filter((line) => line !== '');
        return `${bold(`Verdict (${event.judge}): ${formalVerdictText(options.scenario, result)}`)}\n${said('reasons') || said('summary')}\n${after.map((line) => `${line}\n`).join('')}`;
      }
      case 'round-1':
      case 'round-3': {
        const stance = councilStanceText(result);
        const verb = event.phase === 'round-1' ? 'claims' : 'revises';
        return `${bold(`${event.judge} ${verb}`)}${stance ? ` (${stance})` : ''}: ${councilAnswerText(event)}\n`;
      }
      case 'round-2': {
        const challenges = Array.isArray(result.challenges)
          ? (result.challenges as Array<Record<string, unknown>>)
          : [];
        return challenges
          .map(
            (item) =>
              `${bold(`${event.judge} challenges ${String(item.target_role)}`)}: ${String(item.challenge)}\n`,
          )
          .join('');
      }
      case 'decision': {
        const why = Array.isArray(result.why_selected) ? (result.why_selected as unknown[]).map(String) : [];
        return `${bold(`Decision (${event.judge})`)}: ${said('selected_option')}\n${why.map((line) => `  - ${line}\n`).join('')}`;
      }
      case 'synthesis': {
        const confidence = typeof result.confidence === 'number' ? `, confidence ${result.confidence}` : '';
        return `${bold(`Synthesis (${event.judge}${confidence})`)}: ${said('description')}\n`;
      }
    }
  };
  const statementEnd = (event: {
    outputTokens: number;
    truncated: boolean;
    degraded?: boolean;
    failureReason?: string;
    fallbackFrom?: string;
    model: string;
    agentName: string;
    extra?: string;
    /** What cut a truncated statement: a knockout's speaking time, another format's token cap. */
    cutBy?: string;
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
      event.truncated ? (event.cutBy ?? 'cut by the time limit') : '',
      event.fallbackFrom ? `spoken by fallback model ${event.model}; ${event.fallbackFrom} kept failing` : '',
    ].filter((note) => note !== '');
    write(`\n${dim(`(${notes.join(', ')})`)}\n`);
  };
  return {
    onNotice(notice) {
      switch (notice.type) {
        case 'turn-start':
          if (parallel) return;
          write(`\n${bold(`${notice.heading} · ${notice.agent} (${notice.label}) · ${notice.model}`)}\n`);
          write(
            notice.model === PERSON_MODEL
              ? `${dim(`${notice.agent} is the person at the podium: their turn to speak…`)}\n`
              : `${dim(`${notice.agent} is generating (up to ${notice.tokenLimit} tokens)…`)}\n`,
          );
          return;
        case 'turn-delta':
          if (!parallel) write(stream().push(notice.text));
          return;
        case 'parallel-start':
          parallel = [...notice.who];
          write(`\n${bold(notice.heading)}\n${dim(`generating: ${notice.who.join(', ')}…`)}\n`);
          return;
        case 'parallel-end':
          parallel = null;
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
          if (parallel) wholeStatement(event);
          statementEnd({
            ...event,
            agentName: event.speaker,
            cutBy: 'cut by its token cap',
            extra: [
              event.wordLimited ? 'cut to the word limit' : '',
              event.timeLimited ? 'cut at its time limit' : '',
              event.regenerated ? 'regenerated once' : '',
              event.flagged ? `flagged: ${event.flagged}` : '',
            ]
              .filter((note) => note !== '')
              .join(', '),
          });
          recorded(event.target ? `${event.speaker} on ${event.target}` : event.speaker);
          return;
        case 'vote-cast':
          if (event.evaluation) {
            const { evaluation } = event;
            write(
              `  ${event.judge}: ${evaluation.total_score.toFixed(2)} → ${evaluation.continue_vote ? 'continue' : 'rotate'}${
                evaluation.inconsistent ? ` ⚠ ${voteContradictionText(evaluation)}` : ''
              }\n`,
            );
          } else {
            write(`  ${event.judge}: abstained (${event.abstainReason ?? 'no usable answer'})\n`);
          }
          return;
        case 'assessment': {
          if (!event.result) {
            write(`  ${event.judge}: abstained (${event.reason ?? 'no usable answer'})\n`);
          } else {
            write(assessmentLines(event, event.result));
            if (event.clamped && event.clamped.length > 0) {
              write(`  ${event.judge}: ${clampedText(event.clamped)} (outside the answer's bounds)\n`);
            }
          }
          recorded(event.judge);
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
        case 'commentary':
          if (event.text !== '') write(`${dim(`Commentary after round ${event.round}:`)} ${event.text}\n`);
          return;
        case 'summary':
          write(
            `${dim(`Summary through round ${event.throughRound} written (${event.outputTokens} tokens).`)}\n`,
          );
          return;
        case 'run-end':
          parallel = null;
          write(
            `\n${bold(runEndText(event.status, event.stopReason))}${event.error ? ` — ${event.error}` : ''}\n`,
          );
          return;
        default:
          return;
      }
    },
  };
}

/** The live view's last line, in words: "The debate is over: it reached its last round." */
function runEndText(status: string, stopReason: string): string {
  const why = stopReasonText(stopReason);
  const head =
    status === 'completed' || status === 'degraded'
      ? 'The debate is over'
      : status === 'stopped'
        ? 'Stopped'
        : 'The run failed';
  return `${head}${why ? `: ${withFullStop(why)}` : '.'}`;
}

const withFullStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
