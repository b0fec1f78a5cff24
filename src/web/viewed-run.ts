/** A run as the viewer holds it: its events folded by its format, with the spectators' votes beside them. */
import type { Scenario } from '../config/scenario.js';
import type { RunEvent } from '../core/events.js';
import type { RunProgress } from '../core/run-progress.js';
import type { AnyFormat } from '../formats/format-definition.js';
import type { SpectatorVote } from '../store/spectator-votes.js';

export interface RunView {
  runId: string;
  events: RunEvent[];
  scenario: Scenario | undefined;
  format: AnyFormat | undefined;
  progress: RunProgress | null;
  spectators: SpectatorVote[];
  /** A process holds the run's lock: it is running now. */
  live: boolean;
}
