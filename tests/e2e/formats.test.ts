import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FORMAL_PLAN } from '../../src/formats/formal/formal-plan.js';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { answerLate, useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { comparable, onlyRunDir, readEvents } from '../helpers/transcripts.js';

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
  judge: { name: 'Judge', model: 'llama3' },
  stop: { judge_early_stop: false },
  ...extra,
});

type Json = Record<string, unknown>;
const readJson = (runDir: string) =>
  JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as Json;

/** The chat requests the server saw, with their messages joined, in order. */
const prompts = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => {
      const body = request.body as { messages: Array<{ content: string }>; options: { num_predict: number } };
      return {
        text: body.messages.map((message) => message.content).join('\n'),
        numPredict: body.options.num_predict,
      };
    });

describe('format: formal', () => {
  it('runs the phases in order with the context rules of seed 001, and a separate verdict', async () => {
    const server = await mock();
    const scenario = scenarioFile(formal({ verdict: { enabled: true, judge_model: 'llama3' } }));
    const result = await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Affirmative \(For the motion\): (Ada|Blaise) on (llama3|mistral); negative/,
    );
    const runDir = onlyRunDir(scenario.out);
    const statements = readEvents(runDir).filter((event) => event.type === 'statement');
    expect(statements.map((event) => `${event.phase}:${event.side}`)).toEqual(
      FORMAL_PLAN.map((item) => `${item.phase}:${item.side}`),
    );
    const whole = (phase: string, side: string) =>
      String(statements.find((event) => event.phase === phase && event.side === side)?.text);
    // The start of a statement, to find it in a prompt (the simulator's openers repeat, so a prompt
    // that must not hold a statement is checked against all of it).
    const text = (phase: string, side: string) => whole(phase, side).slice(0, 80);
    const asked = prompts(server);
    const promptFor = (index: number) => asked[index]?.text ?? '';
    // Requests follow the plan one to one (no retries here), then the verdict, asked twice (side swap).
    expect(asked).toHaveLength(FORMAL_PLAN.length + 2);
    const rebuttalAff = promptFor(4);
    expect(rebuttalAff).toContain(text('opening', 'negative'));
    expect(rebuttalAff).not.toContain(whole('preparation', 'negative'));
    // A rebuttal also sees the speaker's own opening and notes, so it builds on them instead of
    // repeating them. The judge shares llama3, so the debater on llama3 reads the public record
    // every call on that model begins with, its notes after it; the debater on mistral, its
    // model's only caller, reads its own conversation, its notes and statements as its answers.
    expect(rebuttalAff).toContain(text('opening', 'affirmative'));
    const chats = server.requests
      .filter((request) => request.path === '/api/chat')
      .map(
        (request) => request.body as { model: string; messages: Array<{ role: string; content: string }> },
      );
    const sideOn = (model: string) =>
      FORMAL_PLAN.find((_item, index) => chats[index]?.model === model)?.side as string;
    for (const [model, layout] of [
      ['llama3', 'record'],
      ['mistral', 'own'],
    ] as const) {
      const side = sideOn(model);
      const rebuttal =
        chats[FORMAL_PLAN.findIndex((item) => item.phase === 'rebuttal' && item.side === side)];
      const messages = rebuttal?.messages ?? [];
      const notes = whole('preparation', side);
      if (layout === 'record') {
        expect(messages.at(-1)?.content).toContain(notes);
        expect(messages[1]?.content).not.toContain(notes);
        expect(messages.some((message) => message.role === 'assistant')).toBe(false);
      } else {
        expect(messages.filter((message) => message.role === 'assistant').map((m) => m.content)).toEqual([
          notes.trim(),
          whole('opening', side).trim(),
        ]);
        expect(messages.at(-1)?.content).not.toContain(notes);
      }
    }
    // Every call on llama3 shares the debate so far: the next one's record begins with this one's.
    const onLlama = chats.filter((chat) => chat.model === 'llama3').slice(2, 4);
    expect(onLlama[1]?.messages[1]?.content.startsWith(onLlama[0]?.messages[1]?.content ?? '-')).toBe(true);
    expect(onLlama[1]?.messages[1]?.content.length).toBeGreaterThan(
      onLlama[0]?.messages[1]?.content.length ?? 0,
    );
    const crossQuestionAff = promptFor(6);
    expect(crossQuestionAff).toContain(text('opening', 'negative'));
    expect(crossQuestionAff).toContain(text('rebuttal', 'negative'));
    expect(promptFor(7)).toContain(text('cross-question', 'affirmative'));
    const closingNeg = promptFor(11);
    for (const event of statements.slice(2, 11))
      expect(closingNeg).toContain(String(event.text).slice(0, 80));
    expect(closingNeg).not.toContain(whole('preparation', 'affirmative'));
    // Cross-examination says who asks and who answers.
    const sides = readJson(runDir).sides as Record<'affirmative' | 'negative', { name: string }>;
    expect(closingNeg).toContain(
      `### Cross-examination: ${sides.affirmative.name} (For the motion (affirmative)) asks ${sides.negative.name}`,
    );
    expect(closingNeg).toContain(
      `### Cross-examination: ${sides.negative.name} (Against the motion (negative)) answers ${sides.affirmative.name}`,
    );
    const transcript = readJson(runDir);
    expect(transcript).toMatchObject({ format: 'formal', status: 'completed', stopReason: 'finished' });
    expect(transcript.preparation).toHaveLength(2);
    expect(transcript.statements).toHaveLength(10);
    expect(transcript.verdict).toMatchObject({
      abstained: false,
      winner: expect.stringMatching(/affirmative|negative/),
    });
  });

  it('draws sides by seed and picks two distinct models from the server when none are named', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const scenario = scenarioFile({ ...formal(), debaters: undefined });
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const sides = readJson(onlyRunDir(scenario.out)).sides as Record<string, { model: string }>;
    expect(sides.affirmative?.model).not.toBe(sides.negative?.model);
    const again = scenarioFile({ ...formal(), debaters: undefined });
    await runAgora(['run', again.file, '--host', server.url, '--out', again.out, '--json']);
    expect(readJson(onlyRunDir(again.out)).sides).toEqual(sides);
  });

  it('judges a debate started from a topic alone: its verdict names a winner, on a third model', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'run',
      '--format',
      'formal',
      '--topic',
      'Cats beat dogs',
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const transcript = readJson(onlyRunDir(out));
    const sides = transcript.sides as Record<string, { model: string }>;
    const verdict = transcript.verdict as { winner: string; judge_model?: string } | null;
    expect(verdict?.winner).toMatch(/^(affirmative|negative|tie)$/);
    const verdictEvent = readEvents(onlyRunDir(out)).find((event) => event.type === 'assessment');
    expect(verdictEvent).toMatchObject({ phase: 'verdict' });
    expect([sides.affirmative?.model, sides.negative?.model]).not.toContain(
      (verdictEvent as { model?: string } | undefined)?.model,
    );
  });

  it('refuses to start with fewer than two models, before anything is written', async () => {
    const server = await mock({ models: ['llama3'] });
    const result = await runAgora([
      'run',
      '--format',
      'formal',
      '--topic',
      'Cats beat dogs',
      '--host',
      server.url,
      '--out',
      path.join(tempDir(), 'runs'),
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/needs two different models.*only llama3/);
    expect(prompts(server)).toHaveLength(0);
  });

  it('refuses a blank topic and confirms a valid one', async () => {
    const blank = await runAgora(['run', '--format', 'formal', '--topic', '   ']);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/--topic must not be empty or only spaces/);
    // The default duel's judge runs on a third model, one neither debater uses.
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const ok = await runAgora([
      'run',
      '--format',
      'duel',
      '--topic',
      'Tea beats coffee',
      '--host',
      server.url,
      '--rounds',
      '1',
      '--out',
      path.join(tempDir(), 'runs'),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Topic accepted: "Tea beats coffee"/);
  });

  it('cuts statements to the word limit and marks them', async () => {
    const server = await mock();
    const scenario = scenarioFile(formal({ statements: { word_limit: 40 } }));
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    const statements = readEvents(onlyRunDir(scenario.out)).filter(
      (event) => event.type === 'statement' && event.phase !== 'preparation',
    );
    for (const event of statements) {
      const words = String(event.text).split(/\s+/).filter(Boolean);
      expect(words.length).toBeLessThanOrEqual(40 + 3);
      if (event.wordLimited) expect(String(event.text)).toMatch(/\[Word limit reached\]$/);
    }
    expect(statements.some((event) => event.wordLimited)).toBe(true);
  });

  it('in strict mode sends a statement the moderator rejects back once, then keeps and flags it', async () => {
    const server = await mock({
      script: [
        {
          match: { prompt: 'You moderate a formal debate' },
          json: { assessment: 'it drifts to another subject', on_topic: false, follows_conventions: true },
        },
      ],
    });
    const scenario = scenarioFile(formal({ statements: { strict_mode: true, moderator_model: 'mistral' } }));
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    const statements = readEvents(onlyRunDir(scenario.out)).filter(
      (event) => event.type === 'statement' && event.phase !== 'preparation',
    );
    expect(statements).toHaveLength(10);
    for (const event of statements)
      expect(event).toMatchObject({ regenerated: true, flagged: 'it drifts to another subject' });
    const markdown = readFileSync(path.join(onlyRunDir(scenario.out), 'transcript.md'), 'utf8');
    expect(markdown).toMatch(/flagged by the moderator: it drifts to another subject/);
    // The regeneration shows the speaker its own statement and the objection to it.
    const regenerations = server.requests
      .map((request) => request.body as { messages?: Array<{ role: string; content: string }> })
      .filter((body) =>
        body?.messages?.at(-1)?.content.startsWith('The moderator objected to that statement'),
      );
    expect(regenerations).toHaveLength(10);
    for (const body of regenerations) expect(body.messages?.at(-2)?.role).toBe('assistant');
  });

  it('resumes after kill -9 with the same transcript', async () => {
    const server = await mock({ speed: 0.05 });
    const scenario = scenarioFile(formal());
    const reference = `${scenario.out}-reference`;
    await runAgora(['run', scenario.file, '--host', server.url, '--out', reference, '--quiet']);
    const { child, result } = startAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 6);
    child.kill('SIGKILL');
    await result;
    const runDir = onlyRunDir(scenario.out);
    expect((await runAgora(['resume', runDir, '--host', server.url, '--quiet'])).code).toBe(0);
    expect(comparable(readJson(runDir) as never)).toEqual(
      comparable(readJson(onlyRunDir(reference)) as never),
    );
  });
});

describe('format: duel', () => {
  it('runs A, B, then the Judge each round, five rounds by default, with seed 000 token caps', async () => {
    const server = await mock();
    const scenario = scenarioFile(duel());
    const result = await runAgora([
      'run',
      scenario.file,
      '--host',
      server.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const events = readEvents(onlyRunDir(scenario.out));
    const steps = events
      .filter((event) => event.type === 'statement' || event.type === 'assessment')
      .map((event) => (event.type === 'statement' ? `${event.round}:${event.side}` : `${event.round}:judge`));
    expect(steps).toEqual([1, 2, 3, 4, 5].flatMap((round) => [`${round}:a`, `${round}:b`, `${round}:judge`]));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', stopReason: 'max_rounds' });
    const asked = prompts(server);
    // Each round: A, B, then the Judge twice (side swap is on by default).
    expect(asked.map((request) => request.numPredict)).toEqual(
      [1, 2, 3, 4, 5].flatMap(() => [600, 600, 400, 400]),
    );
    // Debater B hears A's statement of the same round; the Judge hears both.
    const first = events.find((event) => event.type === 'statement' && event.side === 'a');
    expect(asked[1]?.text).toContain(String(first?.text).slice(0, 80));
    expect(asked[2]?.text).toContain(String(first?.text).slice(0, 80));
    // Each debater is asked for about 60% of what its cap allows (600 tokens: about 450 words).
    expect(asked[0]?.text).toContain('Aim for about 270 words; you are cut off after about 450.');
  });

  it('stops early when the Judge finds no new arguments two rounds running', async () => {
    const server = await mock({
      script: [
        {
          match: { text: '## Your task: judge round' },
          json: {
            summary: 'Both repeated themselves.',
            stronger: 'even',
            why: 'Nothing new.',
            no_new_arguments: true,
          },
        },
      ],
    });
    const scenario = scenarioFile(duel({ stop: { judge_early_stop: true } }));
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    const transcript = readJson(onlyRunDir(scenario.out));
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'judge_early_stop' });
    expect(transcript.rounds).toHaveLength(2);
  });

  it('stops at the output-token and runtime limits', async () => {
    const server = await mock({ speed: 0.2 });
    const tokens = scenarioFile(duel({ stop: { max_total_output_tokens: 300, judge_early_stop: false } }));
    await runAgora(['run', tokens.file, '--host', server.url, '--out', tokens.out, '--quiet']);
    expect(readJson(onlyRunDir(tokens.out))).toMatchObject({ stopReason: 'max_total_output_tokens' });
    const runtime = scenarioFile(duel({ stop: { max_runtime_seconds: 1, judge_early_stop: false } }));
    await runAgora(['run', runtime.file, '--host', server.url, '--out', runtime.out, '--quiet']);
    const stopped = readJson(onlyRunDir(runtime.out));
    expect(stopped).toMatchObject({ stopReason: 'max_runtime_seconds' });
    expect((stopped.rounds as unknown[]).length).toBeLessThan(5);
  });

  it('stops on Ctrl-C after the step in flight and resumes to the same transcript', async () => {
    const server = await mock({ speed: 0.05 });
    const scenario = scenarioFile(duel({ max_rounds: 3 }));
    const reference = `${scenario.out}-reference`;
    await runAgora(['run', scenario.file, '--host', server.url, '--out', reference, '--quiet']);
    // The stopped run's last round is judged a minute late, so the run is still going when Ctrl-C
    // comes unless that is a minute late: a stop waits for the step in flight, so only a slow step
    // (not one that never answers) can hold a run that must then end by itself.
    const slowed = await mock({
      speed: 0.05,
      script: [answerLate({ prompt: '## Your task: judge round 3\n' })],
    });
    const { child, result } = startAgora([
      'run',
      scenario.file,
      '--host',
      slowed.url,
      '--out',
      scenario.out,
      '--quiet',
    ]);
    await waitForEvents(scenario.out, 4);
    child.kill('SIGINT');
    expect((await result).code).toBe(130);
    const runDir = onlyRunDir(scenario.out);
    expect(readEvents(runDir).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'stopped',
      stopReason: 'manual-stop',
    });
    expect((await runAgora(['resume', runDir, '--host', server.url, '--quiet'])).code).toBe(0);
    expect(comparable(readJson(runDir) as never)).toEqual(
      comparable(readJson(onlyRunDir(reference)) as never),
    );
  });

  it('records a Judge that cannot answer as abstaining and goes on', async () => {
    const server = await mock({
      script: [{ match: { prompt: '## Your task: judge round 1\n' }, reply: 'no json here' }],
    });
    const scenario = scenarioFile(duel({ max_rounds: 2 }));
    await runAgora(['run', scenario.file, '--host', server.url, '--out', scenario.out, '--quiet']);
    const rounds = readJson(onlyRunDir(scenario.out)).rounds as Array<{ judgement: Json }>;
    expect(rounds[0]?.judgement).toMatchObject({
      abstained: true,
      reason: expect.stringMatching(/unusable answer: the answer holds no JSON object/),
    });
    // The record keeps what the judge wrote, both times (the side-swapped call answered too).
    const judgement = readEvents(onlyRunDir(scenario.out)).find((event) => event.type === 'assessment');
    expect((judgement as { problems?: unknown[] } | undefined)?.problems).toEqual(
      Array.from({ length: 4 }, () => ({
        cause: 'not-json',
        problem: 'the answer holds no JSON object',
        raw: 'no json here',
      })),
    );
    expect(rounds[1]?.judgement).toMatchObject({ abstained: false });
  });
});
