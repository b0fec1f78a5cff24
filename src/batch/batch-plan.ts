/**
 * A batch's plan: every combination of scenario, model line-up and seed, in a fixed order, with
 * fixed run ids, so re-running the same command finds the same runs and resumes the batch.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { applyLineup, LINEUP_KEYS, type Lineup, lineupFits, lineupText } from '../config/lineup.js';
import { loadScenario } from '../config/load-scenario.js';
import type { Scenario } from '../config/scenario.js';
import { UsageError } from '../core/errors.js';
import { type GivenModels, lineupModels } from '../session/given-models.js';
import { slugify } from '../store/run-id.js';

export interface BatchItem {
  idx: number;
  runId: string;
  scenarioFile: string;
  seed: number;
  lineup: Lineup | null;
  scenario: Scenario;
}

export interface BatchPlan {
  batchId: string;
  items: BatchItem[];
  /** What the plan was made from, as given. */
  spec: { files: string[]; seeds: number[] | null; repeat: number | null; lineups: Lineup[] };
  /** What the user should know about how the plan read the spec, one line each, naming the file. */
  notices: string[];
}

/** Scenario files named directly, and every .yaml/.yml file in folders named, sorted. */
export function expandScenarioPaths(inputs: string[], cwd: string): string[] {
  const files: string[] = [];
  for (const input of inputs) {
    const absolute = path.resolve(cwd, input);
    if (!existsSync(absolute)) throw new UsageError(`${input} does not exist`);
    if (statSync(absolute).isDirectory()) {
      files.push(
        ...readdirSync(absolute)
          .filter((name) => /\.ya?ml$/i.test(name))
          .sort()
          .map((name) => path.join(absolute, name)),
      );
    } else files.push(absolute);
  }
  if (files.length === 0) throw new UsageError('no scenario files found in what was named');
  return [...new Set(files)];
}

/**
 * The line-ups one scenario runs with. A line-up applies to the formats whose sides it names; a
 * scenario whose format has none of them (a council or a critique among knockouts) runs once per
 * seed with its own models, and says so. A line-up that names some of a format's roles and some
 * unknown ones is most likely misspelt: refused, naming the file.
 */
function lineupsFor(
  base: Scenario,
  file: string,
  lineups: Lineup[],
  notices: string[],
): Array<Lineup | null> {
  if (lineups.length === 0) return [null];
  const fitting = lineups.filter((lineup) => lineupFits(base.format, lineup));
  if (fitting.length > 0) return fitting;
  const keys = LINEUP_KEYS[base.format];
  const partly = lineups.find((lineup) =>
    Object.keys(lineup).some((key) => key !== 'all' && keys.includes(key)),
  );
  if (partly) {
    throw new UsageError(
      `${path.basename(file)}: --models ${lineupText(partly)} names roles a ${base.format} scenario does not have; use ${keys.join(', ')}`,
    );
  }
  notices.push(
    `${path.basename(file)}: --models does not apply to the ${base.format} format; run with its own models`,
  );
  return [null];
}

export async function buildPlan(spec: BatchPlan['spec']): Promise<BatchPlan> {
  const batchId = `batch-${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 10)}`;
  const items: BatchItem[] = [];
  const notices: string[] = [];
  const scenarios: Array<{ file: string; base: Scenario }> = [];
  for (const file of spec.files) scenarios.push({ file, base: await loadScenario(file) });
  for (const { file, base } of scenarios) {
    const seeds = spec.seeds ?? Array.from({ length: spec.repeat ?? 1 }, (_, index) => base.seed + index);
    for (const lineup of lineupsFor(base, file, spec.lineups, notices)) {
      for (const seed of seeds) {
        const idx = items.length;
        // The plan fixes every seed, so a batch re-run finds the same runs: nothing is drawn.
        const { randomSeed: _drawn, ...scenario } = { ...applyLineup(base, lineup), seed };
        items.push({
          idx,
          runId: `${batchId}-${String(idx + 1).padStart(3, '0')}-${slugify(base.topic, 24)}-s${seed}`,
          scenarioFile: file,
          seed,
          lineup,
          scenario,
        });
      }
    }
  }
  // A line-up that fits no scenario at all would change nothing: a mistake, not a choice.
  const unused = spec.lineups.find(
    (lineup) => !scenarios.some(({ base }) => lineupFits(base.format, lineup)),
  );
  if (unused) {
    const formats = [...new Set(scenarios.map(({ base }) => base.format))];
    throw new UsageError(
      `--models ${lineupText(unused)} fits none of the scenarios (${formats
        .map((format) => `${format}: ${LINEUP_KEYS[format].join(', ')}`)
        .join('; ')})`,
    );
  }
  return { batchId, items, spec, notices };
}

/** The plan's scenarios as the servers must be checked for them: each with its file and its line-up's models. */
export function plannedScenarios(
  plan: BatchPlan,
): Array<{ scenario: Scenario; file: string; givenModels?: GivenModels }> {
  return plan.items.map((item) => ({
    scenario: item.scenario,
    file: item.scenarioFile,
    ...(item.lineup
      ? { givenModels: { by: `--models ${lineupText(item.lineup)}`, models: lineupModels(item.lineup) } }
      : {}),
  }));
}
