/**
 * Judges measured against the truth: every question put to the judge alone (`direct`), reading the
 * passage (`expert`), through one consultant it may question (`consultancy`) and through two
 * debaters (`debate`), each judged twice, once with each answer first (the same statements read
 * again, not argued again); each step persisted before the next, so a stopped run resumes where it stood.
 */
import { z } from 'zod';
import { runProgress } from '../../core/run-progress.js';
import { clipText, type TextLayout, WIDE_LAYOUT } from '../../core/text-layout.js';
import { answerJsonSchema, boundedInteger, boundedText, charsFor } from '../../judging/answer-fields.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import type { FormatDefinition, StepContext } from '../format-definition.js';
import { produceAssessment } from '../shared/assessment-call.js';
import { foldSequence, sequenceFailures } from '../shared/sequence-state.js';
import { produceStatement } from '../shared/statement-call.js';
import {
  conditionRecords,
  JUDGE_QUESTION,
  nextTruthStep,
  questionJudged,
  questionSetEvent,
  recordedQuestions,
  type TruthState,
  type TruthStep,
  verdictCount,
} from './truth-plan.js';
import { debaterMessages, judgeQuestionMessages, verdictMessages } from './truth-prompts.js';
import { truthMarkdown, truthReport, truthTranscript } from './truth-report.js';

/** The judge's answer: its reasoning first, then the answer it believes and how sure it is. */
export function truthVerdictSchema(maxTokens: number) {
  return z.object({
    reasoning: boundedText(charsFor(maxTokens, 0.6, 800)),
    // Small models write the number as a number now and then: 1 is read as "1".
    answer: z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.enum(['1', '2'])),
    confidence: boundedInteger(50, 100),
  });
}

async function executeTruthStep(step: TruthStep, state: TruthState, context: StepContext): Promise<void> {
  const { scenario } = state;
  if (step.kind === 'questions') {
    context.append(questionSetEvent(scenario));
    return;
  }
  const question = recordedQuestions(state).find((item) => item.number === step.question);
  if (!question) throw new Error(`question ${step.question} is not in the run's question set`);
  const policy = retryPolicyOf(scenario.reliability);
  // The question is shown once, with the first step taken on it.
  const opening =
    !state.statements.some((item) => item.round === question.number) &&
    !state.assessments.some((item) => item.round === question.number && item.phase === 'verdict');
  const asked = opening
    ? `Question ${question.number}: ${clipText(question.question, 300)}\n  Answer 1: ${question.options[0]} · Answer 2: ${question.options[1]}\n`
    : '';
  const common = {
    temperature: scenario.model_options.temperature,
    contextWindow: scenario.model_options.context_window,
    policy,
  };
  if (step.kind === 'speak' || step.kind === 'ask') {
    const asking = step.kind === 'ask';
    const person = asking ? scenario.judge : scenario.debaters[step.side];
    const condition = asking ? 'consultancy' : step.condition;
    context.append(
      await produceStatement(
        {
          phase: asking ? JUDGE_QUESTION : step.condition,
          round: question.number,
          speaker: person.name,
          side: asking ? 'judge' : step.side,
          label: asking
            ? 'judge'
            : condition === 'debate'
              ? `Debater ${step.side.toUpperCase()}`
              : 'consultant',
          heading: `${asked}Question ${question.number}, ${condition} ${asking ? 'question' : 'statement'} ${step.turn}`,
          model: person.model,
          fallbackModels: person.fallback_models,
          ...(person.think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
          ...common,
          maxTokens: asking ? Math.min(scenario.judge_max_tokens, 120) : scenario.debater_max_tokens,
          // Each turn its own seed: the same speaker speaks several times on one question.
          seed: derivedSeed(scenario.seed, `truth:${question.id}:${condition}:${step.kind}-${step.turn}`),
          messages: asking
            ? judgeQuestionMessages(state, question)
            : debaterMessages(state, question, step.condition, step.side, step.turn),
        },
        context,
      ),
    );
    return;
  }
  const record = conditionRecords(state, question.number).find((item) => item.condition === step.condition);
  const failed = (record?.statements ?? []).filter((statement) => statement.degraded);
  if (failed.length > 0) {
    // A verdict on a debate with an emergency response would measure the failure, not the judge.
    context.append({
      type: 'assessment',
      phase: 'verdict',
      round: question.number,
      judge: scenario.judge.name,
      model: scenario.judge.model,
      result: null,
      abstained: true,
      reason: `void: ${[...new Set(failed.map((statement) => statement.speaker))].join(' and ')} could not speak (the model failed), so the ${step.condition} is not judged`,
      promptTokens: 0,
      promptChars: 0,
      outputTokens: 0,
      realMs: 0,
      attempts: 0,
    });
    return;
  }
  const order = step.reading === 1 ? '' : ', the answers swapped';
  context.notify({
    type: 'judging-start',
    round: question.number,
    judges: [scenario.judge.name],
    subject: `${asked}question ${question.number} (${step.condition}${order})`,
  });
  const schema = truthVerdictSchema(scenario.judge_max_tokens);
  context.append(
    await produceAssessment(
      {
        phase: 'verdict',
        round: question.number,
        judge: scenario.judge.name,
        model: scenario.judge.model,
        fallbackModels: scenario.judge.fallback_models,
        ...(scenario.judge.think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
        messages: verdictMessages(state, question, step.condition, step.reading),
        schema,
        jsonSchema: answerJsonSchema(schema),
        maxTokens: scenario.judge_max_tokens,
        contextWindow: scenario.model_options.context_window,
        temperature: 0.2,
        seed: scenario.seed,
        seedLabel: `${question.id}:${step.condition}${step.reading === 1 ? '' : ':swapped'}`,
        policy,
      },
      context,
    ),
  );
}

export const truthFormat: FormatDefinition<TruthState, TruthStep> = {
  name: 'truth',
  fold: foldSequence,
  next: nextTruthStep,
  execute: executeTruthStep,
  isFinished: (state) => state.end !== null,
  failures: sequenceFailures,
  progress: (state) => {
    const { done, total } = verdictCount(state);
    return runProgress('truth', state, done, total, sequenceFailures(state).length);
  },
  transcript: truthTranscript,
  markdown: truthMarkdown,
  report: (state: TruthState, layout?: TextLayout) => truthReport(state, layout ?? WIDE_LAYOUT),
  checkpoints: ['assessment', 'artifact'],
  // The transcripts hold every question: rewritten once a question has all its verdicts, not after
  // each of its eight (four conditions, two readings), which made a run of 400 questions write
  // gigabytes. A run stopped inside a question still writes them at its end.
  refreshesTranscripts: (event, state) =>
    event.type !== 'assessment' || event.phase !== 'verdict' || questionJudged(state, event.round),
};
