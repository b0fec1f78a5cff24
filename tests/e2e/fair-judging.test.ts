import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

const FAST = {
  attempts: 2,
  backoff_ms: 5,
  max_backoff_ms: 10,
  request_timeout_seconds: 60,
  max_consecutive_failures: 3,
};

function scenarioFile(data: Record<string, unknown>) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST, ...data }));
  return { file, out: path.join(dir, 'runs') };
}

const formal = (extra: Record<string, unknown> = {}) => ({
  format: 'formal',
  topic: 'This house would ban private cars from city centres',
  seed: 3,
  debaters: [
    { name: 'Ada', model: 'llama3' },
    { name: 'Blaise', model: 'mistral' },
  ],
  ...extra,
});

const duel = (extra: Record<string, unknown> = {}) => ({
  format: 'duel',
  topic: 'Remote work is better than the office',
  seed: 5,
  debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
  judge: { name: 'Judge', model: 'qwen2.5' },
  max_rounds: 1,
  stop: { judge_early_stop: false },
  ...extra,
});

type Json = Record<string, unknown>;
const readJson = (runDir: string) =>
  JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as Json;

/** The chat requests the server saw: model and the messages joined. */
const chats = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => {
      const body = request.body as { model: string; messages: Array<{ content: string }> };
      return { model: body.model, text: body.messages.map((message) => message.content).join('\n') };
    });

const run = (server: MockOllama, scenario: { file: string; out: string }) =>
  runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);

describe('impartial judges', () => {
  it('gives the formal verdict to a model neither debater uses, when the server has one', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const scenario = scenarioFile(formal({ verdict: { enabled: true } }));
    const result = await run(server, scenario);
    expect(result.code).toBe(0);
    const verdictCalls = chats(server).filter((chat) => chat.text.includes('## Your task: the verdict'));
    expect(verdictCalls.map((chat) => chat.model)).toEqual(['qwen2.5']);
    expect(readJson(onlyRunDir(scenario.out)).verdict).toMatchObject({ model: 'qwen2.5' });
    expect(result.stderr).not.toMatch(/its verdicts may favour its own side/);
  });

  it('warns once when the formal judge must share a debater model', async () => {
    const server = await mock({ models: ['llama3', 'mistral'] });
    const scenario = scenarioFile(formal({ verdict: { enabled: true } }));
    const result = await run(server, scenario);
    expect(result.code).toBe(0);
    const warnings = result.stderr.match(/warning: the judge uses \S+, which also debates as \S+;/g) ?? [];
    expect(warnings).toHaveLength(1);
    const verdict = readJson(onlyRunDir(scenario.out)).verdict as Json;
    const sides = readJson(onlyRunDir(scenario.out)).sides as Record<string, { name: string; model: string }>;
    const twin = Object.values(sides).find((side) => side.model === verdict.model);
    expect(result.stderr).toContain(
      `warning: the judge uses ${verdict.model}, which also debates as ${twin?.name}; its verdicts may favour its own side`,
    );
  });

  it('warns when a duel names a debater model as its judge, and not otherwise', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const shared = await run(server, scenarioFile(duel({ judge: { name: 'Judge', model: 'llama3' } })));
    expect(shared.code).toBe(0);
    expect(shared.stderr).toContain(
      'warning: the judge uses llama3, which also debates as Ada; its verdicts may favour its own side',
    );
    const apart = await run(server, scenarioFile(duel()));
    expect(apart.code).toBe(0);
    expect(apart.stderr).not.toMatch(/may favour its own side/);
  });
});
