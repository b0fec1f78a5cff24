/**
 * Scenario schemas by format. A file names its format with `format:` (knockout when absent) and is
 * checked against that format's strict schema.
 */
import { z } from 'zod';
import { type CouncilFile, councilSchema } from './council-schema.js';
import { type CritiqueFile, critiqueSchema } from './critique-schema.js';
import { type DuelFile, duelSchema } from './duel-schema.js';
import { type FormalFile, formalSchema } from './formal-schema.js';
import { type KnockoutFile, knockoutSchema } from './knockout-schema.js';
import { type TruthFile, truthSchema } from './truth-schema.js';

export { type AgentConfig, agentSchema, type Position, positionSchema } from './knockout-schema.js';
export { type Criterion, DEFAULT_CRITERIA } from './schema-parts.js';

export const FORMAT_SCHEMAS = {
  knockout: knockoutSchema,
  formal: formalSchema,
  duel: duelSchema,
  critique: critiqueSchema,
  council: councilSchema,
  truth: truthSchema,
} as const;
export type FormatName = keyof typeof FORMAT_SCHEMAS;
export const FORMAT_NAMES = Object.keys(FORMAT_SCHEMAS) as FormatName[];

/** Every format's schema at once, for the committed JSON Schema that editors use. */
export const scenarioSchema = z.union([
  knockoutSchema,
  formalSchema,
  duelSchema,
  critiqueSchema,
  councilSchema,
  truthSchema,
]);

export type ScenarioFile = KnockoutFile | FormalFile | DuelFile | CritiqueFile | CouncilFile | TruthFile;
export type { CouncilFile, CritiqueFile, DuelFile, FormalFile, KnockoutFile, TruthFile };
