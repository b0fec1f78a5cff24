import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, projectRoot, startAgora, tempDir } from '../helpers/cli.js';
import { answerLate, useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { testScenarioYaml } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

/** A printed command run as a user pastes it: through a shell, from the project's folder. */
function inShell(command: string, env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the command a stopped run prints to continue it', () => {
  it('names the --host the run was started with, and works as printed', async () => {
    // Round 2's first judge answers a minute late, so the run is still going when Ctrl-C comes unless
    // that is a minute late (a stop waits for the step in flight: a call that never answered would
    // hold it for ever). The resume then finds a server without that delay on the same port.
    const slowed = await mock({
      speed: 0.05,
      script: [answerLate({ text: '## Your task: evaluate round 2\n' })],
    });
    const dir = tempDir();
    const file = path.join(dir, 'debate.yaml');
    writeFileSync(file, testScenarioYaml({ rounds: 2 }));
    const out = path.join(dir, 'runs');
    const port = new URL(slowed.url).port;
    // Nothing listens where OLLAMA_HOST points: only --host reaches the server.
    const env = { OLLAMA_HOST: 'http://127.0.0.1:1' };
    const { child, result } = startAgora(['run', file, '--host', `:${port}`, '--out', out, '--quiet'], {
      env,
    });
    await waitForEvents(out, 4);
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    const command = stopped.stdout.match(/Continue with: (npm run agora -- resume .*)$/m)?.[1] ?? '';
    const runDir = onlyRunDir(out);
    expect(command).toBe(`npm run agora -- resume ${runDir} --host http://127.0.0.1:${port}`);
    await slowed.close();
    await mock({ speed: 0.05, port: Number(port) });

    const resumed = await inShell(command, env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readEvents(runDir).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  }, 900_000);
});
