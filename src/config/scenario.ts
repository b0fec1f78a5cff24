/** The scenario as the engine uses it: validated, defaults filled, context files read. */
import type { ConfigIssue } from '../core/errors.js';
import type { CouncilFile, CritiqueFile, DuelFile, FormalFile, KnockoutFile } from './scenario-schema.js';

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
}

export type KnockoutScenario = KnockoutFile & ScenarioExtras;
export type FormalScenario = FormalFile & ScenarioExtras;
export type DuelScenario = DuelFile & ScenarioExtras;
export type CritiqueScenario = CritiqueFile & ScenarioExtras;
export type CouncilScenario = CouncilFile & ScenarioExtras;
export type Scenario = KnockoutScenario | FormalScenario | DuelScenario | CritiqueScenario | CouncilScenario;
