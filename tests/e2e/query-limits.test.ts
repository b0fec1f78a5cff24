/**
 * `agora query` gives every question a time limit: an endless recursive query is stopped with a
 * plain message and exit 2, whether SQLite is stuck computing one row or streams rows forever.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';

/** The pids of the processes whose parent is `pid` and that answer a question (`node -e`, SQLite). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(' -e '))
      .map((line) => Number.parseInt(line.trim(), 10))
      .filter((child) => child > 0);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (ended, not yet collected) runs nothing.
  try {
    return !/^State:\s+Z/m.test(execFileSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

/** Polls `check` until it holds, up to a minute (the machine may be busy), then says whether it held. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < 60_000; await delay(100)) if (check()) return true;
  return check();
}

const USAGE_ERROR = 2;
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';

describe('agora query time limit', () => {
  const out = path.join(tempDir(), 'runs');
  beforeAll(async () => {
    mkdirSync(out);
    expect((await runAgora(['reindex', '--out', out])).code).toBe(0);
  });

  it('stops an endless recursive query after its time limit, exit 2, saying why and how to go on', async () => {
    for (const sql of [`${ENDLESS} SELECT count(*) FROM c`, `${ENDLESS} SELECT x FROM c`]) {
      const result = await runAgora(['query', sql, '--out', out, '--timeout', '1']);
      expect(result.code).toBe(USAGE_ERROR);
      expect(result.stderr).toContain(
        'the query ran for 1 s, its time limit, and was stopped; a recursive query needs a condition that ends it, and a large result a LIMIT; give it more time with --timeout SECONDS',
      );
      expect(result.stdout).toBe('');
    }
  });

  it('still answers questions that end, and refuses statements that write', async () => {
    const answered = await runAgora(['query', `${ENDLESS} SELECT x FROM c LIMIT 3`, '--out', out, '--json']);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    const write = await runAgora(['query', 'DELETE FROM runs', '--out', out]);
    expect(write.code).toBe(USAGE_ERROR);
    expect(write.stderr).toContain('only statements that read (SELECT or WITH) are allowed');
  });

  it('refuses a --timeout past a day, instead of a timer that fires at once', async () => {
    const result = await runAgora(['query', 'SELECT 1', '--out', out, '--timeout', '2147484']);
    expect(result.code).toBe(USAGE_ERROR);
    expect(result.stderr).toContain('--timeout must be at most 86400 seconds (a day), got "2147484"');
  });

  for (const signal of ['SIGKILL', 'SIGTERM', 'SIGHUP'] as const) {
    it(`ends the process answering a question when its parent gets ${signal}`, async () => {
      const { child, result } = startAgora([
        'query',
        `${ENDLESS} SELECT count(*) FROM c`,
        '--out',
        out,
        '--timeout',
        '600',
      ]);
      const parent = child.pid as number;
      // The question's own process: the CLI's child that runs SQLite (node -e).
      expect(await eventually(() => childrenOf(parent).length > 0)).toBe(true);
      const [worker] = childrenOf(parent) as [number];
      child.kill(signal);
      await result;
      expect(await eventually(() => !alive(worker))).toBe(true);
    });
  }
});
