/**
 * A number an answer gives outside its bounds is held to the bound and the answer used, and the user
 * is told where they read: the terminal, the report (`show`), transcript.md and the reliability table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

describe('numbers held to their bounds', () => {
  it('says a council confidence of -5e12 was read as 0 in the terminal, the report and transcript.md, and counts it', async () => {
    const server = await mock({
      script: [
        {
          match: { prompt: '## Your task: round 1 as the Proponent' },
          json: {
            claim: 'Move now.',
            rationale: 'It is cheaper.',
            risks: [],
            stance: 'for',
            confidence: -5e12,
          },
        },
      ],
    });
    const dir = tempDir();
    const file = path.join(dir, 'council.yaml');
    writeFileSync(
      file,
      stringify({ format: 'council', topic: 'Should we move the billing database to PostgreSQL?', seed: 11 }),
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Proponent: confidence -5e12 read as 0 \(outside the answer's bounds\)/);
    const runDir = onlyRunDir(out);
    const markdown = readFileSync(path.join(runDir, 'transcript.md'), 'utf8');
    expect(markdown).toContain('## Numbers held to their bounds');
    expect(markdown).toMatch(/- Proponent, round-1: confidence -5e12 read as 0/);
    const shown = await runAgora(['show', 'latest', '--out', out]);
    expect(shown.stdout).toMatch(/Proponent, round-1: confidence -5e12 read as 0/);
    const board = await runAgora(['leaderboard', '--table', 'reliability', '--json', '--out', out]);
    expect(board.code).toBe(0);
    const [table] = JSON.parse(board.stdout) as Array<{
      rows: Array<Record<string, string | number | null>>;
    }>;
    const clamped = (table?.rows ?? []).reduce((sum, row) => sum + Number(row['Numbers clamped'] ?? 0), 0);
    expect(clamped).toBeGreaterThanOrEqual(1);
  });
});
