/**
 * A run whose writer was killed mid-step leaves its lock and its live notices behind. Neither the
 * viewer nor `agora runs` may present it as running, even while the dead process lingers as a
 * zombie its parent never waited for.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { agoraCommandLine, runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';
import { readStream, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();

const processState = (pid: number) =>
  /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '?';

async function until(condition: () => boolean, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(process.platform !== 'linux')('a run whose writer was killed', () => {
  it('is interrupted, not live, in the run page, its stream, the API and `agora runs`', async () => {
    // Round 3's judges get no answer, so the run has not ended when the kill lands, however late.
    const server = await mock({
      speed: 0.05,
      script: [{ match: { text: '## Your task: evaluate round 3\n' }, fault: 'hang' }],
    });
    const dir = tempDir();
    const scenario = path.join(dir, 'scenario.yaml');
    writeFileSync(scenario, stringify(testScenario({ rounds: 3 })));
    const out = path.join(dir, 'runs');
    // `sh` starts the run in the background and becomes `sleep`, which never waits for it: once
    // killed, the run stays a zombie, and its pid still answers `kill -0`.
    const parent = spawn(
      'sh',
      [
        '-c',
        '"$0" "$@" & exec sleep 120',
        ...agoraCommandLine(['run', scenario, '--host', server.url, '--out', out, '--quiet']),
      ],
      { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } },
    );
    try {
      await waitForEvents(out, 3);
      const runDir = onlyRunDir(out);
      const runId = path.basename(runDir);
      const pid = Number(readFileSync(path.join(runDir, 'run.lock'), 'utf8'));
      // Kill it while a statement is being generated: a notice newer than the log's last event.
      const liveFile = path.join(runDir, 'live.jsonl');
      const inFlight = () => {
        const lastSeq = readEvents(runDir).at(-1)?.seq ?? 0;
        const notices = existsSync(liveFile) ? readFileSync(liveFile, 'utf8').trim().split('\n') : [];
        return notices.some((line) => line.includes('"turn-delta"') && JSON.parse(line).after >= lastSeq);
      };
      await until(inFlight, 'a statement in flight');
      process.kill(pid, 'SIGKILL');
      await until(() => processState(pid) === 'Z', 'the killed run to become a zombie');
      expect(existsSync(liveFile)).toBe(true);
      expect(existsSync(path.join(runDir, 'run.lock'))).toBe(true);

      const web = await viewer({ outDir: out, ollamaHost: server.url });
      const api = (await (await fetch(`${web.url}/api/runs/${runId}`)).json()) as { live: boolean };
      expect(api.live).toBe(false);
      const listed = (await (await fetch(`${web.url}/api/runs`)).json()) as Array<{ status: string }>;
      expect(listed.map((run) => run.status)).toEqual(['interrupted']);
      const page = await (await fetch(`${web.url}/runs/${runId}`)).text();
      expect(page).toContain('status-interrupted');
      // Resume is offered and stop is not.
      expect(page).toContain('data-action="resume">Resume');
      expect(page).toContain('data-action="stop" disabled>');
      const messages = await readStream(web, runId, (received) =>
        received.some((message) => message.event === 'view'),
      );
      expect(messages.filter((message) => message.event === 'live')).toEqual([]);
      const view = messages.find((message) => message.event === 'view');
      expect(view?.data).toMatchObject({ live: false, status: 'interrupted' });

      const runs = await runAgora(['runs', '--json', '--out', out]);
      expect(runs.code).toBe(0);
      expect((JSON.parse(runs.stdout) as Array<{ status: string }>).map((run) => run.status)).toEqual([
        'interrupted',
      ]);
    } finally {
      parent.kill('SIGKILL');
    }
  }, 900_000);
});
