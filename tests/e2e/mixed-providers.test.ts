import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { closedPort, runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { expectChatsSplit } from '../helpers/routing.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const KEY = 'sk-e2e-secret-4711';

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function mixedScenario(baseUrl: string) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  const scenario = testScenario({ rounds: 2, yCount: 3 });
  scenario.providers = {
    local: { type: 'openai', base_url: baseUrl, api_key_env: 'AGORA_TEST_LLM_KEY', models: ['mistral'] },
  };
  writeFileSync(file, stringify(scenario));
  return { dir, file, out: path.join(dir, 'runs') };
}

describe('a knockout with X on Ollama and the Y panel on an OpenAI-compatible server', () => {
  it('completes, routes each model to its server, fits the server’s window and keeps the key out of the run', async () => {
    // One simulator serves both APIs; its /v1 side reports a 6144-token window, in which the
    // debate fits with every statement at its cap.
    const server = await startMockOllama({ models: ['llama3', 'mistral'], contextLength: 6144 });
    servers.push(server);
    // The file points at nothing; the environment variable moves the provider to the simulator.
    const { file, out } = await mixedScenario(`http://127.0.0.1:${await closedPort()}/v1`);
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], {
      env: { AGORA_TEST_LLM_KEY: KEY, AGORA_PROVIDER_LOCAL_URL: `${server.url}/v1` },
    });
    expect(result.stderr).toContain('context window of 6144 tokens');
    expect(result.code).toBe(0);

    const ollamaChats = server.requests.filter((request) => request.path === '/api/chat');
    const openAiChats = server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(ollamaChats.length).toBeGreaterThan(0);
    expect(openAiChats.length).toBeGreaterThan(0);
    for (const request of ollamaChats) {
      expect(request.body).toMatchObject({ model: 'llama3', options: { num_ctx: 6144 } });
      expect(request.authorization).toBeUndefined();
    }
    for (const request of openAiChats) {
      expect(request.body).toMatchObject({ model: 'mistral', stream: true });
      expect(request.authorization).toBe(`Bearer ${KEY}`);
    }

    const runDir = onlyRunDir(out);
    const start = readEvents(runDir)[0] as unknown as {
      scenario: { model_options: { context_window: number } };
    };
    expect(start.scenario.model_options.context_window).toBe(6144);
    for (const name of filesUnder(runDir)) expect(readFileSync(name, 'utf8')).not.toContain(KEY);
  });

  it('a batch routes each debate’s models to the servers its scenario names, and fits that server’s window', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral'], contextLength: 6144 });
    servers.push(server);
    const { file, out } = await mixedScenario(`http://127.0.0.1:${await closedPort()}/v1`);
    const result = await runAgora(['batch', file, '--seeds', '1,2', '--host', server.url, '--out', out], {
      env: { AGORA_TEST_LLM_KEY: KEY, AGORA_PROVIDER_LOCAL_URL: `${server.url}/v1` },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('context window of 6144 tokens');
    expectChatsSplit(server, { ollama: 'llama3', openai: 'mistral', key: KEY });
    for (const name of filesUnder(out)) expect(readFileSync(name, 'utf8')).not.toContain(KEY);
  });

  it('a batch checks a routed model on its own server before it starts: a missing one is named there', async () => {
    const ollama = await startMockOllama({ models: ['llama3', 'mistral'] });
    // Two models: a llama-server serving one would answer to any name.
    const other = await startMockOllama({ models: ['llama3', 'qwen2.5'] });
    servers.push(ollama, other);
    const { file, out } = await mixedScenario(`${other.url}/v1`);
    const result = await runAgora(['batch', file, '--seeds', '1', '--host', ollama.url, '--out', out], {
      env: { AGORA_TEST_LLM_KEY: KEY },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('scenario.yaml: the server of provider "local"');
    expect(result.stderr).toContain('does not list mistral');
    expect(
      [...ollama.requests, ...other.requests].filter((request) => request.path.includes('chat')),
    ).toEqual([]);
  });

  it('refuses to start when the variable api_key_env names is not set (exit 3)', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral'] });
    servers.push(server);
    const { file, out } = await mixedScenario(`${server.url}/v1`);
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], {
      env: { AGORA_TEST_LLM_KEY: '' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /api_key_env .* names the environment variable AGORA_TEST_LLM_KEY, which is not set/,
    );
    expect(server.requests.filter((request) => request.path.includes('chat'))).toHaveLength(0);
  });

  it('doctor checks the OpenAI-compatible server: reachable, its models, each model’s window', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral'], contextLength: 6144 });
    servers.push(server);
    const { file } = await mixedScenario(`${server.url}/v1`);
    const result = await runAgora(['doctor', file, '--host', server.url], {
      env: { AGORA_TEST_LLM_KEY: KEY },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Provider local: ${server.url}/v1`);
    expect(result.stdout).toContain('✓ reachable (llamacpp)');
    expect(result.stdout).toContain('models on the server: llama3, mistral');
    expect(result.stdout).toContain('✓ mistral, context window 6144 tokens');
    expect(result.stdout).toContain('✓ llama3');
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('runs the shipped mixed-providers scenario in the demo, both APIs on the simulator', async () => {
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'demo',
      'scenarios/mixed-providers.yaml',
      '--profile',
      'instant',
      '--speed',
      '0',
      '--rounds',
      '1',
      '--out',
      out,
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed' });
  });
});

describe('every format with one agent on an OpenAI-compatible server', () => {
  const FAST = FAST_RETRIES;
  /** Each format with `mistral` (one agent or role) served by the OpenAI-compatible API, the rest by Ollama. */
  const FORMATS: Record<string, Record<string, unknown>> = Object.fromEntries(
    Object.entries(SMALL_SCENARIOS).map(([name, make]) => [
      name,
      make(
        name === 'knockout'
          ? testScenario({ rounds: 1, yCount: 3 })
          : name === 'duel'
            ? { max_rounds: 1 }
            : {},
      ),
    ]),
  );

  async function runMixed(data: Record<string, unknown>, openAiModels: string[]) {
    const server = await startMockOllama({ models: ['llama3', 'mistral'] });
    servers.push(server);
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(
      file,
      stringify({
        seed: 3,
        reliability: FAST,
        ...data,
        providers: { local: { type: 'openai', base_url: `${server.url}/v1`, models: openAiModels } },
      }),
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    return { server, result, runDir: onlyRunDir(out) };
  }

  it.each(Object.keys(FORMATS))('%s completes with mistral on the OpenAI-compatible API', async (format) => {
    const { server, result } = await runMixed(FORMATS[format] as Record<string, unknown>, ['mistral']);
    expect(result.code).toBe(0);
    const openAi = server.requests.filter((request) => request.path === '/v1/chat/completions');
    const ollama = server.requests.filter((request) => request.path === '/api/chat');
    expect(openAi.length).toBeGreaterThan(0);
    expect(ollama.length).toBeGreaterThan(0);
    for (const request of openAi) expect(request.body).toMatchObject({ model: 'mistral' });
    for (const request of ollama) expect(request.body).toMatchObject({ model: 'llama3' });
  });

  it('a council on two provider combinations gives Final Packets of the same schema', async () => {
    const packets = [];
    for (const openAiModels of [['mistral'], ['llama3']]) {
      const { result, runDir } = await runMixed(FORMATS.council as Record<string, unknown>, openAiModels);
      expect(result.code).toBe(0);
      packets.push(
        JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')) as Record<string, unknown>,
      );
    }
    const [first, second] = packets;
    expect(Object.keys(second ?? {}).sort()).toEqual(Object.keys(first ?? {}).sort());
    const { finalPacketSchema } = await import('../../src/formats/council/packet-schema.js');
    for (const packet of packets) finalPacketSchema.parse(packet);
  });
});
