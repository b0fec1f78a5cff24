/** The scenario as the engine uses it: validated, defaults filled, context files read. */
import type { ConfigIssue } from '../core/errors.js';
import type { ScenarioFile } from './scenario-schema.js';

export interface ContextFile {
  /** Path relative to the scenario's folder. */
  path: string;
  content: string;
}

export interface Scenario extends ScenarioFile {
  /** Absolute path of the scenario file (or a label for built-in scenarios). */
  file: string;
  contextFiles: ContextFile[];
  /** Valid but unusual values, to show the user. */
  warnings: ConfigIssue[];
}
