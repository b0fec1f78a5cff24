/**
 * The prompts as a 7-8B model reads them: the request bodies the engine actually sends, recorded by
 * the simulator. Judges get a judge's instruction, the rubric shared before their own task, reasoning
 * before the vote, a low temperature; debaters are asked for a length that fits their cap.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readTranscript } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

interface ChatBody {
  think?: boolean;
  model: string;
  messages: Array<{ role: string; content: string }>;
  format?: { properties: Record<string, unknown> };
  options: { temperature: number; num_predict: number };
}

const bodies = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);

const isJudge = (body: ChatBody) =>
  body.format !== undefined && /evaluate round/.test(body.messages.at(-1)?.content ?? '');

async function runKnockout(server: MockOllama, options: Parameters<typeof testScenario>[0] = {}) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(testScenario({ rounds: 1, ...options })));
  const out = path.join(dir, 'runs');
  const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
  return { result, runDir: onlyRunDir(out) };
}

describe('judges who judge', () => {
  it('a judge gets a judge’s instruction, the shared rubric before its task, reasoning first and a low temperature', async () => {
    const server = await mock();
    const { result } = await runKnockout(server);
    expect(result.code).toBe(0);
    const judges = bodies(server).filter(isJudge);
    expect(judges).toHaveLength(3);
    for (const body of judges) {
      const all = body.messages.map((message) => message.content).join('\n');
      expect(all).not.toMatch(/Speak as a debater|firmly defending/);
      // The judge's instruction ends the rubric the three judges share; its own task names it.
      expect(body.messages.at(-2)?.content).toMatch(/You are a judge now, not a debater[^\n]*$/);
      expect(body.messages.at(-1)?.content).toMatch(/^## Your task: evaluate round 1\nYour name: \w+\n/);
      expect(body.options.temperature).toBe(0.2);
      // The model writes its comments before its scores and its vote; the engine fills the round.
      expect(Object.keys(body.format?.properties ?? {})).toEqual([
        'comments',
        'position_y_performance',
        'new_arguments',
        'continue_vote',
      ]);
    }
    // Everything but the judge's own task is byte-identical across the three judges: the rubric is
    // in the shared prefix that Ollama's cache reuses.
    const prefixes = judges.map((body) => JSON.stringify(body.messages.slice(0, -1)));
    expect(new Set(prefixes).size).toBe(1);
    // The criteria stand in the rules at the start of every prompt; the rubric points to them.
    expect(judges[0]?.messages[0]?.content).toMatch(
      /## How the debating Position Y agent is judged\n[^\n]*\n- argument_strength \(weight 0\.4\)/,
    );
    expect(judges[0]?.messages.at(-2)?.content).toContain(
      'Score each criterion from 1 (poor) to 5 (excellent) by its guide under "How the debating Position Y agent is judged" at the top.',
    );
    expect(judges[0]?.messages.at(-2)?.content).not.toMatch(/\(weight/);
    const tasks = judges.map((body) => body.messages.at(-1)?.content ?? '');
    for (const task of tasks) expect(task.length).toBeLessThan(100);
  });

  it('a vote that contradicts the judge’s own scores is kept, flagged and counted', async () => {
    const low = {
      comments: 'Weak evidence and a confused structure.',
      position_y_performance: { argument_strength: 2, relevance: 2, persuasiveness: 2, clarity: 2 },
      new_arguments: true,
      continue_vote: true,
    };
    const server = await mock({
      script: [{ match: { regex: 'evaluate round 1\\nYour name: Yusuf\\n' }, json: low }],
    });
    const { result, runDir } = await runKnockout(server);
    expect(result.code).toBe(0);
    const transcript = readTranscript(runDir);
    const yusuf = transcript.rounds[0]?.evaluations.find((item) => item.judge === 'Yusuf') as
      | { continue_vote: boolean; inconsistent?: boolean }
      | undefined;
    expect(yusuf).toMatchObject({ continue_vote: true, inconsistent: true });
    const stats = transcript.stats.agents.find((agent) => agent.name === 'Yusuf') as {
      inconsistentVotes: number;
    };
    expect(stats.inconsistentVotes).toBe(1);
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toMatch(
      /continue ⚠ against its own scores/,
    );
  });
});

describe('statements that fit their time', () => {
  it('a debater is asked for a length well inside its token cap, and truncation is counted per agent', async () => {
    const server = await mock();
    const { result, runDir } = await runKnockout(server, { maxTokens: 400 });
    expect(result.code).toBe(0);
    const debater = bodies(server).find((body) => body.format === undefined && body.model === 'llama3');
    const task = debater?.messages.at(-1)?.content ?? '';
    const [, aim, most] = /Aim for about (\d+) words; you are cut off after about (\d+)/.exec(task) ?? [];
    expect(Number(most)).toBe(300);
    expect(Number(aim)).toBeLessThanOrEqual(0.6 * 300);
    expect(debater?.options.num_predict).toBe(400);
    const stats = readTranscript(runDir).stats.agents.find((agent) => agent.name === 'Xavier') as {
      truncatedTurns: number;
      truncationRate: number;
    };
    expect(stats.truncationRate).toEqual(expect.any(Number));
    expect(stats.truncatedTurns).toBeGreaterThanOrEqual(0);
  });
});

describe('thinking models', () => {
  it('thinking never reaches the transcript or another prompt, and uses no speaking time', async () => {
    const thought = 'PRIVATE-REASONING-7731 about how to frame the opening';
    const speech =
      'Car-free centres cut pollution and give streets back to people, as the trial cities show clearly.';
    const server = await mock({
      script: [
        { match: { text: 'round 1 of 2', model: 'llama3' }, reply: `<think>${thought}</think>\n\n${speech}` },
      ],
    });
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    const data = testScenario({ rounds: 2 });
    (data.agents as Array<Record<string, unknown>>)[0] = {
      ...(data.agents as Array<Record<string, unknown>>)[0],
      think: true,
    };
    writeFileSync(file, stringify(data));
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const x1 = readTranscript(runDir).rounds[0]?.statements.find(
      (statement) => statement.agent === 'Xavier',
    ) as {
      text: string;
      outputTokens: number;
      thinkingTokens: number;
      simulatedSeconds: number;
    };
    expect(x1.text).toBe(speech);
    expect(x1.thinkingTokens).toBeGreaterThan(5);
    expect(x1.simulatedSeconds).toBeCloseTo((x1.outputTokens - x1.thinkingTokens) / 3.75, 1);
    for (const name of ['events.jsonl', 'transcript.json', 'transcript.md'])
      expect(readFileSync(path.join(runDir, name), 'utf8')).not.toContain('PRIVATE-REASONING');
    const sent = bodies(server);
    expect(sent.some((body) => JSON.stringify(body.messages).includes('PRIVATE-REASONING'))).toBe(false);
    expect(sent.filter((body) => body.model === 'llama3' && body.format === undefined)[0]).toMatchObject({
      think: true,
    });
    expect(sent.find((body) => body.model === 'mistral')).toMatchObject({ think: false });
  });
});

describe('thinking models in the other formats', () => {
  it('a duel debater with think: true thinks, and its thinking is kept out of the record and the prompts', async () => {
    const server = await mock({
      script: [
        {
          match: { model: 'llama3' },
          reply:
            '<think>PRIVATE-DUEL-THOUGHT weighing the commute data</think>\n\nRemote work saves two hours a day.',
        },
      ],
    });
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(
      file,
      stringify({
        format: 'duel',
        topic: 'Remote work is better than the office',
        seed: 5,
        debaters: {
          a: { name: 'Ada', model: 'llama3', think: true },
          b: { name: 'Blaise', model: 'mistral' },
        },
        judge: { name: 'Judge', model: 'mistral' },
        max_rounds: 1,
        stop: { judge_early_stop: false },
      }),
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    for (const name of ['events.jsonl', 'transcript.json', 'transcript.md'])
      expect(readFileSync(path.join(runDir, name), 'utf8')).not.toContain('PRIVATE-DUEL-THOUGHT');
    const sent = bodies(server);
    expect(sent.some((body) => JSON.stringify(body.messages).includes('PRIVATE-DUEL-THOUGHT'))).toBe(false);
    expect(sent.filter((body) => body.model === 'llama3').every((body) => body.think === true)).toBe(true);
    expect(sent.filter((body) => body.model === 'mistral').every((body) => body.think === false)).toBe(true);
    const ada = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((event) => event.type === 'statement' && event.speaker === 'Ada');
    expect(ada?.text).toBe('Remote work saves two hours a day.');
    expect(Number(ada?.thinkingTokens)).toBeGreaterThan(3);
  });
});
