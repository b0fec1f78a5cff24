/**
 * What a council was allowed and what it used (seed 003 §4: the budget is limited and the actual
 * consumption recorded, for audit and optimisation). The Final Packet's schema is fixed and closed,
 * so the record goes to budget.json beside it (listed in the packet's `trace.evidence_refs`), to
 * transcript.json, transcript.md and the report. The tokens are the run's token table's own
 * (tokenUsage over the recorded calls), and the active time the one the stop conditions measure.
 */
import { limitsOf } from '../../core/stop-conditions.js';
import { tokenUsage } from '../shared/token-usage.js';
import { recordedCalls } from '../token-usage-report.js';
import type { CouncilState } from './council-prompts.js';
import { budgetCut } from './council-states.js';

export interface CouncilBudget {
  limits: { max_total_output_tokens: number | null; max_runtime_seconds: number | null };
  used: {
    output_tokens: number;
    prompt_tokens: number;
    /** Of the prompt tokens, those the server served from its cache; null when no server said. */
    cached_prompt_tokens: number | null;
    /** Model calls made, every attempt counted (retries, repairs, fallbacks). */
    model_calls: number;
    active_seconds: number;
  };
  /** Of each limit, the share used (1 or more: reached); null without that limit. */
  share_used: { output_tokens: number | null; active_seconds: number | null };
  /** The states the budget cut, and why; null when it cut none. */
  cut: { reason: string; states: string[] } | null;
  /** The state the record was taken in; every model call comes before it. */
  recorded_at_state: string;
}

const ratio = (used: number, limit: number | null) =>
  limit === null ? null : Math.round((used / limit) * 1000) / 1000;

/** The budget and its use, from the state alone (the same on every replay). */
export function councilBudget(state: CouncilState, recordedAtState: string): CouncilBudget {
  const limits = limitsOf(state.scenario);
  const run = tokenUsage(recordedCalls(state)).run;
  const activeSeconds = Math.round(state.activeMs / 100) / 10;
  return {
    limits: {
      max_total_output_tokens: limits.maxTotalOutputTokens,
      max_runtime_seconds: limits.maxRuntimeSeconds,
    },
    used: {
      output_tokens: run.outputTokens,
      prompt_tokens: run.promptTokens,
      cached_prompt_tokens: run.cachedPromptTokens,
      model_calls: run.calls,
      active_seconds: activeSeconds,
    },
    share_used: {
      output_tokens: ratio(run.outputTokens, limits.maxTotalOutputTokens),
      active_seconds: ratio(activeSeconds, limits.maxRuntimeSeconds),
    },
    cut: budgetCut(state),
    recorded_at_state: recordedAtState,
  };
}

/** The budget as it was recorded (budget.json), or as it stands for a run that has not recorded it yet. */
export function recordedBudget(state: CouncilState, stateName: string): CouncilBudget {
  const recorded = state.artifacts.find((artifact) => artifact.name === 'budget')?.data;
  return recorded ? (recorded as unknown as CouncilBudget) : councilBudget(state, stateName);
}

/** One line: "Budget: 5210 of 16000 output tokens, 21840 prompt tokens, 13 model calls, 95.2 s active of 3600 s." */
export function budgetLine(budget: CouncilBudget): string {
  const { limits, used } = budget;
  const tokens =
    limits.max_total_output_tokens === null
      ? `${used.output_tokens} output tokens (no limit)`
      : `${used.output_tokens} of ${limits.max_total_output_tokens} output tokens`;
  const time =
    limits.max_runtime_seconds === null
      ? `${used.active_seconds} s active (no limit)`
      : `${used.active_seconds} s active of ${limits.max_runtime_seconds} s`;
  const cut = budget.cut ? `; cut ${budget.cut.states.join(', ')} (${budget.cut.reason})` : '';
  return `Budget: ${tokens}, ${used.prompt_tokens} prompt tokens, ${used.model_calls} model calls, ${time}${cut}.`;
}
