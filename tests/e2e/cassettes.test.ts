/**
 * Cassettes: a run recorded with --record is served back by the simulator, and the replay gives the
 * identical transcript; a changed prompt fails the replay with the call and message that differ.
 *
 * The shipped cassette is recorded from the simulator (the same as `agora mock-ollama --models
 * llama3,mistral --profile gpu --speed 0.02`, then `agora run .../scenario.yaml --seed 11 --record
 * .../calls`) by `tsx scripts/record-cassette-fixture.ts`, again after any change to what the
 * engine sends.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { projectRoot, runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';
import { comparable, onlyRunDir, readTranscript } from '../helpers/transcripts.js';

const fixture = path.join(projectRoot, 'tests', 'fixtures', 'cassettes', 'knockout-short');
const scenarioFile = path.join(fixture, 'scenario.yaml');
const calls = path.join(fixture, 'calls');
const expected = JSON.parse(readFileSync(path.join(fixture, 'expected-transcript.json'), 'utf8'));

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: Parameters<typeof startMockOllama>[0] = {}) {
  const server = await startMockOllama(options);
  servers.push(server);
  return server;
}

const run = (host: string, out: string, ...more: string[]) =>
  runAgora(['run', scenarioFile, '--seed', '11', '--host', host, '--out', out, '--quiet', ...more]);

describe('cassettes', () => {
  it('replays the shipped knockout cassette into the identical transcript', async () => {
    const server = await serve({ cassette: { dir: calls } });
    const out = path.join(tempDir(), 'runs');
    const result = await run(server.url, out);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(comparable(readTranscript(onlyRunDir(out)))).toEqual(expected);
    const chats = server.requests.filter((request) => request.path === '/api/chat');
    expect(chats.map((request) => request.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('replays for every run that matches, one after another and at once, not once per server', async () => {
    const server = await serve({ cassette: { dir: calls } });
    const dir = tempDir();
    const first = await run(server.url, path.join(dir, 'first'));
    expect(first.code).toBe(0);
    const [second, third] = await Promise.all([
      run(server.url, path.join(dir, 'second')),
      run(server.url, path.join(dir, 'third')),
    ]);
    expect([second.code, third.code]).toEqual([0, 0]);
    for (const name of ['first', 'second', 'third']) {
      expect(comparable(readTranscript(onlyRunDir(path.join(dir, name))))).toEqual(expected);
    }
    const chats = server.requests.filter((request) => request.path === '/api/chat');
    expect(chats).toHaveLength(15);
    expect(chats.every((request) => request.status === 200)).toBe(true);
  });

  it('refuses a call file that is a device or a named pipe with exit 2, without reading it', async () => {
    for (const make of [
      (file: string) => symlinkSync('/dev/zero', file),
      (file: string) => execFileSync('mkfifo', [file]),
    ]) {
      const cassette = path.join(tempDir(), 'cassette');
      cpSync(calls, cassette, { recursive: true });
      const broken = path.join(cassette, '0002.json');
      rmSync(broken);
      make(broken);
      const result = await runAgora(['mock-ollama', '--port', '0', '--cassette', cassette]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--cassette: ${broken} is a`);
      expect(result.stderr).toMatch(
        /is a (device|named pipe), not a cassette call; .*record the cassette again/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('fails the replay of a changed topic, naming the call and the message that differ', async () => {
    const server = await serve({ cassette: { dir: calls } });
    const out = path.join(tempDir(), 'runs');
    const result = await run(server.url, out, '--topic', 'Should towns ban cars from their centres?');
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('cassette call 1 does not match this request');
    const first = server.requests.find((request) => request.path === '/api/chat');
    expect(first?.status).toBe(400);
    const { failures } = readTranscript(onlyRunDir(out)) as unknown as { failures: string[] };
    expect(failures[0]).toContain(
      'cassette call 1 does not match this request: messages[0] (system) differs at character 60: expected "…een AI agents.\\nMotion: Should cities ban cars from their cen…", received "…een AI agents.\\nMotion: Should towns ban cars from their cent…"',
    );
    // Yara's statement is compared with the recorded statement of her model, not with call 1
    // (mistral reads the rules as its first user message: its template would move a system message).
    expect(failures[1]).toContain('cassette call 2 does not match this request: messages[0] (user) differs');
  });

  it('serves the recording whatever was asked with order any', async () => {
    const server = await serve({ cassette: { dir: calls, order: 'any' } });
    const out = path.join(tempDir(), 'runs');
    const result = await run(server.url, out, '--topic', 'Should towns ban cars from their centres?');
    expect(result.code).toBe(0);
    const statements = readTranscript(onlyRunDir(out)).rounds[0]?.statements.map((item) => item.text);
    expect(statements).toEqual(expected.rounds[0].statements.map((item: { text: string }) => item.text));
  });

  it('records a run with --record and replays it with `agora mock-ollama --cassette` at the recorded pace', async () => {
    // Slow enough that each answer's pieces arrive in several reads, on a busy machine too: only a
    // stall of the recording process longer than a whole answer (120 tokens at 110 a second, about a
    // second here) could merge them into one read. The simulator cannot wait for its reader, so a
    // margin it is.
    const simulator = await serve({ models: ['llama3', 'mistral'], profile: 'gpu', speed: 1 });
    const dir = tempDir();
    const cassette = path.join(dir, 'cassette');
    const recorded = await run(simulator.url, path.join(dir, 'first'), '--record', cassette);
    expect(recorded.code).toBe(0);
    expect(recorded.stderr + recorded.stdout).toContain(`Recorded 5 model calls into ${cassette}/`);
    const first = JSON.parse(readFileSync(path.join(cassette, '0001.json'), 'utf8'));
    expect(first).toMatchObject({
      cassette: 1,
      call: 1,
      api: 'ollama',
      status: 200,
      request: { model: 'llama3', options: { num_predict: 120, temperature: 0.7, seed: expect.any(Number) } },
    });
    expect(first.chunks.length).toBeGreaterThan(1);
    expect(first.chunks.at(-1).ms).toBeGreaterThan(first.chunks[0].ms);

    const replay = startAgora(
      ['mock-ollama', '--port', '0', '--cassette', cassette, '--cassette-speed', 'recorded'],
      { timeoutMs: 600_000 },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        replay.child.stdout?.on('data', (chunk) => {
          seen += chunk;
          const found = /listening on (http:\/\/\S+) \(cassette /.exec(seen);
          if (found?.[1]) resolve(found[1]);
        });
        replay.result.then((ended) => reject(new Error(`mock-ollama ended: ${ended.stderr}`)), reject);
      });
      const second = path.join(dir, 'second');
      const replayed = await run(url, second);
      expect(replayed.code).toBe(0);
      expect(comparable(readTranscript(onlyRunDir(second)))).toEqual(
        comparable(readTranscript(onlyRunDir(path.join(dir, 'first')))),
      );
    } finally {
      replay.child.kill('SIGTERM');
      await replay.result;
    }
  });

  it('keeps the API key out of a cassette of an OpenAI-compatible server, and replays that API too', async () => {
    const key = 'sk-cassette-secret-0815';
    const simulator = await serve({ models: ['llama3', 'mistral'] });
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    const scenario = testScenario({ rounds: 1, yCount: 2, maxTokens: 100 });
    const local = { type: 'openai', api_key_env: 'AGORA_TEST_LLM_KEY', models: ['mistral'] };
    scenario.providers = {
      local: {
        type: 'openai',
        base_url: `${simulator.url}/v1`,
        api_key_env: 'AGORA_TEST_LLM_KEY',
        models: ['mistral'],
      },
    };
    writeFileSync(file, stringify(scenario));
    const cassette = path.join(dir, 'cassette');
    const env = { AGORA_TEST_LLM_KEY: key };
    const args = ['run', file, '--host', simulator.url, '--quiet', '--record', cassette];
    const recorded = await runAgora([...args, '--out', path.join(dir, 'first')], { env });
    expect(recorded.code).toBe(0);
    expect(simulator.requests.some((request) => request.authorization === `Bearer ${key}`)).toBe(true);
    const files = readdirSync(cassette);
    const apis = files.map((name) => JSON.parse(readFileSync(path.join(cassette, name), 'utf8')).api);
    expect(apis).toContain('openai');
    expect(apis).toContain('ollama');
    for (const name of files) expect(readFileSync(path.join(cassette, name), 'utf8')).not.toContain(key);

    const replay = await serve({ cassette: { dir: cassette } });
    writeFileSync(
      file,
      stringify({
        ...scenario,
        providers: { local: { ...local, base_url: `${replay.url}/v1` } },
      }),
    );
    const replayed = await runAgora(
      ['run', file, '--host', replay.url, '--quiet', '--out', path.join(dir, 'second')],
      { env },
    );
    expect(replayed.code).toBe(0);
    const chats = replay.requests.filter((request) => request.path.endsWith('chat/completions'));
    expect(chats.length).toBeGreaterThan(0);
    expect(chats.every((request) => request.status === 200)).toBe(true);
  });

  it('refuses to record into a folder that is not empty (exit 2)', async () => {
    const simulator = await serve({ models: ['llama3', 'mistral'] });
    const dir = tempDir();
    writeFileSync(path.join(dir, 'notes.txt'), 'keep me');
    const result = await run(simulator.url, path.join(dir, 'runs'), '--record', dir);
    expect(result.stderr).toContain(`--record ${dir}: the folder is not empty`);
    expect(result.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });
});
