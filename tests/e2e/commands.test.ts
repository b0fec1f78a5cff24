import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { closedPort, projectRoot, runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { waitForEvents } from '../helpers/mock-servers.js';
import { onlyRunDir, readTranscript } from '../helpers/transcripts.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('agora doctor', () => {
  it('reports the server version and the scenario models, present and missing', async () => {
    const server = await startMockOllama({ models: ['llama3'] });
    servers.push(server);
    const result = await runAgora(['doctor', 'scenarios/abortion.yaml', '--host', server.url]);
    expect(result.code).toBe(5);
    expect(result.stdout).toMatch(/✓ reachable, Ollama version/);
    expect(result.stdout).toMatch(/✓ llama3/);
    expect(result.stdout).toMatch(/✗ mistral is missing: run `ollama pull mistral`/);
  });

  it('suggests the model the server has for a misspelt one, as run does', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral', 'qwen2.5'] });
    servers.push(server);
    const file = path.join(tempDir(), 'misspelt.yaml');
    writeFileSync(
      file,
      readFileSync(path.join(projectRoot, 'scenarios', 'duel-remote-work.yaml'), 'utf8').replaceAll(
        'model: mistral',
        'model: mistrl',
      ),
    );
    const result = await runAgora(['doctor', file, '--host', server.url]);
    expect(result.code).toBe(5);
    expect(result.stdout).toContain(
      '✗ mistrl is missing: did you mean mistral, which the server has? Correct the scenario, or run `ollama pull mistrl`',
    );
  });

  it('exits 0 when everything is there, reading OLLAMA_HOST', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral'] });
    servers.push(server);
    const result = await runAgora(['doctor', 'scenarios/god-exists.yaml'], {
      env: { OLLAMA_HOST: server.url },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Ollama host: ${server.url}`);
  });

  it('exits 4 when Ollama is unreachable and points to the demo', async () => {
    const result = await runAgora(['doctor', '--host', `127.0.0.1:${await closedPort()}`]);
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/not reachable.*ECONNREFUSED/);
    expect(result.stdout).toMatch(/npm run demo/);
  });
});

describe('agora demo', () => {
  it('runs a debate on the built-in simulator and says that the text is simulated', async () => {
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora(['demo', '--rounds', '1', '--speed', '0', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/built-in Ollama simulator/);
    expect(result.stdout).toMatch(/Round 1 · Avery Morgan \(Position X, Pro-Choice\) · llama3/);
    const transcript = readTranscript(onlyRunDir(out));
    expect(transcript.status).toBe('completed');
    expect(transcript.rounds[0]?.statements[0]?.text.length).toBeGreaterThan(100);
  });

  it('switches topic with --topic and prints a JSON summary with --json', async () => {
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'demo',
      '--rounds',
      '1',
      '--speed',
      '0',
      '--out',
      out,
      '--json',
      '--topic',
      'Should voting be compulsory?',
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { status: string; runDir: string };
    expect(summary.status).toBe('completed');
    expect(readTranscript(summary.runDir).topic).toBe('Should voting be compulsory?');
    expect(readdirSync(out)[0]).toMatch(/should-voting-be-compulsory/);
  });
});

describe('agora resume --demo', () => {
  it('continues an interrupted demo run on the simulator, and says so', async () => {
    const out = path.join(tempDir(), 'runs');
    const { child, result } = startAgora(['demo', '--rounds', '2', '--speed', '1', '--out', out, '--quiet']);
    // At full speed the rest of the debate takes the simulator five times as long as at 0.2 (many
    // seconds), and the kill must come before its end: the built-in simulator takes no script to hold
    // a call, so a wide margin is what there is.
    await waitForEvents(out, 3);
    child.kill('SIGKILL');
    await result;
    const resumed = await runAgora(['resume', onlyRunDir(out), '--demo', '--quiet']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/resuming on Agora's built-in Ollama simulator/);
    expect(readTranscript(onlyRunDir(out)).status).toBe('completed');
    // The log says which segments the simulator spoke.
    const marks = readFileSync(path.join(onlyRunDir(out), 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; simulated?: boolean })
      .filter((event) => event.type === 'run-start' || event.type === 'run-resume')
      .map((event) => `${event.type}:${event.simulated === true}`);
    expect(marks).toEqual(['run-start:true', 'run-resume:true']);
  });
});

describe('agora mock-ollama', () => {
  it('serves the Ollama API until interrupted', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'mock-ollama', '--port', '0', '--context-length', '2048'],
      {
        cwd: projectRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const found = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
        if (found) resolve(found[0]);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: Array<{ name: string }> };
    expect(tags.models.map((model) => model.name)).toContain('llama3:latest');
    // The same server speaks the OpenAI-compatible API, with the window it was given (as llama-server lists it).
    const openAi = (await (await fetch(`${url}/v1/models`)).json()) as {
      data: Array<{ id: string; meta: { n_ctx: number } }>;
    };
    expect(openAi.data).toContainEqual(
      expect.objectContaining({ id: 'llama3', meta: expect.objectContaining({ n_ctx: 2048 }) }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('refuses an unknown profile with the usage exit code', async () => {
    const result = await runAgora(['mock-ollama', '--profile', 'tpu']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--profile must be one of instant, gpu, gpu-small, cpu/);
  });
});

describe('agora usage errors', () => {
  it('refuses an unknown option and an unknown command with exit code 2', async () => {
    const option = await runAgora(['run', 'scenarios/abortion.yaml', '--rounds-typo', '3']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/Unknown option '--rounds-typo'/);
    const command = await runAgora(['debait']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "debait"/);
  });

  it('refuses a non-numeric --rounds', async () => {
    const result = await runAgora(['run', 'scenarios/abortion.yaml', '--rounds', 'six']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--rounds must be a whole number from 1 to 50, got "six"/);
  });
});

describe('agora output', () => {
  it('lists no runs, exit 0, for a runs folder that does not exist yet, and creates nothing', async () => {
    const missing = path.join(tempDir(), 'not-yet');
    const result = await runAgora(['runs', '--out', missing]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No runs/);
    expect(existsSync(missing)).toBe(false);
  });

  it('ends quietly when the reader of its output has gone', async () => {
    const { child, result } = startAgora(['help']);
    // The reading end closes before the help text is written.
    child.stdout?.destroy();
    const { code, stderr } = await result;
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|at .*\(/);
  });
});
