/**
 * The five-role council (seed 003): Intake → Round1 → Round2 → Round3 → Consensus → Judge →
 * Packetize → Writeback, each a step persisted before the next, never looping; a failing role
 * degrades the run (recorded and visible) instead of ending it.
 */
import path from 'node:path';
import { mapConcurrent } from '../../core/concurrency.js';
import { runProgress } from '../../core/run-progress.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import type { FormatDefinition, StepContext } from '../format-definition.js';
import { produceAssessment } from '../shared/assessment-call.js';
import { foldSequence } from '../shared/sequence-state.js';
import {
  BUDGET_FILE,
  buildPacket,
  consensus,
  intake,
  json,
  packetMarkdown,
  packetRunId,
  roundFile,
  writeRunFile,
} from './council-artifacts.js';
import { budgetLine, type CouncilBudget, councilBudget } from './council-budget.js';
import {
  type CouncilState,
  councilStances,
  type DebatingRole,
  judgeMessages,
  peerLabels,
  roundMessages,
} from './council-prompts.js';
import { COUNCIL_STATES, type CouncilStep, councilStateName, nextCouncilStep } from './council-states.js';
import { councilFailures, councilMarkdown, councilReport, councilTranscript } from './council-transcript.js';
import {
  challengeSchema,
  decisionSchema,
  finalPacketSchema,
  jsonSchemaOf,
  normalisedConfidence,
  openingSchema,
  revisionSchema,
} from './packet-schema.js';
import { COUNCIL_ROUND_TITLES } from './round-titles.js';

export {
  budgetCut,
  COUNCIL_STATES,
  type CouncilStep,
  councilStateName,
  nextCouncilStep,
} from './council-states.js';
export { councilFailures, councilResult, councilTranscript } from './council-transcript.js';

/** Where decision records go: the scenario's folder setting, relative to the runs folder. */
export function notesFolder(state: CouncilState, runDir: string): string {
  const folder = state.scenario.writeback.folder;
  return path.isAbsolute(folder) ? folder : path.join(path.dirname(runDir), folder);
}

async function executeCouncilStep(
  step: CouncilStep,
  state: CouncilState,
  context: StepContext,
): Promise<void> {
  const { scenario } = state;
  const policy = retryPolicyOf(scenario.reliability);
  const participant = (role: string) =>
    scenario.participants[role.toLowerCase() as keyof typeof scenario.participants];
  switch (step.kind) {
    case 'intake': {
      const request = intake(state);
      context.append({
        type: 'artifact',
        name: 'intake',
        // The marker says this run's packet carries the run's own id (see packetRunId).
        data: { ...request, packet_run_id: state.runId },
        files: [writeRunFile(context, 'request.json', json(request))],
      });
      return;
    }
    case 'round': {
      const stances = councilStances(scenario);
      // In round 2 a role names its targets by the anonymous labels it was shown.
      const schemaFor = (role: DebatingRole) =>
        step.round === 1
          ? openingSchema(stances, scenario.max_tokens)
          : step.round === 2
            ? challengeSchema(
                peerLabels(state, role).map((item) => item.label),
                scenario.max_tokens,
              )
            : revisionSchema(stances, scenario.max_tokens);
      context.notify({
        type: 'parallel-start',
        round: step.round,
        heading: COUNCIL_ROUND_TITLES[step.round] ?? `Round ${step.round}`,
        who: step.roles,
      });
      // The roles of a round answer side by side; each answer is kept as it arrives.
      await mapConcurrent(step.roles, step.roles.length, async (role) => {
        const event = await produceAssessment(
          {
            phase: `round-${step.round}`,
            round: step.round,
            judge: role,
            model: participant(role).model,
            fallbackModels: participant(role).fallback_models,
            ...(participant(role).think ? { think: true, thinkingBudget: scenario.thinking_budget } : {}),
            messages: roundMessages(state, role, step.round),
            schema: schemaFor(role) as never,
            jsonSchema: jsonSchemaOf(schemaFor(role)),
            maxTokens: scenario.max_tokens,
            contextWindow: scenario.model_options.context_window,
            temperature: scenario.model_options.temperature,
            seed: scenario.seed,
            policy,
            enrich: (answer: Record<string, unknown>) => roundAnswerFacts(state, role, answer),
          },
          context,
        );
        context.append(event);
      }).finally(() => context.notify({ type: 'parallel-end', round: step.round }));
      return;
    }
    case 'cut': {
      context.logger.warn({ reason: step.reason, states: step.states }, 'council states cut by the budget');
      context.append({
        type: 'artifact',
        name: 'budget-cut',
        data: { reason: step.reason, states: step.states },
        files: [],
      });
      return;
    }
    case 'consensus': {
      const data = consensus(state);
      const files = [1, 2, 3].map((round) =>
        writeRunFile(context, `rounds/round-${round}.json`, json(roundFile(state, round))),
      );
      files.push(writeRunFile(context, 'consensus.json', json(data)));
      context.append({ type: 'artifact', name: 'consensus', data, files });
      return;
    }
    case 'judge': {
      const agreed = state.artifacts.find((artifact) => artifact.name === 'consensus')?.data ?? {};
      context.notify({
        type: 'judging-start',
        round: 4,
        judges: ['Judge'],
        subject: "the council's answers",
      });
      context.append(
        await produceAssessment(
          {
            phase: 'decision',
            round: 4,
            judge: 'Judge',
            model: scenario.participants.judge.model,
            fallbackModels: scenario.participants.judge.fallback_models,
            ...(scenario.participants.judge.think
              ? { think: true, thinkingBudget: scenario.thinking_budget }
              : {}),
            messages: judgeMessages(
              state,
              agreed,
              state.startedAt.slice(0, 10),
              context.tokenRates?.get(scenario.participants.judge.model),
            ),
            schema: decisionSchema(scenario.judge_max_tokens, scenario.options),
            jsonSchema: jsonSchemaOf(decisionSchema(scenario.judge_max_tokens, scenario.options)),
            maxTokens: scenario.judge_max_tokens,
            contextWindow: scenario.model_options.context_window,
            temperature: 0.2,
            seed: scenario.seed,
            policy,
            enrich: (answer) => {
              const numbered = answer.next_actions.map((action, at) => ({ id: `A${at + 1}`, ...action }));
              return {
                next_actions: numbered,
                ...checkedDueDates({ next_actions: numbered }, state.startedAt),
              };
            },
          },
          context,
        ),
      );
      return;
    }
    case 'budget': {
      const budget = councilBudget(state, 'Packetize');
      context.append({
        type: 'artifact',
        name: 'budget',
        data: budget as unknown as Record<string, unknown>,
        files: [writeRunFile(context, BUDGET_FILE, json(budget))],
      });
      return;
    }
    case 'packetize': {
      const packet = buildPacket(state, context.clock.now().toISOString());
      const files = [
        writeRunFile(context, 'final-packet.json', json(packet)),
        writeRunFile(context, 'final-packet.md', packetMarkdown(packet)),
      ];
      context.append({
        type: 'artifact',
        name: 'final-packet',
        data: packet as unknown as Record<string, unknown>,
        files,
      });
      return;
    }
    case 'writeback': {
      const packet = state.artifacts.find((artifact) => artifact.name === 'final-packet')?.data ?? {};
      const folder = notesFolder(state, context.runDir);
      const packetId = packetRunId(state);
      const note = path.join(folder, `${packetId}.md`);
      const decision = (packet.decision as { selected_option?: string } | undefined)?.selected_option ?? '';
      const budgetData = state.artifacts.find((artifact) => artifact.name === 'budget')?.data;
      const budget = budgetData ? (budgetData as unknown as CouncilBudget) : null;
      context.writeFile(
        note,
        [
          '---',
          'type: decision',
          `run_id: ${state.runId}`,
          // Only a run recorded before the ids were one has a packet id of its own.
          ...(packetId === state.runId ? [] : [`packet_run_id: ${packetId}`]),
          `packet: ${path.join(context.runDir, 'final-packet.json')}`,
          ...(budget ? [`budget: ${path.join(context.runDir, BUDGET_FILE)}`] : []),
          `run_dir: ${context.runDir}`,
          '---',
          '',
          `# Decision: ${decision}`,
          '',
          `Question: ${scenario.topic.trim()}`,
          '',
          `Final packet: ${path.join(context.runDir, 'final-packet.md')}`,
          '',
          ...(budget ? [budgetLine(budget), ''] : []),
        ].join('\n'),
      );
      context.append({ type: 'artifact', name: 'writeback', data: { note }, files: [note] });
      return;
    }
  }
}

/**
 * What the engine adds to a role's answer: a confidence given as a percentage on the 0-1 scale
 * (the given value kept), and in round 2 which role each anonymous label stood for.
 */
function roundAnswerFacts(state: CouncilState, role: DebatingRole, answer: Record<string, unknown>) {
  const facts: Record<string, unknown> = {};
  if (typeof answer.confidence === 'number' && answer.confidence > 1) {
    facts.confidence = normalisedConfidence(answer.confidence);
    facts.confidence_given = answer.confidence;
  }
  if (Array.isArray(answer.challenges)) {
    const labels = peerLabels(state, role);
    const roleOf = new Map(labels.map((item) => [item.label, item.role]));
    facts.peer_labels = Object.fromEntries(labels.map((item) => [item.label, item.role]));
    facts.challenges = (answer.challenges as Array<{ target: string; challenge: string }>).map((item) => ({
      target: item.target,
      target_role: roleOf.get(item.target) ?? item.target,
      challenge: item.challenge,
    }));
  }
  return facts;
}

/**
 * Next actions whose due date is not a real YYYY-MM-DD date keep their place with a default due
 * date a week after the run started; the replaced dates are listed with the decision.
 */
function checkedDueDates(answer: { next_actions: Array<Record<string, string>> }, startedAt: string) {
  const fallback = new Date(Date.parse(startedAt) + 7 * 86_400_000).toISOString().slice(0, 10);
  const valid = (due: string) =>
    finalPacketSchema.shape.next_actions.element.shape.due.safeParse(due).success;
  const replaced = answer.next_actions
    .filter((action) => !valid(action.due ?? ''))
    .map((action) => ({ id: action.id, given: action.due, used: fallback }));
  if (replaced.length === 0) return {};
  return {
    next_actions: answer.next_actions.map((action) =>
      valid(action.due ?? '') ? action : { ...action, due: fallback },
    ),
    replaced_due_dates: replaced,
  };
}

export const councilFormat: FormatDefinition<CouncilState, CouncilStep> = {
  name: 'council',
  fold: foldSequence,
  next: nextCouncilStep,
  execute: executeCouncilStep,
  isFinished: (state) => state.end !== null,
  failures: councilFailures,
  progress: (state) =>
    runProgress(
      'council',
      state,
      COUNCIL_STATES.indexOf(councilStateName(state) as (typeof COUNCIL_STATES)[number]) === -1
        ? COUNCIL_STATES.length
        : COUNCIL_STATES.indexOf(councilStateName(state) as (typeof COUNCIL_STATES)[number]),
      COUNCIL_STATES.length,
      councilFailures(state).length,
    ),
  transcript: councilTranscript,
  markdown: councilMarkdown,
  report: councilReport,
  solutionText: (state) => {
    const packet = state.artifacts.find((artifact) => artifact.name === 'final-packet')?.data;
    return packet ? packetMarkdown(packet as never) : '';
  },
  checkpoints: ['artifact'],
};
