/** `agora show` prints a debate's argument map and argument scores after its transcript, as the run page shows them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { isIntroduction } from '../../src/agents/introductions.js';
import { extractKeyPoints } from '../../src/agents/key-points.js';
import { argumentMap } from '../../src/analytics/argument-map.js';
import type { RunEvent } from '../../src/core/events.js';
import { runAgora, writeFiles } from '../helpers/cli.js';
import { SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { readEvents } from '../helpers/transcripts.js';

const mock = useMockServers();

async function runAndShow(scenario: Record<string, unknown>, url: string) {
  const dir = writeFiles({ 'scenario.yaml': stringify(scenario) });
  const out = path.join(dir, 'runs');
  const run = await runAgora([
    'run',
    path.join(dir, 'scenario.yaml'),
    '--run-id',
    'mapped',
    '--out',
    out,
    '--host',
    url,
    '--quiet',
  ]);
  expect(run.code, run.stderr).toBe(0);
  const shown = await runAgora(['show', 'mapped', '--out', out]);
  expect(shown.code, shown.stderr).toBe(0);
  return { shown: shown.stdout, events: readEvents(path.join(out, 'mapped')) as unknown as RunEvent[] };
}

describe('agora show: the argument map', () => {
  it("prints every claim of a knockout's ledger with its links and status, and each debater's scores", async () => {
    const server = await mock();
    const { shown, events } = await runAndShow(testScenario({ rounds: 3 }), server.url);
    const map = argumentMap(events);
    expect(map?.source).toBe('ledger');
    expect(map?.claims.length).toBeGreaterThan(3);
    const section = shown.slice(shown.indexOf('## Argument map'));
    expect(section).toContain("Claims and links from the debate's claims ledger");
    for (const claim of map?.claims ?? []) {
      const line = section.split('\n').find((candidate) => candidate.startsWith(`- **${claim.id}** `));
      expect(line, claim.id).toContain(`· **${claim.status}**`);
      if (claim.answers) expect(line).toContain(`answers ${claim.answers}`);
    }
    for (const score of map?.scores ?? []) {
      expect(section).toContain(
        `| ${score.speaker} | ${score.side === 'X' ? 'Position X (Car-free)' : 'Position Y (Car-friendly)'} | ${score.made} | ${score.answeredByOther} | ${score.answersGiven} | ${score.leftOpen} | ${score.dropped} |`,
      );
    }
  });

  it('says of a formal debate that its claims are key sentences linked by wording', async () => {
    const server = await mock();
    const { shown } = await runAndShow(SMALL_SCENARIOS.formal?.() ?? {}, server.url);
    expect(shown).toContain('## Argument map');
    expect(shown).toContain('kept no claims ledger');
    expect(shown).toContain('### Opening statements');
    expect(shown).toContain('### Closing statements');
  });

  it('maps a formal debate and a duel with no introduction and no sentence said again as a claim of its own', async () => {
    const server = await mock();
    const before = { introductions: 0, repeats: 0 };
    for (const scenario of [SMALL_SCENARIOS.formal?.() ?? {}, SMALL_SCENARIOS.duel?.() ?? {}]) {
      const { shown, events } = await runAndShow(scenario, server.url);
      const map = argumentMap(events);
      expect(map?.source).toBe('key-sentences');
      const said = new Set<string>();
      for (const claim of map?.claims ?? []) {
        expect(isIntroduction(claim.text), claim.text).toBe(false);
        const key = `${claim.speaker}\u0000${claim.text.toLowerCase().replace(/[^a-z0-9]+/g, ' ')}`;
        expect(said.has(key), claim.text).toBe(false);
        said.add(key);
      }
      for (const claim of map?.claims ?? []) {
        if (claim.restatedIn.length > 0)
          expect(shown).toContain(`restated in ${claim.restatedIn.join(', ')}`);
      }
      // The introductions the statements held, and the first key sentences said again, as the map
      // once took them.
      const seen = new Set<string>();
      for (const event of events) {
        if (event.type !== 'statement' || event.phase === 'preparation') continue;
        for (const sentence of event.text.split(/(?<=[.!?])\s+/)) {
          if (isIntroduction(sentence)) before.introductions += 1;
        }
        for (const sentence of extractKeyPoints(event.text, 3)) {
          const key = `${event.speaker}\u0000${sentence.toLowerCase()}`;
          if (seen.has(key)) before.repeats += 1;
          seen.add(key);
        }
      }
    }
    // The simulated debaters do introduce themselves and repeat themselves: the check above had work to do.
    expect(before.introductions + before.repeats).toBeGreaterThan(0);
  });
});
