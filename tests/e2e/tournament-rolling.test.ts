/**
 * An adaptive tournament plans its next pairing as slots free, one pairing at a time, from a
 * numbered prefix of its plan: the same command run twice, whatever order its debates happen to end
 * in, plans the same debates.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { tournamentEntries as entries } from '../helpers/tournament-log.js';

describe('agora tournament --schedule adaptive', () => {
  it('plans one pairing at a time after the first round, and the same plan on every run, killed and resumed or not', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'motions.txt'),
      'Tea is better than coffee\nTrains beat planes\nHomework does more harm than good\n',
    );
    const argsFor = (out: string) => [
      'tournament',
      '--demo',
      '--models',
      'm1,m2,m3,m4',
      '--motions',
      'motions.txt',
      '--rounds',
      '1',
      '--budget',
      '20',
      '--concurrency',
      '4',
      '--out',
      out,
    ];
    const play = async (out: string) => {
      const result = await runAgora(argsFor(out), { cwd: dir });
      expect([0, 9]).toContain(result.code);
      return entries(path.join(dir, out));
    };
    const first = await play('one');
    const second = await play('two');
    // A third, killed with SIGKILL once it has planned a pairing after the first round, then resumed.
    const killed = startAgora(argsFor('three'), { cwd: dir });
    for (;;) {
      if (entries(path.join(dir, 'three')).filter((entry) => entry.type === 'matches-planned').length >= 2)
        break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    killed.child.kill('SIGKILL');
    await killed.result;
    const third = await play('three');
    const plans = [first, second, third].map((log) =>
      log.flatMap((entry) => (entry.type === 'matches-planned' ? [entry.matches] : [])),
    );
    // The first round meets every pair once; after it, a pairing (two debates) at a time.
    expect(plans[0]?.[0]).toHaveLength(12);
    expect(plans[0]?.slice(1).map((matches) => matches.length)).toEqual([2, 2, 2, 2]);
    expect(plans[1]).toEqual(plans[0]);
    expect(plans[2]?.flat()).toEqual(plans[0]?.flat());
    for (const log of [first, second]) {
      expect(log.filter((entry) => entry.type === 'debate-end')).toHaveLength(20);
      // Each later pairing was planned once the debates it reads had ended: up to P + 2 − 6.
      let planned = 0;
      const ended = new Set<number>();
      for (const entry of log) {
        if (entry.type === 'debate-end') ended.add(entry.index);
        if (entry.type !== 'matches-planned') continue;
        if (planned > 0)
          for (let index = 1; index <= planned + 2 - 6; index++)
            expect(ended.has(index), `${index}`).toBe(true);
        planned += entry.matches.length;
      }
    }
  });
});
