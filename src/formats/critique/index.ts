/**
 * Critique and refine (seed 002): each round every agent proposes (in parallel), critiques every
 * other proposal, and refines its own; the judge synthesises a solution at the end, or after every
 * round when a confidence threshold may stop the debate early.
 */

import { z } from 'zod';
import { mapConcurrentInOrder } from '../../core/concurrency.js';
import { runProgress } from '../../core/run-progress.js';
import { checkScenarioLimits } from '../../core/stop-conditions.js';
import { answerJsonSchema, boundedInteger, boundedList, boundedText } from '../../judging/answer-fields.js';
import type { ChatMessage } from '../../llm/provider.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import type { DoneStep, FormatDefinition, StepContext } from '../format-definition.js';
import { produceAssessment } from '../shared/assessment-call.js';
import { foldSequence, sequenceFailures } from '../shared/sequence-state.js';
import { produceStatement } from '../shared/statement-call.js';
import {
  type CritiqueState,
  critiqueMessages,
  proposalMessages,
  refinementMessages,
} from './critique-prompts.js';
import {
  critiqueMarkdown,
  critiqueReport,
  critiqueSolutionText,
  critiqueTranscript,
} from './critique-transcript.js';
import {
  DIGEST_TOKENS,
  designMessages,
  digestMessages,
  missingDigests,
  SOLUTION_FIELDS_TOKENS,
  SOLUTION_LISTS,
  synthesisMessages,
} from './synthesis-prompts.js';

export { critiqueResult, critiqueSolutionText, critiqueTranscript } from './critique-transcript.js';

export type CritiqueStep =
  | { kind: 'proposals'; round: number; agents: string[] }
  | { kind: 'critiques'; round: number; pairs: Array<[string, string]> }
  | { kind: 'refinements'; round: number; agents: string[] }
  | { kind: 'digests'; round: number; items: Array<{ round: number; agent: string }> }
  | { kind: 'design'; round: number }
  | { kind: 'synthesis'; round: number };

/**
 * The synthesis's structured fields, asked after the design is written as prose: a cut here
 * costs the record its trade-offs, never the solution itself.
 */
export const solutionSchema = z.object({
  trade_offs: boundedList(boundedText(150), SOLUTION_LISTS.trade_offs.most),
  recommendations: boundedList(boundedText(150), SOLUTION_LISTS.recommendations.most),
  confidence: boundedInteger(0, 100),
});

const solutionJsonSchema = answerJsonSchema(solutionSchema);

const syntheses = (state: CritiqueState) => state.assessments.filter((item) => item.phase === 'synthesis');
/** The judge's design, written before the synthesis's structured fields. */
const designOf = (state: CritiqueState, round: number) =>
  state.statements.find((statement) => statement.phase === 'synthesis' && statement.round === round);

export function nextCritiqueStep(state: CritiqueState): CritiqueStep | DoneStep {
  const { scenario } = state;
  if (state.end) return { kind: 'done', status: state.end.status, stopReason: state.end.stopReason };
  const limit = checkScenarioLimits(state, scenario);
  if (limit) return { kind: 'done', ...limit };
  const names = scenario.agents.map((agent) => agent.name);
  const threshold = scenario.confidence_threshold;
  for (let round = 1; round <= scenario.rounds; round += 1) {
    const done = (phase: string, speaker: string, target?: string) =>
      state.statements.some(
        (statement) =>
          statement.round === round &&
          statement.phase === phase &&
          statement.speaker === speaker &&
          statement.target === target,
      );
    const proposals = names.filter((name) => !done('proposal', name));
    if (proposals.length > 0) return { kind: 'proposals', round, agents: proposals };
    const pairs = names.flatMap((critic) =>
      names
        .filter((target) => target !== critic && !done('critique', critic, target))
        .map((target): [string, string] => [critic, target]),
    );
    if (pairs.length > 0) return { kind: 'critiques', round, pairs };
    const refinements = names.filter((name) => !done('refinement', name));
    if (refinements.length > 0) return { kind: 'refinements', round, agents: refinements };
    const wantsSynthesis = threshold !== undefined || round === scenario.rounds;
    const synthesis = syntheses(state).find((item) => item.round === round);
    if (wantsSynthesis && !synthesis) {
      if (designOf(state, round)) return { kind: 'synthesis', round };
      // When the rounds do not all fit the judge's window verbatim, the judge first writes a digest
      // of each expert's work in each round (once: later syntheses reuse them).
      const items = missingDigests(state, round);
      return items.length > 0 ? { kind: 'digests', round, items } : { kind: 'design', round };
    }
    // A 7-8B judge reports 85-95 by habit: one round's word is not enough to stop early, two
    // syntheses in a row at the threshold are.
    const confident = (item: typeof synthesis) => {
      const confidence = item?.result?.confidence;
      return threshold !== undefined && typeof confidence === 'number' && confidence >= threshold;
    };
    if (confident(synthesis) && confident(syntheses(state).find((item) => item.round === round - 1))) {
      return { kind: 'done', status: 'completed', stopReason: 'confidence_threshold' };
    }
  }
  return { kind: 'done', status: 'completed', stopReason: 'max_rounds' };
}

async function executeCritiqueStep(
  step: CritiqueStep,
  state: CritiqueState,
  context: StepContext,
): Promise<void> {
  const { scenario } = state;
  const policy = retryPolicyOf(scenario.reliability);
  const agent = (name: string) => {
    const found = scenario.agents.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`agent ${name} is not in the scenario`);
    return found;
  };
  const speak = (name: string, phase: string, messages: ChatMessage[], target?: string) => {
    const speaker = agent(name);
    return produceStatement(
      {
        phase,
        round: step.round,
        speaker: speaker.name,
        side: speaker.role,
        label: `${speaker.role}${target ? `, on ${target}` : ''}`,
        heading: `Round ${step.round} ${phase}`,
        model: speaker.model,
        fallbackModels: speaker.fallback_models,
        ...(speaker.think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
        temperature: scenario.model_options.temperature,
        maxTokens: scenario.max_tokens,
        contextWindow: scenario.model_options.context_window,
        seed: scenario.seed,
        messages,
        policy,
      },
      context,
    ).then((event) => (target ? { ...event, target } : event));
  };
  // Contributions made side by side are recorded in the plan's order (by agent), whichever finishes first.
  const record = (event: Awaited<ReturnType<typeof speak>>) => {
    context.append(event);
  };
  // Views show contributions made side by side whole, as each is recorded, not as interleaved streams.
  const sideBySide = async (phase: string, who: string[], run: () => Promise<void>) => {
    if (Math.min(scenario.concurrency, who.length) < 2) return run();
    context.notify({
      type: 'parallel-start',
      round: step.round,
      heading: `Round ${step.round} ${phase}`,
      who,
    });
    try {
      await run();
    } finally {
      context.notify({ type: 'parallel-end', round: step.round });
    }
  };
  switch (step.kind) {
    case 'proposals':
      await sideBySide('proposals', step.agents, () =>
        mapConcurrentInOrder(
          step.agents,
          scenario.concurrency,
          (name) => speak(name, 'proposal', proposalMessages(state, agent(name), step.round)),
          record,
        ),
      );
      return;
    case 'critiques':
      await sideBySide(
        'critiques',
        step.pairs.map(([critic, target]) => `${critic} on ${target}`),
        () =>
          mapConcurrentInOrder(
            step.pairs,
            scenario.concurrency,
            ([critic, target]) =>
              speak(critic, 'critique', critiqueMessages(state, agent(critic), target, step.round), target),
            record,
          ),
      );
      return;
    case 'refinements':
      await sideBySide('refinements', step.agents, () =>
        mapConcurrentInOrder(
          step.agents,
          scenario.concurrency,
          (name) => speak(name, 'refinement', refinementMessages(state, agent(name), step.round)),
          record,
        ),
      );
      return;
    case 'digests':
      await sideBySide(
        'digests',
        step.items.map((item) => `${scenario.judge.name} on ${item.agent}, round ${item.round}`),
        () =>
          mapConcurrentInOrder(
            step.items,
            scenario.concurrency,
            (item) =>
              produceStatement(
                {
                  phase: 'digest',
                  round: item.round,
                  speaker: scenario.judge.name,
                  side: 'judge',
                  label: `judge, digest of ${item.agent}`,
                  heading: `Round ${item.round} digest`,
                  model: scenario.judge.model,
                  fallbackModels: [],
                  temperature: 0.2,
                  maxTokens: DIGEST_TOKENS,
                  contextWindow: scenario.model_options.context_window,
                  seed: scenario.seed,
                  messages: digestMessages(state, agent(item.agent), item.round),
                  policy,
                },
                context,
              ).then((event) => ({ ...event, target: item.agent })),
            record,
          ),
      );
      return;
    case 'design':
      context.append(
        await produceStatement(
          {
            phase: 'synthesis',
            round: step.round,
            speaker: scenario.judge.name,
            side: 'judge',
            label: 'judge',
            heading: `Round ${step.round} synthesis`,
            model: scenario.judge.model,
            fallbackModels: [],
            temperature: 0.2,
            maxTokens: scenario.judge_max_tokens,
            contextWindow: scenario.model_options.context_window,
            seed: scenario.seed,
            messages: designMessages(state, step.round),
            policy,
          },
          context,
        ),
      );
      return;
    case 'synthesis': {
      const design = designOf(state, step.round);
      context.notify({
        type: 'judging-start',
        round: step.round,
        judges: [scenario.judge.name],
        subject: 'the synthesised design',
      });
      context.append(
        await produceAssessment(
          {
            phase: 'synthesis',
            round: step.round,
            judge: scenario.judge.name,
            model: scenario.judge.model,
            fallbackModels: [],
            messages: synthesisMessages(state, step.round, design?.text ?? ''),
            schema: solutionSchema,
            jsonSchema: solutionJsonSchema,
            maxTokens: SOLUTION_FIELDS_TOKENS,
            contextWindow: scenario.model_options.context_window,
            temperature: 0.2,
            seed: scenario.seed,
            policy,
            enrich: () => ({
              description: design?.degraded ? '' : (design?.text ?? ''),
              synthesized_by: scenario.judge.name,
            }),
          },
          context,
        ),
      );
      return;
    }
  }
}

export const critiqueFormat: FormatDefinition<CritiqueState, CritiqueStep> = {
  name: 'critique',
  fold: foldSequence,
  next: nextCritiqueStep,
  execute: executeCritiqueStep,
  isFinished: (state) => state.end !== null,
  failures: sequenceFailures,
  progress: (state) =>
    runProgress(
      'critique',
      state,
      new Set(
        state.statements
          .filter((statement) => statement.phase === 'refinement')
          .map((statement) => statement.round),
      ).size,
      state.scenario.rounds,
      sequenceFailures(state).length,
    ),
  transcript: critiqueTranscript,
  markdown: critiqueMarkdown,
  report: critiqueReport,
  solutionText: critiqueSolutionText,
  answer: critiqueSolutionText,
  checkpoints: ['assessment'],
};
