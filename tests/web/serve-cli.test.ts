/** `agora serve` and `agora export` as a user runs them. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const mock = useMockServers();

async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 600_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('agora serve', () => {
  it('serves the viewer with --demo, runs a debate started there in its own process, and stops on SIGTERM', async () => {
    const cwd = tempDir();
    // A debate on a model server (here the mock) before the demo viewer starts: it is no demo.
    const server = await mock();
    const real = await runAgora(
      [
        'run',
        '--format',
        'duel',
        '--topic',
        'Is tea better than coffee?',
        '--rounds',
        '1',
        '--host',
        server.url,
        '--quiet',
      ],
      { cwd },
    );
    expect(real.code).toBe(0);
    const realId = readdirSync(path.join(cwd, 'transcripts')).find((name) => name.includes('tea')) ?? '';
    const { child, result } = startAgora(
      ['serve', '--demo', '--port', '0', '--scenarios', path.resolve('scenarios')],
      { cwd, timeoutMs: 600_000 },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    const url = await waitFor(() => /Agora viewer at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1]);
    const home = await (await fetch(`${url}/`)).text();
    // The demo's notice goes where simulated text is made or shown, not on every page.
    expect(home).not.toContain('class="banner"');
    expect(await (await fetch(`${url}/new`)).text()).toContain(
      'Demo: debates started here run on Agora&#39;s built-in Ollama simulator',
    );
    const token = /name="agora-token" content="([^"]+)"/.exec(home)?.[1] ?? '';
    const started = await fetch(`${url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-token': token },
      body: JSON.stringify({ format: 'duel', topic: 'Is a hot dog a sandwich?', rounds: 2 }),
    });
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    const finished = await waitFor(async () => {
      const run = (await (await fetch(`${url}/api/runs/${runId}`)).json()) as {
        progress: { status: string } | null;
        live: boolean;
      };
      return run.progress?.status === 'completed' && !run.live ? run : undefined;
    });
    expect(finished.progress?.status).toBe('completed');
    expect(existsSync(path.join(cwd, 'transcripts', runId, 'events.jsonl'))).toBe(true);
    // The run is recorded as simulated, and every page that shows it says so.
    const events = readFileSync(path.join(cwd, 'transcripts', runId, 'events.jsonl'), 'utf8');
    expect(JSON.parse(events.split('\n')[0] ?? '{}')).toMatchObject({ type: 'run-start', simulated: true });
    const runPage = await (await fetch(`${url}/runs/${runId}`)).text();
    expect(runPage).toContain('Demo run: this debate ran on Agora&#39;s built-in Ollama simulator');
    expect(runPage).toContain('(demo)');
    const runsPage = await (await fetch(`${url}/`)).text();
    const row = (id: string) =>
      runsPage.split('<tr>').find((item) => item.includes(`<code class="run-id">${id}</code>`));
    expect(row(runId)).toContain('<td data-label="Format">duel <span class="demo">(demo)</span>');
    expect(row(realId)).toContain('<td data-label="Format">duel<br>');
    // Newest first.
    expect(runsPage.indexOf(runId)).toBeLessThan(runsPage.indexOf(realId));
    // The leaderboard counts the real debate only, unless asked for the demos too.
    const matches = async (query: string) => {
      const tables = (await (await fetch(`${url}/api/leaderboard${query}`)).json()) as Array<{
        title: string;
        columns: string[];
        rows: number[][];
      }>;
      const ranking = tables.find((table) => table.title.startsWith('Ranking'));
      const column = ranking?.columns.indexOf('Matches') ?? -1;
      return (ranking?.rows ?? []).reduce((sum, row) => sum + Number(row[column]), 0);
    };
    expect(await matches('')).toBe(2);
    expect(await matches('?demo=1')).toBe(6);
    expect(await (await fetch(`${url}/leaderboard`)).text()).toContain(
      'Demo runs (on the built-in simulator) are left out.',
    );
    const realPage = await (await fetch(`${url}/runs/${realId}`)).text();
    expect(realPage).not.toContain('class="banner"');
    expect(realPage).not.toContain('(demo)');
    // The worker removes its live notices once the run is over.
    await waitFor(() => (existsSync(path.join(cwd, 'transcripts', runId, 'live.jsonl')) ? undefined : true));
    child.kill('SIGTERM');
    expect((await result).code).toBe(0);

    const exported = await runAgora(['export', runId, '--html'], { cwd });
    expect(exported.code).toBe(0);
    const file = path.join(cwd, 'transcripts', runId, 'transcript.html');
    expect(exported.stdout).toBe(`Wrote ${file}\n`);
    const document = readFileSync(file, 'utf8');
    expect(document).toContain('Is a hot dog a sandwich?');
    expect(document).not.toContain('<script');
    expect(document).not.toContain('/assets/');
  }, 900_000);

  it('refuses to serve beyond loopback without a token, and export without --html', async () => {
    const open = await runAgora(['serve', '--bind', '0.0.0.0', '--port', '0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--bind 0.0.0.0 makes the viewer reachable from other machines');
    const short = await runAgora(['serve', '--bind', '0.0.0.0', '--token', 'short']);
    expect(short.code).toBe(2);
    const exported = await runAgora(['export', 'some-run']);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toBe(
      'agora export: add --html (transcript.md and transcript.json are already in the run folder)\n',
    );
    const missing = await runAgora(['export', 'no-such-run', '--html', '--out', tempDir()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no run "no-such-run"');
  }, 900_000);
});
