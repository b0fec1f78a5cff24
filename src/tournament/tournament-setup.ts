/**
 * Starting a tournament's log, or taking up the one in its folder: a new tournament writes what was
 * asked and its first matches; an existing one is read back, and the same command continues it only
 * when it asks for the same tournament.
 */
import { UsageError } from '../core/errors.js';
import {
  foldTournament,
  holdsTournament,
  readTournamentLog,
  TournamentLog,
  type TournamentState,
  tournamentLogFile,
} from './tournament-log.js';
import type { PlannedMatch, TournamentSpec } from './tournament-plan.js';

export interface TournamentRequest {
  id: string;
  spec: TournamentSpec;
  motionsFile: string;
  simulated: boolean;
  notices: string[];
  /** The shared database the debates go to (its password left out), when they are queued. */
  database?: string;
  /** The matches to plan first: the whole round-robin, or an adaptive schedule's first batch. */
  firstMatches: (spec: TournamentSpec, id: string) => PlannedMatch[];
}

/** The tournament in `folder` as its log tells it. */
export function loadTournament(folder: string): TournamentState {
  const { entries } = readTournamentLog(folder);
  return foldTournament(entries, tournamentLogFile(folder));
}

/** Opens the folder's log for this process: the existing tournament's, or a new one's written now. */
export function openTournament(
  folder: string,
  request: TournamentRequest | null,
): { state: TournamentState; log: TournamentLog; resumed: boolean } {
  if (holdsTournament(folder)) {
    const state = loadTournament(folder);
    if (request && JSON.stringify(state.start.spec) !== JSON.stringify(request.spec)) {
      throw new UsageError(
        `${folder} holds another tournament (${state.start.id}: ${state.start.spec.models.join(', ')} on ${state.start.motionsFile}); continue it with \`agora tournament --resume ${folder}\`, or give this one another --out`,
      );
    }
    if (request && state.start.simulated !== request.simulated) {
      throw new UsageError(
        `${folder} holds a tournament that ran ${state.start.simulated ? 'on the built-in simulator (--demo)' : 'on real hosts'}; run it the same way, or give this one another --out`,
      );
    }
    return { state, log: TournamentLog.open(folder), resumed: true };
  }
  if (!request) throw new UsageError(`${folder} holds no tournament (no tournament.jsonl there)`);
  const log = TournamentLog.open(folder);
  const at = new Date().toISOString();
  const start = {
    type: 'tournament-start' as const,
    at,
    id: request.id,
    spec: request.spec,
    motionsFile: request.motionsFile,
    simulated: request.simulated,
    notices: request.notices,
    ...(request.database ? { database: request.database } : {}),
  };
  log.append(start);
  const matches = request.firstMatches(request.spec, request.id);
  log.append({ type: 'matches-planned', at, matches });
  return {
    state: { start, planned: [...matches], started: new Set(), queued: new Set(), ended: new Map() },
    log,
    resumed: false,
  };
}
