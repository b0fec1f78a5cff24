/**
 * The run index's rows for one run, derived from its event log alone, so that rebuilding the
 * index from the logs gives exactly the same rows.
 */
import type { Scenario } from '../config/scenario.js';
import { isSimulated, type RunEvent } from '../core/events.js';
import { PERSON_MODEL, seatModel } from '../core/person-seat.js';
import type { RunProgress } from '../core/run-progress.js';
import { answerCheckRow } from './answer-check-rows.js';
import type { Row } from './index-row.js';

export interface IndexRows {
  run: Row;
  turns: Row[];
  evaluations: Row[];
  judgements: Row[];
  rotations: Row[];
  rounds: Row[];
  councilTurns: Row[];
  actions: Row[];
  /** A council's outcome: its packet id, consensus and confidence scores and the selected option. */
  councilDecisions: Row[];
  /** Every structured answer asked of a model, and how usable it was. */
  answerChecks: Row[];
}

function modelsOf(scenario: Scenario): string[] {
  switch (scenario.format) {
    case 'knockout':
      // A person's seat speaks as `person`; a Position Y seat's model still judges the other rounds.
      return scenario.agents.flatMap((agent) =>
        agent.human === true && agent.position === 'Y' ? [PERSON_MODEL, agent.model] : [seatModel(agent)],
      );
    case 'formal':
      return (scenario.debaters ?? []).map(seatModel);
    case 'duel':
    case 'truth':
      return [seatModel(scenario.debaters.a), seatModel(scenario.debaters.b), scenario.judge.model];
    case 'critique':
      return [...scenario.agents.map((agent) => agent.model), scenario.judge.model];
    case 'council':
      return Object.values(scenario.participants).map((participant) => participant.model);
  }
}

/** Who a knockout agent is: its position and the model it speaks as (`person` for a person), by name. */
function agentInfo(scenario: Scenario): Map<string, { position: string; model: string }> {
  const info = new Map<string, { position: string; model: string }>();
  if (scenario.format === 'knockout') {
    for (const agent of scenario.agents)
      info.set(agent.name, { position: agent.position, model: seatModel(agent) });
  }
  return info;
}

export function indexRows(
  events: readonly RunEvent[],
  progress: RunProgress,
  runDir: string,
  batchId: string | null,
  /** How the run came out, in one line (see formats/outcome-line.ts). */
  outcome: string | null = null,
): IndexRows {
  const start = events[0];
  if (start?.type !== 'run-start') throw new Error('a run log must begin with run-start');
  const scenario = start.scenario;
  const runId = start.runId;
  const end = [...events].reverse().find((event) => event.type === 'run-end');
  const bool = (value: boolean | undefined) => (value ? 1 : 0);
  const turns: Row[] = [];
  const evaluations: Row[] = [];
  const judgements: Row[] = [];
  const rotations: Row[] = [];
  const rounds: Row[] = [];
  const councilTurns: Row[] = [];
  const actions: Row[] = [];
  const answerChecks: Row[] = [];
  let councilDecision: Row | null = null;
  const xModel =
    scenario.format === 'knockout'
      ? (() => {
          const x = scenario.agents.find((agent) => agent.position === 'X');
          return x ? seatModel(x) : null;
        })()
      : null;
  const sideModels = new Map<string, string>();
  const debaterOfRound = new Map<number, string>();
  const agents = agentInfo(scenario);
  let promptTokens = 0;
  let outputTokens = 0;
  let modelCalls = 0;
  let activeMs = 0;
  let last = start.at;
  for (const event of events) {
    if (event.type !== 'run-resume') activeMs += Math.max(0, Date.parse(event.at) - Date.parse(last));
    last = event.at;
    const check = answerCheckRow(runId, event, scenario.format);
    if (check) answerChecks.push(check);
    switch (event.type) {
      case 'turn-end':
        if (event.position === 'Y') debaterOfRound.set(event.round, event.agent);
        turns.push({
          run_id: runId,
          seq: event.seq,
          round: event.round,
          phase: 'turn',
          agent: event.agent,
          position: event.position,
          model: event.model,
          prompt_tokens: event.promptTokens,
          output_tokens: event.outputTokens,
          simulated_seconds: event.simulatedSeconds,
          truncated: bool(event.truncated),
          degraded: bool(event.degraded),
          fallback_from: event.fallbackFrom ?? null,
        });
        break;
      case 'statement':
        if (!sideModels.has(event.side)) sideModels.set(event.side, event.model);
        turns.push({
          run_id: runId,
          seq: event.seq,
          round: event.round,
          phase: event.phase,
          agent: event.speaker,
          position: event.side,
          model: event.model,
          prompt_tokens: event.promptTokens,
          output_tokens: event.outputTokens,
          simulated_seconds: null,
          truncated: bool(event.truncated),
          degraded: bool(event.degraded),
          fallback_from: event.fallbackFrom ?? null,
        });
        break;
      case 'vote-cast': {
        const subject = debaterOfRound.get(event.round) ?? null;
        evaluations.push({
          run_id: runId,
          seq: event.seq,
          round: event.round,
          judge: event.judge,
          judge_model: event.model,
          subject,
          subject_model: subject ? (agents.get(subject)?.model ?? null) : null,
          scores: event.evaluation ? JSON.stringify(event.evaluation.position_y_performance) : null,
          weighted_total: event.evaluation?.total_score ?? null,
          vote: event.evaluation ? (event.evaluation.continue_vote ? 'continue' : 'rotate') : null,
          new_arguments:
            event.evaluation?.new_arguments === undefined ? null : bool(event.evaluation.new_arguments),
          abstained: bool(event.abstained),
        });
        break;
      }
      case 'artifact':
        if (event.name === 'consensus' || event.name === 'final-packet') {
          councilDecision = { ...(councilDecision ?? emptyDecision(runId)), ...decisionFields(event) };
        }
        if (event.name === 'writeback' && councilDecision && typeof event.data.note === 'string') {
          councilDecision.decision_record = event.data.note;
        }
        if (event.name === 'final-packet') {
          for (const action of (event.data.next_actions as Array<Record<string, string>> | undefined) ?? []) {
            // A packet written before the engine numbered its actions may repeat an id: the first stands.
            if (actions.some((row) => row.id === (action.id ?? ''))) continue;
            actions.push({
              run_id: runId,
              id: action.id ?? '',
              action: action.action ?? '',
              owner: action.owner ?? '',
              due: action.due ?? '',
              status: 'open',
            });
          }
        }
        break;
      case 'assessment': {
        const result = event.result ?? {};
        if (event.phase.startsWith('round-')) {
          councilTurns.push({
            run_id: runId,
            seq: event.seq,
            round: event.round,
            role: event.judge,
            model: event.model,
            claim: typeof result.claim === 'string' ? result.claim : null,
            challenges: Array.isArray(result.challenges) ? JSON.stringify(result.challenges) : null,
            revision: typeof result.revision === 'string' ? result.revision : null,
            stance: typeof result.stance === 'string' ? result.stance : null,
            abstained: bool(event.abstained),
          });
          break;
        }
        judgements.push({
          run_id: runId,
          seq: event.seq,
          round: event.round,
          phase: event.phase,
          judge: event.judge,
          judge_model: event.model,
          winner:
            typeof result.stronger === 'string'
              ? result.stronger
              : typeof result.winner === 'string'
                ? result.winner
                : null,
          no_new_arguments:
            typeof result.no_new_arguments === 'boolean' ? bool(result.no_new_arguments) : null,
          abstained: bool(event.abstained),
          result: event.result ? JSON.stringify(event.result) : null,
          // Filled in below, once every statement has been seen.
          a_model: null,
          b_model: null,
        });
        break;
      }
      case 'round-end':
        rounds.push({
          run_id: runId,
          round: event.round,
          debater: event.debater,
          debater_model: agents.get(event.debater)?.model ?? null,
          x_model: xModel,
          decision: event.tally.decision,
          decided_by: event.tally.decidedBy,
          outcome: event.outcome,
          rotate_votes: event.tally.rotateVotes,
          continue_votes: event.tally.continueVotes,
          abstentions: event.tally.abstentions,
          mean_score: event.tally.meanScore,
        });
        if (event.rotation) {
          rotations.push({
            run_id: runId,
            after_round: event.round,
            from_agent: event.rotation.from,
            to_agent: event.rotation.to,
            rotate_votes: event.tally.rotateVotes,
          });
        }
        break;
      default:
        break;
    }
    if ('promptTokens' in event && typeof event.promptTokens === 'number') promptTokens += event.promptTokens;
    if ('outputTokens' in event && typeof event.outputTokens === 'number') outputTokens += event.outputTokens;
    if ('attempts' in event && typeof event.attempts === 'number') modelCalls += event.attempts;
    else if (event.type === 'summary') modelCalls += 1;
  }
  // The models behind each side: a/b in a duel, affirmative/negative in a formal debate. A truth
  // verdict is no match between its debaters' models (it names an answer), so it names none.
  for (const judgement of scenario.format === 'truth' ? [] : judgements) {
    judgement.a_model = sideModels.get('a') ?? sideModels.get('affirmative') ?? null;
    judgement.b_model = sideModels.get('b') ?? sideModels.get('negative') ?? null;
  }
  return {
    run: {
      run_id: runId,
      run_dir: runDir,
      batch_id: batchId,
      scenario_file: scenario.file,
      format: scenario.format,
      topic: scenario.topic,
      seed: scenario.seed,
      models: [...new Set(modelsOf(scenario))].sort().join(','),
      status: progress.status,
      stop_reason: progress.stopReason,
      error: end?.type === 'run-end' ? (end.error ?? null) : null,
      started_at: start.at,
      updated_at: events.at(-1)?.at ?? start.at,
      active_ms: activeMs,
      prompt_tokens: promptTokens,
      output_tokens: outputTokens,
      model_calls: modelCalls,
      done: progress.done,
      total: progress.total,
      // A step that stopped the run (a prompt no window holds, exit 3) failed too, though it left
      // no record of its own.
      failed_steps:
        progress.failedSteps +
        (end?.type === 'run-end' && end.status === 'failed' && end.stopReason === 'error' ? 1 : 0),
      outcome,
      simulated: bool(isSimulated(events)),
    },
    turns,
    evaluations,
    judgements,
    rotations,
    rounds,
    councilTurns,
    actions,
    councilDecisions: councilDecision ? [councilDecision] : [],
    answerChecks,
  };
}

function emptyDecision(runId: string): Row {
  return {
    run_id: runId,
    packet_run_id: null,
    consensus_score: null,
    confidence_score: null,
    majority_stance: null,
    selected_option: null,
    finished_at: null,
    decision_record: null,
  };
}

/** The consensus artifact gives the scores; the packet, once written, gives its id and the decision. */
function decisionFields(event: { name: string; data: Record<string, unknown> }): Row {
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  if (event.name === 'consensus') {
    return {
      consensus_score: number(event.data.consensus_score),
      confidence_score: number(event.data.confidence_score),
      majority_stance: text(event.data.majority_stance),
    };
  }
  const consensus = (event.data.consensus ?? {}) as Record<string, unknown>;
  const decision = (event.data.decision ?? {}) as Record<string, unknown>;
  const timestamps = (event.data.timestamps ?? {}) as Record<string, unknown>;
  return {
    packet_run_id: text(event.data.run_id),
    consensus_score: number(consensus.consensus_score),
    confidence_score: number(consensus.confidence_score),
    selected_option: text(decision.selected_option),
    finished_at: text(timestamps.finished_at),
  };
}
