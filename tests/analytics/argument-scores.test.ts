/** The leaderboard's argument scores: each debater's map scores added up under its model, across debates. */
import { describe, expect, it } from 'vitest';
import { leaderboard } from '../../src/analytics/leaderboard.js';
import { tempDir } from '../helpers/cli.js';
import { claims, logOf, runEnd, scenarioOf, turn } from '../helpers/run-events.js';
import { indexOf, writeRun } from '../helpers/run-folders.js';

describe('the leaderboard: argument scores per model', () => {
  it("adds up each model's claims, answers, open and dropped claims over the debates it spoke in", async () => {
    const scenario = await scenarioOf('knockout');
    const outDir = tempDir();
    // Xavier is llama3, the Y agents mistral.
    writeRun(
      outDir,
      'first',
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'One.'),
        claims(1, 'Xavier', 'X', [{ claim: 'A.' }, { claim: 'B.' }]),
        turn(1, 'Yara', 'Y', 'One.', 'mistral'),
        claims(1, 'Yara', 'Y', [{ claim: 'C.', answers: 'X1.1' }]),
        turn(2, 'Xavier', 'X', 'Two.'),
        claims(2, 'Xavier', 'X', [{ claim: 'D.' }]),
        runEnd(),
      ]),
    );
    writeRun(
      outDir,
      'second',
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'One.'),
        claims(1, 'Xavier', 'X', [{ claim: 'E.' }]),
        turn(1, 'Yusuf', 'Y', 'One.', 'mistral'),
        claims(1, 'Yusuf', 'Y', [{ claim: 'F.', answers: 'X1.1' }, { claim: 'G.' }]),
        runEnd(),
      ]),
    );
    const index = indexOf(outDir);
    try {
      const table = leaderboard(index).find((candidate) => candidate.title.startsWith('Argument scores'));
      expect(table?.columns).toEqual([
        'Model',
        'Debates',
        'Claims',
        'Answered by the other side',
        'Answers given',
        'Left open',
        'Dropped',
        'Dropped of answered',
      ]);
      expect(table?.rows).toEqual([
        // X1.1 of the first debate: answered by Y, then X spoke again without replying: dropped.
        ['llama3', 2, 4, 2, 0, 2, 1, 0.5],
        ['mistral', 2, 3, 0, 2, 3, 0, null],
      ]);
      expect(table?.note).toMatch(/2 mapped from their claims ledger, 0 from key sentences/);
    } finally {
      index.close();
    }
  });
});
