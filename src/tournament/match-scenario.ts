/**
 * The scenario of one tournament match, built from the motion and the match and read through the
 * same schema as a scenario file, so every default and check of the format applies. The debaters
 * carry neutral names: a judge reads "Debater A", never the model's name.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { parseScenario } from '../config/load-scenario.js';
import type { Scenario } from '../config/scenario.js';
import { seededFraction } from '../rotation/seeded-random.js';
import type { Motion } from './motions-file.js';
import type { PlannedMatch, TournamentSpec } from './tournament-plan.js';

const DEFAULT_POSITIONS = { a: 'For the motion', b: 'Against the motion' };

/** The seat fields a line-up file set for `model` (its `think`). */
function seat(spec: TournamentSpec, model: string) {
  const think = spec.modelOptions?.[model]?.think;
  return think === undefined ? {} : { think };
}

function background(motion: Motion) {
  return motion.background ? { background: { knowledge: { background: motion.background } } } : {};
}

function duelFile(spec: TournamentSpec, motion: Motion, match: PlannedMatch) {
  return {
    format: 'duel',
    title: motion.motion,
    topic: motion.motion,
    seed: spec.seed,
    positions: motion.positions ?? DEFAULT_POSITIONS,
    ...background(motion),
    debaters: {
      a: {
        name: 'Debater A',
        model: match.first,
        ...seat(spec, match.first),
        ...(motion.persona?.a ? { role: motion.persona.a } : {}),
      },
      b: {
        name: 'Debater B',
        model: match.second,
        ...seat(spec, match.second),
        ...(motion.persona?.b ? { role: motion.persona.b } : {}),
      },
    },
    judge: { name: 'Judge', model: match.judge },
    max_rounds: spec.rounds,
  };
}

/** A formal debate draws its sides by seed: the debaters are listed so that the draw puts `first` on the affirmative. */
function formalFile(spec: TournamentSpec, motion: Motion, match: PlannedMatch) {
  const first = {
    name: 'Speaker A',
    model: match.first,
    ...seat(spec, match.first),
    ...(motion.persona?.a ? { role: motion.persona.a } : {}),
  };
  const second = {
    name: 'Speaker B',
    model: match.second,
    ...seat(spec, match.second),
    ...(motion.persona?.b ? { role: motion.persona.b } : {}),
  };
  const firstDrawsAffirmative = seededFraction(spec.seed, 'sides') < 0.5;
  const positions = motion.positions ?? DEFAULT_POSITIONS;
  return {
    format: 'formal',
    title: motion.motion,
    topic: motion.motion,
    seed: spec.seed,
    positions: { affirmative: positions.a, negative: positions.b },
    ...background(motion),
    debaters: firstDrawsAffirmative ? [first, second] : [second, first],
    verdict: { enabled: true, judge_model: match.judge },
  };
}

/** Position Y agents in a tournament knockout: one on the floor, three scoring each exchange. */
export const KNOCKOUT_Y_AGENTS = 4;

const knockoutRole = (label: string) =>
  `A debater who argues for "${label}" with evidence, reasons and direct answers to the other side.`;

/**
 * A knockout pairs the models as the format pairs positions: Position X on `first`, the four
 * Position Y agents on `second`. The Y agents score the exchanges and rotate the Y on the floor, as
 * the format does; the tournament's own judge reads the finished debate (knockout-verdict.ts).
 */
function knockoutFile(spec: TournamentSpec, motion: Motion, match: PlannedMatch) {
  const positions = motion.positions ?? DEFAULT_POSITIONS;
  const x = {
    name: 'Debater X',
    position: 'X',
    model: match.first,
    ...seat(spec, match.first),
    role: motion.persona?.a ?? knockoutRole(positions.a),
  };
  const ys = Array.from({ length: KNOCKOUT_Y_AGENTS }, (_, at) => ({
    name: `Debater Y${at + 1}`,
    position: 'Y',
    model: match.second,
    ...seat(spec, match.second),
    role: motion.persona?.b ?? knockoutRole(positions.b),
  }));
  return {
    format: 'knockout',
    title: motion.motion,
    topic: motion.motion,
    seed: spec.seed,
    positions: { x: positions.a, y: positions.b },
    ...background(motion),
    agents: [x, ...ys],
    debate: { rounds: spec.rounds, starting_position: 'X' },
  };
}

function matchFile(spec: TournamentSpec, motion: Motion, match: PlannedMatch) {
  if (spec.format === 'formal') return formalFile(spec, motion, match);
  if (spec.format === 'knockout') return knockoutFile(spec, motion, match);
  return duelFile(spec, motion, match);
}

/** The match's scenario; `label` names it in messages (the motions file, the motion's number). */
export async function matchScenario(
  spec: TournamentSpec,
  match: PlannedMatch,
  motionsFile: string,
): Promise<Scenario> {
  const motion = spec.motions.find((each) => each.id === match.motionId);
  if (!motion) throw new Error(`match ${match.index} names motion ${match.motionId}, which the plan lacks`);
  const file = matchFile(spec, motion, match);
  const shown = `${path.basename(motionsFile)} (motion ${motion.id})`;
  return parseScenario(stringify(file), path.resolve(motionsFile), shown);
}
