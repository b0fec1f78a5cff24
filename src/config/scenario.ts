/** The scenario as the engine uses it: validated, defaults filled, context files read. */
import type { ConfigIssue } from '../core/errors.js';
import type {
  CouncilFile,
  CritiqueFile,
  DuelFile,
  FormalFile,
  KnockoutFile,
  TruthFile,
} from './scenario-schema.js';

export interface ContextFile {
  /** Path relative to the scenario's folder. */
  path: string;
  content: string;
}

export interface ScenarioExtras {
  /** Absolute path of the scenario file (or a label for scenarios built from flags). */
  file: string;
  contextFiles: ContextFile[];
  /** Valid but unusual values, to show the user. */
  warnings: ConfigIssue[];
  /**
   * Set when neither the file nor `--seed` gave a seed: a new run draws a fresh one and records it
   * (then `seed` is that draw); until then `seed` holds a batch's base seed. Absent: the seed was given.
   */
  randomSeed?: true;
}

/** A loaded scenario always has a number for its seed, given or drawn. */
type Seeded<T> = Omit<T, 'seed'> & { seed: number };

export type KnockoutScenario = Seeded<KnockoutFile> & ScenarioExtras;
export type FormalScenario = Seeded<FormalFile> & ScenarioExtras;
export type DuelScenario = Seeded<DuelFile> & ScenarioExtras;
export type CritiqueScenario = Seeded<CritiqueFile> & ScenarioExtras;
export type CouncilScenario = Seeded<CouncilFile> & ScenarioExtras;
export type TruthScenario = Seeded<TruthFile> & ScenarioExtras;
export type Scenario =
  | KnockoutScenario
  | FormalScenario
  | DuelScenario
  | CritiqueScenario
  | CouncilScenario
  | TruthScenario;

// The run-start event records a Scenario: the core, which knows no schema, takes the type from here.
declare module '../core/events.js' {
  interface RecordedScenarioType {
    scenario: Scenario;
  }
}
