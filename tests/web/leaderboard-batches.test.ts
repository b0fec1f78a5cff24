/**
 * The leaderboard page's batch field: a choice of the batches the runs folder has (their plans, and
 * the batches its runs name), newest first, and "all"; the chosen one stays chosen.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, runAgora, tempDir } from '../helpers/cli.js';
import { onlyRunDir } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const viewer = useViewers();

function writePlan(out: string, batchId: string, createdAt: string, runIds: string[]) {
  const folder = path.join(out, 'batches', batchId);
  mkdirSync(folder, { recursive: true });
  const runs = runIds.map((runId, idx) => ({
    batch_id: batchId,
    idx,
    run_id: runId,
    scenario_file: 'abortion.yaml',
    seed: 1,
    lineup: '',
  }));
  writeFileSync(path.join(folder, 'plan.json'), JSON.stringify({ batchId, createdAt, plan: {}, runs }));
}

/** The batch select's options: [value, text, selected]. */
function batchOptions(page: string): Array<[string, string, boolean]> {
  const select = /<select name="batch">([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '';
  return [...select.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)].map((match) => [
    match[1] as string,
    match[3] as string,
    match[2] !== undefined,
  ]);
}

describe('the leaderboard page: batches to choose from', () => {
  let out: string;
  beforeAll(async () => {
    out = path.join(tempDir(), 'runs');
    const run = await runAgora([
      'demo',
      path.join(projectRoot, 'scenarios', 'abortion.yaml'),
      '--profile',
      'instant',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const runId = path.basename(onlyRunDir(out));
    writePlan(out, 'batch-older00', '2026-11-20T10:00:00.000Z', []);
    writePlan(out, 'batch-newer00', '2026-11-24T09:30:00.000Z', [runId]);
    const reindex = await runAgora(['reindex', '--out', out]);
    expect(reindex.code, reindex.stderr).toBe(0);
  }, 900_000);

  it('offers every batch, newest first, after "all", instead of a free text field', async () => {
    const web = await viewer({ outDir: out, ollamaHost: 'http://127.0.0.1:9' });
    const page = await (await fetch(`${web.url}/leaderboard`)).text();
    expect(page).not.toContain('<input name="batch"');
    expect(batchOptions(page)).toEqual([
      ['', 'all', true],
      ['batch-newer00', 'batch-newer00 (1 debate, 2026-11-24 09:30 UTC)', false],
      ['batch-older00', 'batch-older00 (0 debates, 2026-11-20 10:00 UTC)', false],
    ]);

    const chosen = await (await fetch(`${web.url}/leaderboard?batch=batch-newer00&demo=1`)).text();
    expect(
      batchOptions(chosen)
        .filter(([, , selected]) => selected)
        .map(([value]) => value),
    ).toEqual(['batch-newer00']);
    // The chosen batch narrows the tables: the older batch has no debates.
    expect(chosen).toContain('<td data-label="Model">llama3</td>');
    const empty = await (await fetch(`${web.url}/leaderboard?batch=batch-older00&demo=1`)).text();
    expect(empty).not.toContain('<td data-label="Model">llama3</td>');
  });
});
