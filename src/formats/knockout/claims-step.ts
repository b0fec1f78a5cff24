/** The claims step: the claims of one statement into the ledger. */
import {
  claimsAnswerSchema,
  claimsJsonSchema,
  heuristicClaims,
  settledClaimKinds,
  verifiedClaims,
} from '../../agents/claim-extraction.js';
import { recordedTokens } from '../../llm/call-usage.js';
import { retryPolicyOf } from '../../llm/safe-call.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import type { StepContext } from '../format-definition.js';
import { askStructured } from '../shared/structured-call.js';
import { fallbacksOf } from './model-call.js';
import type { KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';

/** The claims of one statement into the ledger: a small structured call, or key sentences. */
export async function extractClaims(
  step: Extract<KnockoutStep, { kind: 'claims' }>,
  state: KnockoutState,
  context: StepContext,
) {
  const statement = state.rounds
    .find((round) => round.number === step.round)
    ?.statements.find((item) => item.agent === step.agent);
  const base = {
    type: 'claims' as const,
    round: step.round,
    agent: step.agent,
    position: step.position,
  };
  // The side's earlier claims settle each new claim's kind (see settledClaimKinds).
  const sideClaims = state.ledger.filter((claim) => claim.position === step.position);
  const heuristic = (reason?: string) => ({
    ...base,
    source: 'heuristic' as const,
    claims: settledClaimKinds(heuristicClaims(statement?.text ?? ''), sideClaims),
    promptTokens: 0,
    promptChars: 0,
    outputTokens: 0,
    realMs: 0,
    attempts: 0,
    ...(reason ? { reason } : {}),
  });
  if (step.mode === 'heuristic') {
    context.append(heuristic());
    return;
  }
  const { scenario } = state;
  const started = context.clock.monotonicMs();
  const cap = scenario.memory.claims_max_tokens;
  const outcome = await askStructured(
    {
      what: `the claims of ${step.agent}`,
      model: step.model,
      fallbackModels: fallbacksOf(state, step.model),
      messages: step.messages,
      schema: claimsAnswerSchema(step.answerIds, cap),
      jsonSchema: claimsJsonSchema(step.answerIds, cap),
      maxTokens: cap,
      contextWindow: scenario.model_options.context_window,
      temperature: 0.1,
      seedOf: (attempt) =>
        derivedSeed(
          scenario.seed,
          `claims:round-${step.round}:${step.agent}${attempt > 1 ? `:attempt-${attempt}` : ''}`,
        ),
      policy: retryPolicyOf(scenario.reliability),
      marginTokens: scenario.context.margin_tokens,
    },
    context,
  );
  const measured = {
    model: outcome.model,
    ...recordedTokens(outcome.usage),
    realMs: Math.round(context.clock.monotonicMs() - started),
    attempts: outcome.attempts,
    ...(outcome.problems.length > 0 ? { problems: outcome.problems } : {}),
  };
  if (outcome.value) {
    const verified = verifiedClaims(outcome.value, statement?.text ?? '');
    const { unverified, near } = verified;
    const claims = settledClaimKinds(verified.claims, sideClaims);
    if (unverified > 0) {
      context.logger.warn(
        { agent: step.agent, round: step.round, unverified },
        'claims not found in the statement were dropped',
      );
    }
    const counted = {
      ...(unverified > 0 ? { unverified } : {}),
      ...(near > 0 ? { nearMatched: near } : {}),
    };
    if (claims.length > 0) {
      context.append({ ...base, source: 'model', claims, ...measured, ...counted });
      return;
    }
    // An answer that leaves the statement no claim (every quote dropped, or none given): its key
    // sentences stand in, as for a failed call, so the statement still counts in memory and the map.
    const reason =
      unverified > 0
        ? `no quote of the answer was in the statement (${unverified} dropped)`
        : 'the answer listed no claim';
    context.logger.warn(
      { agent: step.agent, round: step.round, reason },
      'claims extraction fell back to key sentences',
    );
    context.append({ ...heuristic(reason), ...measured, ...counted });
    return;
  }
  // An unusable answer or a failed call still leaves the ledger something to go on; the event says so.
  const reason = outcome.callFailed
    ? `the extraction call failed: ${outcome.callFailed}`
    : (outcome.reason ?? 'unusable answer');
  context.logger.warn(
    { agent: step.agent, round: step.round, reason },
    'claims extraction fell back to key sentences',
  );
  context.append({ ...heuristic(reason), ...measured });
}
