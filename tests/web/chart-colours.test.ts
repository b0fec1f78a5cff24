/**
 * The charts of a run page give each side and each debater one colour: a duel's debater has its
 * side's colour in every chart, and a knockout's debaters keep theirs from chart to chart.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/events.js';
import { runCharts } from '../../src/web/charts.js';
import { projectRoot, runAgora, tempDir } from '../helpers/cli.js';
import { readEvents } from '../helpers/transcripts.js';

/** Every (label, colour) pair the charts draw: bars (label, then bar), legends and the timeline (box, then label). */
function labelledColours(svg: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const match of svg.matchAll(/<text[^>]*>([^<]+)<\/text>\n<rect[^>]*fill="(#[0-9a-f]{6})"/g))
    pairs.push([match[1] as string, match[2] as string]);
  for (const match of svg.matchAll(/<rect[^>]*fill="(#[0-9a-f]{6})"\/>\n<text[^>]*>([^<]+)<\/text>/g))
    pairs.push([match[2] as string, match[1] as string]);
  return pairs.filter(([label]) => !/^R\d+/.test(label));
}

/** The colours each of these names has across the page's charts; a cut name (the timeline's) counts as the whole name. */
function coloursOf(svg: string, names: string[]): Map<string, Set<string>> {
  const whole = (label: string) =>
    names.includes(label) ? label : names.find((name) => label.length === 12 && name.startsWith(label));
  const colours = new Map<string, Set<string>>();
  for (const [label, fill] of labelledColours(svg)) {
    const name = whole(label);
    if (name === undefined) continue;
    colours.set(name, (colours.get(name) ?? new Set<string>()).add(fill));
  }
  return colours;
}

async function demoEvents(scenario: string): Promise<RunEvent[]> {
  const out = path.join(tempDir(), 'runs');
  const run = await runAgora([
    'demo',
    path.join(projectRoot, 'scenarios', scenario),
    '--profile',
    'instant',
    '--out',
    out,
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return readEvents(
    path.join(out, (JSON.parse(run.stdout) as { runId: string }).runId),
  ) as unknown as RunEvent[];
}

describe('chart colours on a run page', () => {
  let duel: RunEvent[];
  let knockout: RunEvent[];
  beforeAll(async () => {
    duel = await demoEvents('duel-remote-work.yaml');
    knockout = await demoEvents('abortion.yaml');
  }, 900_000);

  it("gives a duel's debater its side's colour in every chart, the two sides different ones", () => {
    const debaters = new Map<string, string>();
    for (const event of duel) if (event.type === 'statement') debaters.set(event.speaker, event.side);
    expect(debaters.size).toBe(2);
    const colours = coloursOf(runCharts(duel).value, [...debaters.keys(), ...debaters.values()]);
    const sides = new Set<string>();
    for (const [name, key] of debaters) {
      const own = [...(colours.get(name) ?? [])];
      const side = [...(colours.get(key) ?? [])];
      expect(own, `${name}'s colours`).toHaveLength(1);
      expect(own, `${name} has side ${key}'s colour`).toEqual(side);
      sides.add(side[0] as string);
    }
    expect(sides.size).toBe(2);
  });

  it("keeps each knockout debater's and judge's colour from chart to chart, a different one each", () => {
    const people = new Set<string>();
    for (const event of knockout) {
      if (event.type === 'turn-end') people.add(event.agent);
      if (event.type === 'vote-cast') people.add(event.judge);
    }
    const colours = coloursOf(runCharts(knockout).value, [...people]);
    expect(colours.size).toBe(people.size);
    for (const [name, set] of colours) expect(set.size, `${name} has one colour`).toBe(1);
    const used = [...colours.values()].map((set) => [...set][0]);
    expect(new Set(used).size).toBe(used.length);
  });
});
