/**
 * The blind arena for one run: the question a person answers (which side had the better of the
 * debate, or a tie), whether it can be answered yet, the votes cast, this browser's own vote, and
 * what is revealed after it: who spoke for each side on which model, and the judges' verdicts.
 */
import type { Context } from 'hono';
import {
  type DebateSide,
  debateSides,
  type JudgeVerdict,
  judgeVerdicts,
  TIE,
} from '../analytics/debate-sides.js';
import type { RunEvent } from '../core/events.js';
import { type ArenaVote, readArenaVotes, readNamesSeen } from '../store/arena-votes.js';
import { cookie, type ViewerEnv } from './request-guards.js';
import { statusOf } from './run-view.js';
import type { RunView } from './viewed-run.js';

export const VOTER_COOKIE = 'agora_voter';
const VOTER_ID = /^[A-Za-z0-9_-]{16,64}$/;

export interface ArenaState {
  runId: string;
  /** The answers a person can give: each side by its label, then a tie. */
  choices: Array<{ key: string; label: string }>;
  /** Who spoke for each side, on which model: shown only once this browser has voted. */
  sides: DebateSide[];
  votes: ArenaVote[];
  /** This browser's vote on the run, if it cast one. */
  mine: ArenaVote | undefined;
  /** This browser saw the debate's names (run page, export, data) before any vote of its own: it cannot vote blind. */
  seen: boolean;
  /** The debate has ended (completed, or degraded but run to its end with both sides heard): votes can be cast. */
  open: boolean;
  verdicts: JudgeVerdict[];
}

/** The anonymous id this browser votes under, from its cookie; undefined when it has none yet. */
export function voterOf(c: Context<ViewerEnv>): string | undefined {
  const given = cookie(c, VOTER_COOKIE);
  return given !== undefined && VOTER_ID.test(given) ? given : undefined;
}

export const TIE_LABEL = 'A tie: neither had the better of it';

/**
 * Whether both sides of a debate said something of their own: a degraded debate whose statements
 * are all emergency placeholders (or one side's are) has nothing for a person to judge.
 */
export function bothSidesSpoke(events: readonly RunEvent[]): boolean {
  const spoke = new Set<string>();
  for (const event of events) {
    if (event.type !== 'turn-end' && event.type !== 'statement') continue;
    if (event.degraded || (event.type === 'statement' && event.phase === 'preparation')) continue;
    spoke.add(event.type === 'turn-end' ? event.position : event.side);
  }
  return spoke.size >= 2;
}

/** The arena of a run, or null when its format has no two sides to choose between. */
export function arenaState(view: RunView, runDir: string, voter: string | undefined): ArenaState | null {
  const sides = debateSides(view.events);
  if (!sides) return null;
  const votes = readArenaVotes(runDir);
  const mine = voter === undefined ? undefined : votes.find((vote) => vote.voter === voter);
  const status = statusOf(view);
  return {
    runId: view.runId,
    choices: [...sides.map((side) => ({ key: side.key, label: side.label })), { key: TIE, label: TIE_LABEL }],
    sides,
    votes,
    mine,
    seen: voter !== undefined && mine === undefined && readNamesSeen(runDir).has(voter),
    open: status === 'completed' || (status === 'degraded' && bothSidesSpoke(view.events)),
    verdicts: judgeVerdicts(view.events),
  };
}

/** How a choice reads in a sentence: a side's label, or "a tie". */
export function choiceLabel(state: ArenaState, key: string): string {
  if (key === TIE) return 'a tie';
  return state.choices.find((choice) => choice.key === key)?.label ?? key;
}
