/** The Final Packet, exactly as seed 003 fixes it, and the structured answers of each council state. */
import { z } from 'zod';
import {
  answerJsonSchema,
  boundedList,
  boundedNumber,
  boundedText,
  charsFor,
} from '../../judging/answer-fields.js';

export const finalPacketSchema = z.strictObject({
  // The run's id: `debate_` + date, time and a three-character suffix when Agora names the run
  // (debate_20261123_142530_k3f), otherwise the id given with --run-id or by a batch.
  run_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/),
  mode: z.literal('debate-v0.1'),
  problem: z.string(),
  constraints: z.array(z.string()),
  output_type: z.enum(['decision', 'writing', 'architecture', 'planning', 'evaluation']),
  participants: z.array(
    z.strictObject({
      role: z.enum(['Proponent', 'Critic', 'Analyst', 'Synthesizer', 'Judge']),
      model_provider: z.enum(['openai', 'gemini', 'claude', 'local']),
      model_name: z.string(),
    }),
  ),
  consensus: z.strictObject({
    consensus_score: z.number(),
    confidence_score: z.number(),
    key_agreements: z.array(z.string()),
    key_disagreements: z.array(z.string()),
  }),
  decision: z.strictObject({
    selected_option: z.string(),
    why_selected: z.array(z.string()),
    rejected_options: z.array(z.strictObject({ option: z.string(), reason: z.string() })),
  }),
  risks: z.array(
    z.strictObject({ risk: z.string(), severity: z.enum(['high', 'medium', 'low']), mitigation: z.string() }),
  ),
  next_actions: z
    .array(
      z.strictObject({
        id: z.string(),
        action: z.string(),
        owner: z.string(),
        due: z.iso.date(),
      }),
    )
    .min(1),
  trace: z.strictObject({ round_refs: z.array(z.string()), evidence_refs: z.array(z.string()) }),
  timestamps: z.strictObject({ started_at: z.string(), finished_at: z.string() }),
});

export type FinalPacket = z.infer<typeof finalPacketSchema>;

/** Stances without listed options: towards the proposal the question makes. */
export const PROPOSAL_STANCES = ['for', 'against', 'conditional'] as const;

/**
 * The Judge's choices on a proposal taken or not (a council without listed options), named as the
 * rules name them: the decisions the roles' stances (for, conditional, against) argue for.
 */
export const PROPOSAL_DECISIONS = ['adopt', 'adopt with conditions', 'reject'] as const;

/** The options the Judge selects from: the scenario's, or the decisions on its proposal. */
export function decisionOptions(options: readonly string[] | undefined): readonly string[] {
  return options && options.length > 0 ? options : PROPOSAL_DECISIONS;
}

const stanceOf = (stances: readonly string[]) => z.enum(stances as [string, ...string[]]);
// Asked for as 0-100; a small model may still give 0-1, and both are normalised to 0-1 afterwards.
const confidence = boundedNumber(0, 100);

/** A confidence on the 0-1 scale: values above 1 are read as percentages. */
export function normalisedConfidence(value: number): number {
  return value > 1 ? Math.round(value * 10) / 1000 : value;
}

/** Each text's length, as a share of the role's cap: a constrained answer fits it whole. */
function roleTexts(maxTokens: number) {
  return {
    claim: boundedText(charsFor(maxTokens, 0.1, 200)),
    rationale: boundedText(charsFor(maxTokens, 0.2, 400)),
    revision: boundedText(charsFor(maxTokens, 0.15, 300)),
    risks: boundedList(boundedText(charsFor(maxTokens, 0.05, 120)), ROLE_LIST_MOST),
  };
}

/** Round 1: the reasoning first, then the position it leads to. */
export const openingSchema = (stances: readonly string[], maxTokens: number) => {
  const texts = roleTexts(maxTokens);
  return z.object({
    rationale: texts.rationale,
    claim: texts.claim,
    risks: texts.risks,
    stance: stanceOf(stances),
    confidence,
  });
};

/** Round 2: challenges name the anonymous labels the reviewer was shown. */
export const challengeSchema = (labels: readonly string[], maxTokens: number) => {
  const texts = roleTexts(maxTokens);
  return z.object({
    rationale: texts.rationale,
    claim: texts.claim,
    risks: texts.risks,
    challenges: boundedList(
      z.object({
        target: z.enum(labels as [string, ...string[]]),
        challenge: boundedText(charsFor(maxTokens, 0.06, 240)),
      }),
      ROLE_LIST_MOST,
      1,
    ),
  });
};

/** Round 3: what changed and why first, then the revised position. */
export const revisionSchema = (stances: readonly string[], maxTokens: number) => {
  const texts = roleTexts(maxTokens);
  return z.object({
    revision: texts.revision,
    rationale: texts.rationale,
    claim: texts.claim,
    risks: texts.risks,
    stance: stanceOf(stances),
    confidence,
  });
};

/** How many items each list of the Judge's decision may hold; its prompt states the same counts. */
export const DECISION_LISTS = {
  why_selected: { most: 3, noun: 'reasons for the selection' },
  rejected_options: { most: 3, noun: 'rejected options' },
  risks: { most: 3, noun: 'risks' },
  next_actions: { most: 4, noun: 'next actions' },
} as const;

/**
 * The Judge's decision: the options weighed first, then the selection and its reasons. The
 * selection (and each rejected option) is one of the scenario's options, or of the decisions on
 * its proposal (`decisionOptions`), so a grammar-constrained judge cannot choose what was never
 * offered.
 */
export const decisionSchema = (maxTokens: number, options?: readonly string[]) => {
  const text = (share: number, most: number) => boundedText(charsFor(maxTokens, share, most));
  const choices = decisionOptions(options);
  const option = () => z.enum(choices as [string, ...string[]]);
  return z.object({
    weighing: text(0.1, 600),
    selected_option: option(),
    why_selected: boundedList(text(0.025, 200), DECISION_LISTS.why_selected.most, 1),
    rejected_options: boundedList(
      z.object({ option: option(), reason: text(0.03, 200) }),
      DECISION_LISTS.rejected_options.most,
    ),
    risks: boundedList(
      z.object({
        risk: text(0.025, 160),
        severity: z.enum(['high', 'medium', 'low']),
        mitigation: text(0.025, 160),
      }),
      DECISION_LISTS.risks.most,
    ),
    next_actions: boundedList(
      // The engine numbers the actions (A1, A2, ...): an id is not the model's to choose.
      z.object({
        action: text(0.025, 200),
        owner: text(0.01, 60),
        // Asked for as a date, checked afterwards one action at a time: a bad date must not cost the whole decision.
        due: z.string().meta({ format: 'date', maxLength: 10 }),
      }),
      DECISION_LISTS.next_actions.most,
      1,
    ),
  });
};

/** How many items each list of a role's answer may hold; the roles' prompts state the same count. */
export const ROLE_LIST_MOST = 3;

export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return answerJsonSchema(schema);
}

/** The Final Packet as a JSON Schema (committed as schemas/final-packet.schema.json). */
export function finalPacketJsonSchemaText(): string {
  const schema = z.toJSONSchema(finalPacketSchema) as Record<string, unknown>;
  return `${JSON.stringify({ ...schema, $id: 'https://agora.local/schemas/final-packet.schema.json', title: 'Agora council Final Packet (debate-v0.1)' }, null, 2)}\n`;
}
