import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers();
const QUICK = { timeoutMs: 600_000 };

describe('limits on what a run reads and waits for', () => {
  it('runs with fractional request timeouts from the scenario and from --timeout', async () => {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    const data = testScenario({ rounds: 1 });
    writeFileSync(file, stringify({ ...data, reliability: { request_timeout_seconds: 1.0005 } }));
    const fromFile = await runAgora(
      ['run', file, '--host', server.url, '--out', path.join(dir, 'a'), '--quiet'],
      QUICK,
    );
    expect(fromFile.stderr).not.toMatch(/RangeError/);
    expect(fromFile.code).toBe(0);
    const fromFlag = await runAgora(
      ['run', file, '--host', server.url, '--out', path.join(dir, 'b'), '--quiet', '--timeout', '2.5005'],
      QUICK,
    );
    expect(fromFlag.stderr).not.toMatch(/RangeError/);
    expect(fromFlag.code).toBe(0);
    expect(readEvents(onlyRunDir(path.join(dir, 'b'))).at(-1)).toMatchObject({ type: 'run-end' });
  });

  it('refuses a --problem-file that is a device, a named pipe or too large, naming the file', async () => {
    const dir = tempDir();
    const pipe = path.join(dir, 'problem.md');
    execFileSync('mkfifo', [pipe]);
    const large = path.join(dir, 'large.md');
    writeFileSync(large, 'Design a queue. '.repeat(20_000));
    for (const [file, message] of [
      ['/dev/zero', /is not a regular file \(it is a character device\)/],
      [pipe, /is not a regular file \(it is a named pipe\)/],
      [large, /is 320000 bytes, above the 262144-byte limit for a problem file/],
    ] as const) {
      const result = await runAgora(['run', '--format', 'critique', '--problem-file', file], QUICK);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(message);
    }
  });

  it('refuses a topic from the command line that cannot fit the context window', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    // A small window: a topic within the length limit can still leave no room for the prompt.
    writeFileSync(file, stringify(testScenario({ contextWindow: 1024, maxTokens: 640 })));
    const problem = path.join(dir, 'problem.md');
    writeFileSync(problem, 'Should the ring road be closed to lorries at night? '.repeat(9));
    const result = await runAgora(['run', file, '--problem-file', problem], QUICK);
    expect(result.code).toBe(2);
    // The new topic leaves the old topic's background out, so the topic alone is what does not fit.
    expect(result.stderr).toMatch(/the agents' personas and the background \(1 entry\) are left out/);
    expect(result.stderr).toMatch(
      /--topic or --problem-file: the topic comes to about \d+ tokens, more than the 128/,
    );
  });
});
