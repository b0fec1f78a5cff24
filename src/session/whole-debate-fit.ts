/**
 * Whether a whole debate fits its windows, tried before it runs: the format's own planner and
 * executor, driven by the run's own loop, against a server that answers every call at its cap
 * (capped-answer-provider.ts) and counts tokens at each model's measured rate. Every call kind of
 * every round is built and fitted by the code the run fits it with (the window fitter, the
 * knockout's fold planner), so what this refuses, the run would stop on, in the same words.
 * Nothing leaves the machine: the trial's event log is written to a temporary folder, then removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Scenario } from '../config/scenario.js';
import { ContextWindowError } from '../context/context-window-error.js';
import { formatNamed } from '../formats/index.js';
import { ENGINE_VERSION } from '../manager/debate-manager.js';
import { driveRun } from '../manager/runner.js';
import { CappedAnswerProvider, type CappedCall } from './capped-answer-provider.js';

/** What trying the whole debate at its caps found. */
export interface WholeDebateFit {
  /** Calls made, refused ones included. */
  calls: number;
  /** The call whose prompt and answer's cap came nearest its window. */
  fullest: CappedCall | undefined;
  /** Calls whose debate so far was shortened to fit (as the run shortens it). */
  shortened: number;
  /** The refusal the run would stop with; undefined when the debate fits. */
  error: ContextWindowError | undefined;
  /** Something other than a window ended the trial early (its message), so later calls went untried. */
  incomplete?: string;
}

const FIXED_CLOCK = { now: () => new Date(0), monotonicMs: () => 0 };

/** A whole run of `scenario` at its caps, each model's prompts counted at `rates` (4 where absent). */
export async function fitWholeDebate(
  scenario: Scenario,
  rates: ReadonlyMap<string, number>,
): Promise<WholeDebateFit> {
  const format = formatNamed(scenario.format);
  const provider = new CappedAnswerProvider(rates);
  if (!format) return { calls: 0, fullest: undefined, shortened: 0, error: undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-whole-debate-'));
  try {
    const result = await driveRun({
      format,
      logFile: path.join(dir, 'events.jsonl'),
      existing: [],
      first: {
        type: 'run-start',
        runId: 'whole-debate-fit',
        format: format.name,
        scenario,
        engineVersion: ENGINE_VERSION,
      },
      provider,
      clock: FIXED_CLOCK,
      logger: pino({ level: 'silent' }),
      signal: new AbortController().signal,
    });
    const answered = provider.calls.filter((call) => !call.overflowed);
    const fullest = answered.reduce<CappedCall | undefined>(
      (most, call) =>
        most && most.promptTokens + most.maxTokens >= call.promptTokens + call.maxTokens ? most : call,
      undefined,
    );
    const fit: WholeDebateFit = {
      calls: provider.calls.length,
      fullest,
      shortened: answered.filter((call) => call.shortened).length,
      error: result.error instanceof ContextWindowError ? result.error : undefined,
    };
    if (result.error !== undefined && fit.error === undefined) {
      fit.incomplete = result.error instanceof Error ? result.error.message : String(result.error);
    }
    return fit;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
