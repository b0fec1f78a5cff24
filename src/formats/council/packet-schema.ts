/** The Final Packet, exactly as seed 003 fixes it, and the structured answers of each council state. */
import { z } from 'zod';

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

const stanceOf = (stances: readonly string[]) => z.enum(stances as [string, ...string[]]);
// A small model often gives a percentage; 0-100 is accepted and normalised to 0-1 afterwards.
const confidence = z.number().min(0).max(100);

/** A confidence on the 0-1 scale: values above 1 are read as percentages. */
export function normalisedConfidence(value: number): number {
  return value > 1 ? Math.round(value * 10) / 1000 : value;
}

export const openingSchema = (stances: readonly string[]) =>
  z.object({
    claim: z.string().min(1),
    rationale: z.string().min(1),
    risks: z.array(z.string()),
    stance: stanceOf(stances),
    confidence,
  });

/** Round 2: challenges name the anonymous labels the reviewer was shown. */
export const challengeSchema = (labels: readonly string[]) =>
  z.object({
    claim: z.string().min(1),
    rationale: z.string().min(1),
    risks: z.array(z.string()),
    challenges: z
      .array(z.object({ target: z.enum(labels as [string, ...string[]]), challenge: z.string().min(1) }))
      .min(1),
  });

export const revisionSchema = (stances: readonly string[]) =>
  z.object({
    claim: z.string().min(1),
    revision: z.string().min(1),
    rationale: z.string().min(1),
    risks: z.array(z.string()),
    stance: stanceOf(stances),
    confidence,
  });

export const decisionSchema = z.object({
  selected_option: z.string().min(1),
  why_selected: z.array(z.string().min(1)).min(1),
  rejected_options: z.array(z.object({ option: z.string().min(1), reason: z.string().min(1) })),
  risks: z.array(
    z.object({
      risk: z.string().min(1),
      severity: z.enum(['high', 'medium', 'low']),
      mitigation: z.string().min(1),
    }),
  ),
  next_actions: z
    .array(
      z.object({
        id: z.string().min(1),
        action: z.string().min(1),
        owner: z.string().min(1),
        // Asked for as a date, checked afterwards one action at a time: a bad date must not cost the whole decision.
        due: z.string().meta({ format: 'date' }),
      }),
    )
    .min(1),
});

export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

/** The Final Packet as a JSON Schema (committed as schemas/final-packet.schema.json). */
export function finalPacketJsonSchemaText(): string {
  const schema = z.toJSONSchema(finalPacketSchema) as Record<string, unknown>;
  return `${JSON.stringify({ ...schema, $id: 'https://agora.local/schemas/final-packet.schema.json', title: 'Agora council Final Packet (debate-v0.1)' }, null, 2)}\n`;
}
