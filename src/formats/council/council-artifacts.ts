/** The council's deterministic states: Intake, Consensus, Packetize and Writeback, and their files. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { StepContext } from '../format-definition.js';
import { type CallRecord, tokenUsage } from '../shared/token-usage.js';
import { type CouncilState, DEBATING_ROLES } from './council-prompts.js';
import { type FinalPacket, finalPacketSchema } from './packet-schema.js';

/** The budget and what the run used, beside the Final Packet (whose fixed schema has no place for it). */
export const BUDGET_FILE = 'budget.json';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function writeRunFile(context: StepContext, relative: string, content: string): string {
  context.writeFile(path.join(context.runDir, relative), content);
  return relative;
}

export function intake(state: CouncilState) {
  const { scenario } = state;
  return {
    problem: scenario.topic.trim(),
    constraints: scenario.constraints,
    output_type: scenario.output_type,
    run_id: state.runId,
    started_at: state.startedAt,
    participants: Object.fromEntries(
      Object.entries(scenario.participants).map(([role, participant]) => [role, participant.model]),
    ),
  };
}

/** What calls cost, as the run's token table counts it: every attempt, as the server counted. */
function callUsage(records: CallRecord[]) {
  const { run } = tokenUsage(records);
  return { output_tokens: run.outputTokens, prompt_tokens: run.promptTokens, model_calls: run.calls };
}

export function roundFile(state: CouncilState, round: number) {
  const answers = state.assessments
    .filter((item) => item.phase === `round-${round}`)
    .sort((a, b) => DEBATING_ROLES.indexOf(a.judge as never) - DEBATING_ROLES.indexOf(b.judge as never));
  return {
    round: `round-${round}`,
    outputs: answers.map((item) => ({
      role: item.judge,
      model: item.model,
      ...(item.fallbackFrom ? { fallback_from: item.fallbackFrom } : {}),
      abstained: item.abstained,
      reason: item.reason ?? null,
      ...item.result,
      usage: callUsage([item]),
    })),
    // The round's share of the run's budget (budget.json has the whole run's).
    usage: callUsage(answers),
  };
}

/**
 * Consensus from the revised positions: the share of roles on the majority stance, their mean
 * confidence, the majority's claims as agreements and the others' claims and open challenges as
 * disagreements. Computed, not asked of a model, so it is the same on every replay.
 */
export function consensus(state: CouncilState) {
  const finals = DEBATING_ROLES.map(
    (role) =>
      state.assessments.find((item) => item.phase === 'round-3' && item.judge === role && item.result)
        ?.result ??
      state.assessments.find((item) => item.phase === 'round-1' && item.judge === role && item.result)
        ?.result,
  ).filter((result): result is Record<string, unknown> => result !== undefined);
  const counts = new Map<string, number>();
  for (const result of finals)
    counts.set(String(result.stance), (counts.get(String(result.stance)) ?? 0) + 1);
  const [majority] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? [''];
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  const confidences = finals
    .map((result) => Number(result.confidence))
    .filter((value) => Number.isFinite(value));
  const challenges = state.assessments
    .filter((item) => item.phase === 'round-2' && item.result)
    .sort((a, b) => DEBATING_ROLES.indexOf(a.judge as never) - DEBATING_ROLES.indexOf(b.judge as never))
    .flatMap((item) =>
      ((item.result?.challenges as Array<{ target_role: string; challenge: string }>) ?? []).map(
        (challenge) => `${item.judge} to ${challenge.target_role}: ${challenge.challenge}`,
      ),
    );
  return {
    consensus_score: finals.length === 0 ? 0 : round3((counts.get(majority) ?? 0) / finals.length),
    confidence_score:
      confidences.length === 0
        ? 0
        : round3(confidences.reduce((sum, value) => sum + value, 0) / confidences.length),
    majority_stance: majority || null,
    key_agreements: finals
      .filter((result) => result.stance === majority)
      .map((result) => String(result.claim)),
    key_disagreements: [
      ...finals.filter((result) => result.stance !== majority).map((result) => String(result.claim)),
      ...challenges.slice(0, 5),
    ],
    roles_answered: finals.length,
  };
}

/**
 * The id the packet, the decision record and the run index carry: the run's own id, which also
 * names its folder. Runs recorded before the two were one keep the packet id they were given: read
 * from their packet, or, when they stopped before it, derived as it was then (from the start time
 * and a hash of the folder's id). A new run's intake records `packet_run_id`, which tells them apart.
 */
export function packetRunId(state: CouncilState): string {
  const written = state.artifacts.find((artifact) => artifact.name === 'final-packet')?.data.run_id;
  if (typeof written === 'string') return written;
  const intakeData = state.artifacts.find((artifact) => artifact.name === 'intake')?.data;
  if (intakeData && typeof intakeData.packet_run_id !== 'string') return legacyPacketRunId(state);
  return state.runId;
}

function legacyPacketRunId(state: CouncilState): string {
  const stamp = state.startedAt.replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  return `debate_${stamp}_${createHash('sha256').update(state.runId).digest('hex').slice(0, 3)}`;
}

export function buildPacket(state: CouncilState, finishedAt: string): FinalPacket {
  const { scenario } = state;
  const agreed = state.artifacts.find((artifact) => artifact.name === 'consensus')?.data ?? consensus(state);
  const decision = state.assessments.find((item) => item.phase === 'decision')?.result;
  const fallbackDue = new Date(Date.parse(state.startedAt) + 7 * 86_400_000).toISOString().slice(0, 10);
  const cutArtifact = state.artifacts.find((artifact) => artifact.name === 'budget-cut');
  const cut = cutArtifact ? (cutArtifact.data as { reason: string; states: string[] }) : null;
  const judgeCut = cut?.states.includes('Judge') === true;
  const failedRoles = state.assessments.filter((item) => item.abstained);
  const degraded = {
    selected_option: judgeCut
      ? 'No decision: the budget ran out before the Judge'
      : 'No decision: the Judge gave no usable answer',
    why_selected: [
      judgeCut
        ? `The run's budget ran out (${cut?.reason}); the states that ran are kept.`
        : 'The Judge failed; see the run log. The rounds and the consensus are kept.',
    ],
    rejected_options: [],
    risks: [
      {
        risk: 'The decision is missing',
        severity: 'high' as const,
        mitigation: 'Resume or re-run the council when the Judge model is available',
      },
    ],
    next_actions: [
      {
        id: 'A1',
        action: 'Re-run the council when the Judge model is available',
        owner: 'operator',
        due: fallbackDue,
      },
    ],
  };
  const made = (decision ?? degraded) as typeof degraded;
  // What failed or was cut is stated in the packet itself, as risks of the decision.
  const failureRisks = [
    ...(cut
      ? [
          {
            risk: `States cut by the budget: ${cut.states.join(', ')} (${cut.reason})`,
            severity: 'high' as const,
            mitigation:
              'Raise stop.max_total_output_tokens or stop.max_runtime_seconds and run the council again',
          },
        ]
      : []),
    ...(Array.isArray(decision?.replaced_due_dates) && decision.replaced_due_dates.length > 0
      ? [
          {
            risk: `Due dates the Judge gave were not dates and were replaced: ${(
              decision.replaced_due_dates as Array<{ id: string; given: string; used: string }>
            )
              .map((item) => `${item.id} "${item.given}" set to ${item.used}`)
              .join(', ')}`,
            severity: 'low' as const,
            mitigation: 'Set the real due dates of those actions',
          },
        ]
      : []),
    ...(failedRoles.length > 0
      ? [
          {
            risk: `Roles without an answer: ${failedRoles.map((item) => `${item.judge} in ${item.phase}`).join(', ')}`,
            severity: 'medium' as const,
            mitigation: 'Check those models and run the council again',
          },
        ]
      : []),
  ];
  const roles = ['Proponent', 'Critic', 'Analyst', 'Synthesizer', 'Judge'] as const;
  const packet: FinalPacket = {
    run_id: packetRunId(state),
    mode: 'debate-v0.1',
    problem: scenario.topic.trim(),
    constraints: scenario.constraints,
    output_type: scenario.output_type,
    participants: roles.map((role) => ({
      role,
      model_provider: 'local',
      model_name: scenario.participants[role.toLowerCase() as keyof typeof scenario.participants].model,
    })),
    consensus: {
      consensus_score: Number(agreed.consensus_score),
      confidence_score: Number(agreed.confidence_score),
      key_agreements: agreed.key_agreements as string[],
      key_disagreements: agreed.key_disagreements as string[],
    },
    decision: {
      selected_option: made.selected_option,
      why_selected: made.why_selected,
      rejected_options: made.rejected_options,
    },
    risks: [...failureRisks, ...made.risks],
    next_actions: made.next_actions,
    trace: {
      round_refs: ['round-1', 'round-2', 'round-3'],
      evidence_refs: [
        'request.json',
        'rounds/round-1.json',
        'rounds/round-2.json',
        'rounds/round-3.json',
        'consensus.json',
        // Only a run that recorded its budget has the file (see council-budget.ts).
        ...(state.artifacts.some((artifact) => artifact.name === 'budget') ? [BUDGET_FILE] : []),
        'events.jsonl',
        `agora-run:${state.runId}`,
      ],
    },
    timestamps: { started_at: state.startedAt, finished_at: finishedAt },
  };
  return finalPacketSchema.parse(packet);
}

export function packetMarkdown(packet: FinalPacket): string {
  const list = (items: string[]) =>
    items.length > 0 ? items.map((item) => `- ${item}`).join('\n') : '- (none)';
  return [
    `# ${packet.problem}`,
    '',
    `Run \`${packet.run_id}\` (${packet.mode}), output type ${packet.output_type}.`,
    '',
    '## Decision',
    '',
    `**${packet.decision.selected_option}**`,
    '',
    list(packet.decision.why_selected),
    '',
    '### Rejected options',
    '',
    list(packet.decision.rejected_options.map((item) => `${item.option}: ${item.reason}`)),
    '',
    '## Consensus',
    '',
    `Consensus ${packet.consensus.consensus_score}, confidence ${packet.consensus.confidence_score}.`,
    '',
    '### Agreements',
    list(packet.consensus.key_agreements),
    '',
    '### Disagreements',
    list(packet.consensus.key_disagreements),
    '',
    '## Risks',
    '',
    list(packet.risks.map((item) => `(${item.severity}) ${item.risk} — ${item.mitigation}`)),
    '',
    '## Next actions',
    '',
    '| id | action | owner | due |',
    '| --- | --- | --- | --- |',
    ...packet.next_actions.map((item) => `| ${item.id} | ${item.action} | ${item.owner} | ${item.due} |`),
    '',
    '## Participants',
    '',
    list(packet.participants.map((item) => `${item.role}: ${item.model_name} (${item.model_provider})`)),
    '',
  ].join('\n');
}

export { json };
