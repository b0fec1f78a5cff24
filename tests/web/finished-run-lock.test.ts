/**
 * A finished run whose folder still holds a live process's lock: a worker, or the viewer's copy of
 * a shared database, lets go of it a moment after writing the run's last event. In that moment the
 * run is finished, not live.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();

describe('a finished run with its lock still held', () => {
  it('is completed and not live in the API and on its page', async () => {
    const server = await mock();
    const dir = tempDir();
    const scenario = path.join(dir, 'scenario.yaml');
    writeFileSync(scenario, stringify(testScenario({ rounds: 1 })));
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', scenario, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    expect(readEvents(runDir).at(-1)?.type).toBe('run-end');
    // A live process (this one) holds the folder's lock, as the writer does until it lets go.
    writeFileSync(path.join(runDir, 'run.lock'), `${process.pid}\n`);

    const web = await viewer({ outDir: out, ollamaHost: server.url });
    const runId = path.basename(runDir);
    const api = (await (await fetch(`${web.url}/api/runs/${runId}`)).json()) as {
      live: boolean;
      progress: { status: string };
    };
    expect(api).toMatchObject({ live: false, progress: { status: 'completed' } });
    const page = await (await fetch(`${web.url}/runs/${runId}`)).text();
    expect(page).toContain('status-completed');
  });
});
