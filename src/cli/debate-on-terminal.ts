/**
 * A debate's session shown on the terminal, for `run`, `demo` and `resume`: the header, the live
 * view, the report and the exit code. Ctrl-C stops after the step in flight; a second one aborts it.
 */

import { personSeats } from '../config/person-seats.js';
import { promptSourcesText } from '../config/prompt-sources-text.js';
import { seedText } from '../config/scenario-overrides.js';
import { stopConditionsText } from '../config/stop-conditions-text.js';
import { ExitCode } from '../core/errors.js';
import { createLiveView } from '../render/live-view.js';
import { printable, safeJson } from '../render/terminal-safe.js';
import { wordWrapped } from '../render/word-wrapped.js';
import { fitLines } from '../render/wrap-text.js';
import {
  runSession,
  type SessionOutcome,
  type SessionRequest,
  type SessionStart,
} from '../session/debate-session.js';
import { describeSides } from '../session/prepare-scenario.js';
import { sessionEnd } from '../session/session-end.js';
import { writeFileAtomic } from '../store/write-files.js';
import { colorWanted } from './color.js';
import type { CliIo } from './io.js';
import { personPace } from './person-pace.js';
import { terminalPerson } from './person-terminal.js';
import { viewerPerson } from './person-viewer.js';
import { listenForStopSignals } from './stop-signals.js';
import { terminalLayout } from './terminal-layout.js';

/** How the terminal shows the run. */
export interface TerminalFlags {
  /** Where a person at the podium speaks from: the terminal (default) or the viewer's writing box. */
  speakFrom?: 'terminal' | 'viewer';
  /** No live transcript; only the final tables (with a format's answer: that alone on stdout). */
  quiet: boolean;
  /** A machine-readable summary on stdout and nothing else. */
  json: boolean;
  /** Debug logs on stderr too. */
  verbose: boolean;
  /**
   * Write the outcome here instead of printing it: the whole transcript for a .json file, else the
   * solution or Markdown.
   */
  output?: string;
  /** Lines said at the very end, after the report (the demo's who-won sentence and next commands). */
  closing?: (outcome: SessionOutcome) => string;
}

/** The request a command makes; the terminal adds how the run is stopped. */
export type TerminalRequest = Omit<SessionRequest, 'signal' | 'stopRequested' | 'verbose'>;

/** The failed steps that stand in a finished run's record, for the end-of-run report. */
export function failureReport(failures: readonly string[]): string {
  if (failures.length === 0) return '';
  const shown = failures.slice(0, 12).map((line) => `  - ${line}`);
  if (failures.length > shown.length) shown.push(`  - ... and ${failures.length - shown.length} more`);
  return `Degraded: ${failures.length} failed step${failures.length === 1 ? '' : 's'} stand${failures.length === 1 ? 's' : ''} in this record:\n${shown.join('\n')}\n`;
}

function header(start: SessionStart): string {
  const { runId, paths, scenario, resumedAt } = start;
  const sides = describeSides(scenario);
  return `${resumedAt ? `Resuming run ${runId} (${resumedAt.done} of ${resumedAt.total} done)` : `Run ${runId}`}\nFormat: ${scenario.format}\nTopic: ${scenario.topic}\nWriting to ${paths.runDir}/\n${start.servers}${sides ? `${sides}\n` : ''}${resumedAt ? '' : `${seedText(scenario)}\n`}${stopConditionsText(scenario)}\n`;
}

export async function debateOnTerminal(
  request: TerminalRequest,
  flags: TerminalFlags,
  io: CliIo,
): Promise<number> {
  const live = !flags.quiet && !flags.json;
  const layout = terminalLayout(io.stdout, io.env);
  // Statements wrap at word boundaries instead of wherever the screen cuts them; on a terminal one
  // column short, since a line exactly as wide as the screen makes some terminals add an empty line.
  const viewOut = wordWrapped(io.stdout, io.stdout.isTTY ? layout.width - 1 : layout.width);
  const view = live
    ? createLiveView(viewOut, { color: colorWanted(io.stdout, io.env), scenario: request.scenario })
    : undefined;
  // With --quiet, a format's answer is all stdout carries; what the run says about itself goes to stderr.
  let info = io.stdout;
  // Lines wider than the screen are wrapped at word boundaries; tables are drawn to fit.
  // Model and scenario text never reaches the terminal with the escape sequences it may hold.
  const say = (text: string) => info.write(fitLines(printable(text), layout.width));
  const abort = new AbortController();
  let stopRequested = false;
  let stopListening: () => void = () => undefined;
  // A person at the podium types their statements here, or pipes them in, or writes them in the
  // viewer's box on the run page.
  const seated = personSeats(request.scenario).length > 0 && !request.person;
  const pace = personPace(request.scenario);
  const person =
    seated && flags.speakFrom !== 'viewer' && io.stdin
      ? terminalPerson(io.stdin, flags.json ? io.stderr : io.stdout, pace)
      : undefined;
  const personFor =
    seated && flags.speakFrom === 'viewer' ? (runDir: string) => viewerPerson(runDir, pace) : undefined;
  try {
    const outcome = await runSession(
      {
        ...request,
        ...(person ? { person } : {}),
        ...(personFor ? { personFor } : {}),
        verbose: flags.verbose,
        signal: abort.signal,
        stopRequested: () => stopRequested,
      },
      {
        warning: (text) => io.stderr.write(`warning: ${printable(text)}\n`),
        started(start) {
          if (flags.quiet && start.format.answer !== undefined) info = io.stderr;
          if (!flags.json) say(header(start));
          // Where each prompt came from, as seed 002 has --verbose say; never into --json's stdout.
          if (flags.verbose) {
            const sources = promptSourcesText(start.scenario);
            if (sources !== '') (flags.json ? io.stderr : info).write(printable(sources));
          }
          stopListening = listenForStopSignals({
            stop(signal) {
              stopRequested = true;
              io.stderr.write(
                `\n${signal}: stopping after the step in flight (press Ctrl-C again to abort it).\n`,
              );
            },
            abort(signal) {
              io.stderr.write(`\n${signal} again: aborting the step in flight.\n`);
              abort.abort();
            },
          });
        },
        notice: (notice) => view?.onNotice(notice),
        event: (event) => view?.onEvent(event),
      },
    );
    viewOut.flush();
    report(outcome, flags, io, say, info === io.stderr);
    const code = ended(outcome, flags, io, info);
    if (flags.closing && !flags.json) say(flags.closing(outcome));
    return code;
  } finally {
    stopListening();
    person?.close();
  }
}

/** The outcome as the user asked for it: the report and answer, the --output file, or JSON. */
function report(
  outcome: SessionOutcome,
  flags: TerminalFlags,
  io: CliIo,
  say: (text: string) => void,
  answerOnly: boolean,
): void {
  const { format, paths, transcript, failures, answer } = outcome;
  const info = answerOnly ? io.stderr : io.stdout;
  if (flags.output) {
    const text = flags.output.endsWith('.json')
      ? `${JSON.stringify(transcript, null, 2)}\n`
      : (format.solutionText?.(outcome.state) ?? format.markdown(outcome.state));
    writeFileAtomic(flags.output, text);
    // On stderr, as seed 002 has it: stdout stays for what was asked to be printed.
    io.stderr.write(`Saved debate to ${flags.output}\n`);
  }
  if (flags.json) {
    const progress = format.progress(outcome.state);
    io.stdout.write(
      `${safeJson({ runId: outcome.runId, runDir: paths.runDir, format: format.name, seed: outcome.scenario.seed, status: transcript.status, stopReason: transcript.stopReason, error: transcript.error, failedSteps: failures.length, failures, progress, stats: (transcript as { stats?: unknown }).stats ?? null, ...(answer === undefined ? {} : { solution: answer }), transcript: paths.transcriptJson }, 2)}\n`,
    );
  } else if (answerOnly) {
    // With --output the answer is in that file, and not printed as well.
    if (!flags.output) io.stdout.write(printable(answer ?? ''));
    io.stderr.write(`${failureReport(failures)}Transcript: ${paths.transcriptMarkdown}\n`);
  } else {
    say(`\n${format.report(outcome.state, terminalLayout(io.stdout, io.env))}\n`);
    // The answer (a critique's solution) as written, not re-wrapped: it may hold code or tables.
    if (answer && !flags.output) io.stdout.write(`\n${printable(answer)}\n`);
    say(`${failureReport(failures)}Transcript: ${paths.transcriptMarkdown}\n`);
  }
  if (outcome.recorded && !flags.json) {
    const { count, dir } = outcome.recorded;
    info.write(`Recorded ${count} model call${count === 1 ? '' : 's'} into ${dir}/\n`);
  }
}

/** The exit code, with what the user should know about an end that was not a plain completion. */
function ended(outcome: SessionOutcome, flags: TerminalFlags, io: CliIo, info: CliIo['stdout']): number {
  const end = sessionEnd(outcome);
  if (end.kind === 'degraded') {
    io.stderr.write(
      `agora: the debate ran to its end, but ${end.failedSteps} failed step${end.failedSteps === 1 ? '' : 's'} decided part of it (status degraded, exit ${ExitCode.degraded}); see ${outcome.paths.transcriptMarkdown}\n`,
    );
  }
  if (end.kind === 'stopped' && !flags.json) info.write(`Stopped. Continue with: ${outcome.resumeCommand}\n`);
  return end.exitCode;
}
