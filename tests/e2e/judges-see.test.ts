/**
 * Judges that see what they judge, read from the requests the mock server recorded: long debates
 * reach the judge as summaries of the earlier rounds and the newest round verbatim (never the
 * window's omission marker), side-swapped calls measure the model's real characters per token, and
 * numbers a grammar let through outside their bounds are held to them rather than abstained on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { TIME_LIMIT_MARKER } from '../../src/timer/speaking-timer.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { longTurnRules } from '../helpers/long-turns.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

/** Servers started here with settings the shared helper does not take (a cost profile, vocabularies). */
const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function server(options: Parameters<typeof startMockOllama>[0]) {
  const started = await startMockOllama(options);
  servers.push(started);
  return started;
}

/** The window fitter's mark where it cut a prompt. */
const OMITTED = OMITTED_MARKER;

/** Characters per token over `events` of `model` that recorded a call the server counted. */
function rateOf(events: Array<Record<string, unknown>>, model: string): number {
  let chars = 0;
  let tokens = 0;
  for (const event of events) {
    if (event.model !== model || typeof event.promptTokens !== 'number' || !(event.promptTokens > 0))
      continue;
    chars += Number(event.promptChars);
    tokens += event.promptTokens;
  }
  return chars / tokens;
}

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

async function run(server: MockOllama, data: Record<string, unknown>) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST_RETRIES, ...data }));
  const out = path.join(dir, 'runs');
  const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], {
    timeoutMs: 600_000,
  });
  return { result, runDir: onlyRunDir(out), out };
}

describe('numbers a grammar let through', () => {
  it('holds a council confidence below 0 to its bound, counts it, and no role abstains', async () => {
    const server = await mock({
      script: [
        {
          match: { regex: '## Your task: round [13] as the' },
          json: {
            revision: 'Nothing changed.',
            rationale: 'The move is cheaper over three years.',
            claim: 'Move the billing database.',
            risks: ['Downtime during the switch.'],
            stance: 'for',
            confidence: -0.2,
          },
        },
      ],
    });
    const { result, runDir, out } = await run(server, SMALL_SCENARIOS.council?.() ?? {});
    expect(result.code).toBe(0);
    const positions = readEvents(runDir).filter(
      (event) => event.type === 'assessment' && (event.phase === 'round-1' || event.phase === 'round-3'),
    );
    expect(positions).toHaveLength(8);
    for (const position of positions) {
      expect(position).toMatchObject({
        abstained: false,
        result: { confidence: 0 },
        clamped: [{ field: 'confidence', given: -0.2, kept: 0 }],
      });
      // Read at once: the number did not cost a second call.
      expect(position.attempts).toBe(1);
    }
    const report = await runAgora(['leaderboard', '--out', out, '--table', 'reliability', '--json']);
    const [table] = JSON.parse(report.stdout) as Array<{ rows: Array<Record<string, unknown>> }>;
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ Model: 'llama3', 'Answer kind': 'council position', 'Numbers clamped': 6 }),
    );
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ Model: 'mistral', 'Answer kind': 'council position', 'Numbers clamped': 2 }),
    );
  });
});

describe('formal time limits', () => {
  it('a server slower than the time limit: each speech is cut where the time ran out, kept and marked', async () => {
    // Twenty tokens a second in real time: a 400-token statement would take 20 s, the limit is 3 s.
    const slow = await server({
      models: ['llama3', 'mistral'],
      profile: {
        name: 'slow',
        prefillTokensPerSecond: 100_000,
        decodeTokensPerSecond: 20,
        loadSeconds: 0,
        maxLoadedModels: 2,
        parallel: 2,
      },
      speed: 1,
    });
    const { result, runDir } = await run(
      slow,
      SMALL_SCENARIOS.formal?.({
        model_options: { max_tokens: 400 },
        preparation: { max_tokens: 400 },
        statements: { time_limit_seconds: 3 },
      }) ?? {},
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const events = readEvents(runDir);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const statements = events.filter((event) => event.type === 'statement');
    expect(statements.length).toBeGreaterThanOrEqual(10);
    for (const statement of statements) {
      // Kept (never an emergency response), asked once, cut and marked.
      expect(statement).toMatchObject({ timeLimited: true, truncated: true, attempts: 1 });
      expect(statement.degraded).toBeUndefined();
      const text = String(statement.text);
      expect(text.endsWith(TIME_LIMIT_MARKER)).toBe(true);
      expect(text.length).toBeGreaterThan(TIME_LIMIT_MARKER.length + 20);
    }
    // No statement was asked for twice: the time limit cuts, it does not retry.
    const chats = slow.requests.filter((request) => request.path === '/api/chat');
    expect(chats).toHaveLength(statements.length);
  });
});

const bodies = (mockServer: MockOllama) =>
  mockServer.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);
const task = (body: ChatBody) => body.messages.at(-1)?.content ?? '';
const whole = (body: ChatBody) => body.messages.map((message) => message.content).join('\n');

describe('the duel judge sees the rounds it judges', () => {
  const duel = {
    format: 'duel',
    topic: 'Remote work is better for knowledge workers than working in an office',
    seed: 99,
    positions: { a: 'Remote work is better', b: 'The office is better' },
    debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
    // The judge shares a debater's model, so its rate can be compared with that model's statements.
    judge: { name: 'Judge', model: 'llama3' },
    max_rounds: 5,
    stop: { judge_early_stop: false, max_total_output_tokens: 40_000 },
    debater_max_tokens: 900,
    judge_max_tokens: 400,
  };

  for (const vocabulary of ['standard', 'small'] as const) {
    it(`5 rounds of 350-650-word turns, the judge on a ${vocabulary} vocabulary: no judge prompt is cut, and the side-swapped rate is the model's`, async () => {
      const mockServer = await server({
        models: ['llama3', 'mistral'],
        // A debater on a model of its own reads what was said since its last turn before its task.
        script: longTurnRules('/^Your name: (Ada|Blaise)$/m', 10),
        vocabularies: { llama3: vocabulary },
      });
      // A small vocabulary spends about twice the tokens on the same words: the cap follows.
      const { result, runDir } = await run(mockServer, {
        ...duel,
        debater_max_tokens: vocabulary === 'small' ? 2000 : 900,
      });
      expect(result.code).toBe(0);
      const sent = bodies(mockServer);
      const judges = sent.filter((body) => /^## Your task: judge round/.test(task(body)));
      // Side swap is on by default: two calls a round.
      expect(judges).toHaveLength(10);
      for (const body of judges) expect(whole(body)).not.toContain(OMITTED);
      // The newest round is always there verbatim: both of its statements, whole.
      const events = readEvents(runDir);
      for (const body of judges) {
        const round = Number(/judge round (\d+)/.exec(task(body))?.[1]);
        const spoken = events.filter((event) => event.type === 'statement' && event.round === round);
        expect(spoken).toHaveLength(2);
        for (const statement of spoken) expect(whole(body)).toContain(String(statement.text).trim());
      }
      // Every turn was a long one, and the debate outgrew what a window shows verbatim when the
      // vocabulary is small: its earliest rounds reached the judge as the Judge's summaries.
      const statements = events.filter((event) => event.type === 'statement');
      for (const statement of statements) {
        expect(String(statement.text).split(/\s+/).length).toBeGreaterThanOrEqual(340);
      }
      const lastJudge = whole(judges.at(-1) as ChatBody);
      if (vocabulary === 'small') expect(lastJudge).toContain("### Round 1 (the Judge's summary)");
      // The side-swapped judgement counts both calls' characters and tokens: its rate is the model's.
      const judgements = events.filter((event) => event.type === 'assessment');
      const real = rateOf(statements, 'llama3');
      for (const judgement of judgements) {
        const measured = Number(judgement.promptChars) / Number(judgement.promptTokens);
        expect(Math.abs(measured / real - 1)).toBeLessThan(0.1);
      }
      expect(sent.every((body) => !whole(body).includes(OMITTED))).toBe(true);
    });
  }
});

describe('the critique synthesis sees every round', () => {
  it('the shipped scenario with 350-650-word contributions: digests of each round, every latest refinement whole, one shared prefix', async () => {
    const mockServer = await server({
      models: ['llama3', 'mistral'],
      script: longTurnRules('^Your name: (Ada|Per|Sol)\\n', 24),
    });
    const dir = tempDir();
    const out = path.join(dir, 'runs');
    const scenario = path.resolve('scenarios/critique-rate-limiter.yaml');
    const result = await runAgora(['run', scenario, '--host', mockServer.url, '--out', out, '--quiet'], {
      timeoutMs: 600_000,
    });
    expect(result.code).toBe(0);
    const events = readEvents(onlyRunDir(out));
    const sent = bodies(mockServer);
    const contributions = events.filter(
      (event) =>
        event.type === 'statement' && ['proposal', 'critique', 'refinement'].includes(String(event.phase)),
    );
    for (const contribution of contributions) {
      expect(String(contribution.text).split(/\s+/).length).toBeGreaterThanOrEqual(340);
    }
    const judged = sent.filter((body) =>
      /^(## Your task: (summarise|synthesise)|Now sum up that design)/.test(task(body)),
    );
    expect(judged.length).toBeGreaterThan(0);
    for (const body of judged) expect(whole(body)).not.toContain(OMITTED);
    const designs = sent.filter((body) => task(body).startsWith('## Your task: synthesise a solution'));
    const fields = sent.filter((body) => task(body).startsWith('Now sum up that design'));
    const rounds = [
      ...new Set(events.filter((event) => event.phase === 'synthesis').map((event) => event.round)),
    ];
    expect(designs).toHaveLength(rounds.length);
    for (const [at, round] of rounds.entries()) {
      const design = designs[at] as ChatBody;
      // The problem, every expert's latest refinement whole, and the judge's digest of every round so far.
      expect(whole(design)).toContain('Design a rate limiter for a public HTTP API');
      const refinements = events.filter((event) => event.phase === 'refinement' && event.round === round);
      expect(refinements).toHaveLength(3);
      for (const refinement of refinements) expect(whole(design)).toContain(String(refinement.text).trim());
      const digests = events.filter(
        (event) => event.phase === 'digest' && Number(event.round) <= Number(round),
      );
      expect(digests).toHaveLength(3 * Number(round));
      for (const digest of digests) expect(whole(design)).toContain(String(digest.text).trim());
      // The structured call is the design call's conversation continued: the same messages first.
      expect((fields[at] as ChatBody).messages.slice(0, design.messages.length)).toEqual(design.messages);
    }
    // Each digest was written once: a later synthesis reuses the earlier rounds' digests.
    const digestCalls = sent.filter((body) => task(body).startsWith('## Your task: summarise'));
    expect(digestCalls).toHaveLength(events.filter((event) => event.phase === 'digest').length);
    expect(sent.every((body) => !whole(body).includes(OMITTED))).toBe(true);
  });
});

describe('the formal verdict sees the whole debate', () => {
  it('350-650-word statements: digests of the opening, rebuttals and cross-examination, the closing statements whole', async () => {
    const mockServer = await server({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: longTurnRules('^Your name: (Ada|Blaise)\\n', 12),
    });
    const { result, runDir } = await run(
      mockServer,
      SMALL_SCENARIOS.formal?.({
        model_options: { max_tokens: 900 },
        verdict: { enabled: true, judge_model: 'qwen2.5' },
      }) ?? {},
    );
    expect(result.code).toBe(0);
    const events = readEvents(runDir);
    const sent = bodies(mockServer);
    const verdicts = sent.filter((body) => task(body).startsWith('## Your task: the verdict'));
    // Side swap is on by default: asked twice.
    expect(verdicts).toHaveLength(2);
    const digests = events.filter((event) => event.phase === 'digest');
    expect(digests.map((digest) => digest.target)).toEqual(['opening', 'rebuttal', 'cross-examination']);
    const closings = events.filter((event) => event.phase === 'closing');
    expect(closings).toHaveLength(2);
    for (const body of verdicts) {
      expect(whole(body)).not.toContain(OMITTED);
      for (const closing of closings) expect(whole(body)).toContain(String(closing.text).trim());
      for (const digest of digests) expect(whole(body)).toContain(String(digest.text).trim());
    }
    for (const statement of events.filter(
      (event) => event.type === 'statement' && event.phase !== 'digest',
    )) {
      expect(String(statement.text).split(/\s+/).length).toBeGreaterThanOrEqual(340);
    }
    expect(sent.every((body) => !whole(body).includes(OMITTED))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });
});

describe('side-swapped readings that disagree', () => {
  it('duel: the debaters hear "even" with no one-sided reason', async () => {
    const mockServer = await mock({
      script: [
        // The judge picks whichever debater it reads first: in the swapped call that is the other one.
        ...['Ada', 'Blaise'].map((first) => ({
          match: { regex: `/## Your task: judge round[\\s\\S]*- "${first}": arguing for[^\\n]*\\n- "/` },
          json: {
            summary: 'Both argued.',
            why: 'The side listed first spoke first and was clearer.',
            stronger: first,
            no_new_arguments: false,
          },
        })),
      ],
    });
    const { result, runDir } = await run(mockServer, {
      ...SMALL_SCENARIOS.duel?.({ judge: { name: 'Judge', model: 'qwen2.5' } }),
    });
    expect(result.code).toBe(0);
    const roundTwo = bodies(mockServer).filter((body) => /round 2 of 2/.test(task(body)));
    expect(roundTwo).toHaveLength(2);
    for (const body of roundTwo) {
      expect(task(body)).toContain('The Judge found the two sides even in round 1');
      expect(whole(body)).not.toContain('listed first spoke first and was clearer');
    }
    // The transcript tells the tie without the one-sided reason too.
    const transcript = readFileSync(path.join(runDir, 'transcript.md'), 'utf8');
    expect(transcript).toMatch(/Stronger: EVEN\. \(Asked twice with the sides in swapped order/);
    expect(transcript).not.toContain('listed first spoke first and was clearer');
  });

  it('formal: the tie is told with both readings’ totals, never as totals that "favour tie"', async () => {
    const scores = (affirmative: number, negative: number) => {
      const of = (score: number) => ({
        argument_strength: score,
        relevance: score,
        persuasiveness: score,
        clarity: score,
      });
      return { affirmative: of(affirmative), negative: of(negative) };
    };
    const mockServer = await mock({
      script: [
        {
          match: { prompt: '## Your task: the verdict' },
          times: 1,
          json: {
            summary: 'Two cases.',
            reasons: 'The negative was stronger.',
            ...scores(2, 4),
            winner: 'affirmative',
          },
        },
        {
          match: { prompt: '## Your task: the verdict' },
          json: {
            summary: 'Two cases.',
            reasons: 'The affirmative was stronger.',
            ...scores(4, 2),
            winner: 'affirmative',
          },
        },
      ],
    });
    const { result, runDir } = await run(
      mockServer,
      SMALL_SCENARIOS.formal?.({ verdict: { enabled: true } }) ?? {},
    );
    expect(result.code).toBe(0);
    const transcript = readFileSync(path.join(runDir, 'transcript.md'), 'utf8');
    expect(transcript).toContain(
      "The judge's verdict is a tie: asked twice with the sides in swapped order, it picked negative and then affirmative (affirmative to negative on the weighted criteria: 2.00 to 4.00, then 4.00 to 2.00).",
    );
    expect(transcript).not.toMatch(/favour tie|weighted totals favour/);
    expect(transcript).toContain(
      'Weighted totals: affirmative 2.00, negative 4.00 in the first reading; affirmative 4.00, negative 2.00 in the second.',
    );
  });
});
