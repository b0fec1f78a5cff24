/**
 * `agora query` gives every question a time limit: an endless recursive query is stopped with a
 * plain message and exit 2, whether SQLite is stuck computing one row or streams rows forever.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';

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
});
