/**
 * Every call a 7-8B model can answer well: what the engine asks in each format, read from the
 * requests the mock server recorded, and what it does with the answers small models really give
 * (a fenced JSON answer, a long thinking block, an answer cut at its cap, a claim that is not in
 * the statement, a statement twice over its word limit).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { worstCaseAnswerTokens } from '../../src/judging/answer-fields.js';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  options: { num_predict: number; num_ctx: number };
  format?: Record<string, unknown>;
  think?: boolean;
}

const bodies = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);
const last = (body: ChatBody) => body.messages.at(-1)?.content ?? '';
const all = (body: ChatBody) => body.messages.map((message) => message.content).join('\n');

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

/** About 1.33 tokens a word for English prose with Llama and Mistral tokenizers. */
const TOKENS_PER_WORD = 4 / 3;

describe('what each call asks of a small model', () => {
  for (const format of Object.keys(SMALL_SCENARIOS)) {
    it(`${format}: every requested length and every answer schema fits its cap with margin`, async () => {
      const server = await mock();
      const build = SMALL_SCENARIOS[format] as (extra?: Record<string, unknown>) => Record<string, unknown>;
      // A formal debate's verdict is its structured call.
      const scenario = build(format === 'formal' ? { verdict: { enabled: true } } : {});
      const { result } = await run(server, scenario);
      expect([0, 9]).toContain(result.code);
      const sent = bodies(server);
      expect(sent.length).toBeGreaterThan(0);
      let free = 0;
      let structured = 0;
      for (const body of sent) {
        const cap = body.options.num_predict;
        if (body.format) {
          // A grammar-constrained answer fills every field to its bound at worst: that must fit.
          structured += 1;
          expect(worstCaseAnswerTokens(body.format), last(body).slice(0, 80)).toBeLessThanOrEqual(cap);
          continue;
        }
        const aim = /Aim for about (\d+) words; you are cut off after about (\d+)\./.exec(last(body));
        const most = /Use at most (\d+) words\./.exec(last(body));
        if (!aim && !most) continue;
        free += 1;
        // The length asked for is about 60% of the cap: a model that runs long still ends in time.
        const words = Number(aim?.[1] ?? most?.[1]);
        expect(words * TOKENS_PER_WORD, last(body).slice(0, 80)).toBeLessThanOrEqual(cap * 0.85);
      }
      // Every format has structured calls; all but the council (whose roles answer in JSON) free text too.
      if (format !== 'council') expect(free).toBeGreaterThan(0);
      expect(structured).toBeGreaterThan(0);
    });
  }

  it('knockout: no judge prompt holds an earlier verdict, vote or score', async () => {
    const server = await mock();
    const { result } = await run(server, testScenario({ rounds: 3 }));
    expect(result.code).toBe(0);
    const judges = bodies(server).filter((body) => /## Your task: evaluate round/.test(last(body)));
    expect(judges).toHaveLength(9);
    for (const body of judges) {
      const shared = body.messages
        .slice(0, 2)
        .map((message) => message.content)
        .join('\n');
      expect(shared).not.toMatch(
        /judges voted|mean score|\d+ to replace and \d+ to keep|total_score|"continue_vote"/i,
      );
    }
    // Debaters are not shown the votes either; a new debater is told whom it replaces in its own task.
    const speakers = bodies(server).filter((body) => /## Your task: round \d of 3/.test(last(body)));
    for (const body of speakers) expect(body.messages[1]?.content).not.toMatch(/judges voted|mean score/);
  });

  it('duel: the judge never reads its own earlier verdicts; the debaters hear them in their task', async () => {
    const server = await mock({
      script: [
        {
          match: { text: '## Your task: judge round' },
          json: {
            summary: 'Both argued.',
            why: 'VERDICT-WHY: A answered the cost.',
            stronger: 'Ada',
            no_new_arguments: false,
          },
        },
      ],
    });
    const { result } = await run(
      server,
      SMALL_SCENARIOS.duel?.({
        max_rounds: 3,
        judge: { name: 'Judge', model: 'llama3', side_swap: false },
      }) ?? {},
    );
    expect(result.code).toBe(0);
    const judges = bodies(server).filter((body) => /## Your task: judge round/.test(last(body)));
    expect(judges).toHaveLength(3);
    for (const body of judges) expect(all(body)).not.toContain('VERDICT-WHY');
    const laterDebaters = bodies(server).filter((body) => /## Your task: round [23] of 3/.test(last(body)));
    expect(laterDebaters).toHaveLength(4);
    for (const body of laterDebaters) {
      expect(last(body)).toMatch(
        /The Judge found Ada \(arguing for [^)]+\) stronger in round \d: VERDICT-WHY/,
      );
      expect(body.messages[1]?.content).not.toContain('VERDICT-WHY');
    }
  });
});

describe('answers as small models write them', () => {
  it('a judge answer in a ```json fence, with a sentence around it and numbers as strings, is used as it is', async () => {
    const fenced = [
      'Here is my evaluation:',
      '```json',
      '{"comments": "Clear and direct.", "position_y_performance": {"argument_strength": "4", "relevance": 4, "persuasiveness": 4, "clarity": 4}, "new_arguments": true, "continue_vote": true}',
      '```',
      'I hope this helps.',
    ].join('\n');
    const server = await mock({
      script: [{ match: { text: '## Your task: evaluate round' }, reply: fenced }],
    });
    const { result, runDir } = await run(server, testScenario({ rounds: 1 }));
    expect(result.code).toBe(0);
    const votes = readEvents(runDir).filter((event) => event.type === 'vote-cast');
    expect(votes).toHaveLength(3);
    for (const vote of votes) {
      expect(vote).toMatchObject({
        abstained: false,
        attempts: 1,
        evaluation: { total_score: 4, continue_vote: true },
      });
      expect(vote.problems).toBeUndefined();
    }
  });

  it('a thinking judge gets its thinking budget on top of its cap, and a long thinking block does not cost the answer', async () => {
    const thinking = 'Let me weigh the argument step by step. '.repeat(150);
    const answer = {
      comments: 'Solid evidence.',
      position_y_performance: { argument_strength: 4, relevance: 4, persuasiveness: 4, clarity: 4 },
      new_arguments: true,
      continue_vote: true,
    };
    const server = await mock({
      script: [{ match: { text: '## Your task: evaluate round' }, thinking, json: answer }],
    });
    const scenario = testScenario({ rounds: 1 });
    const agents = (scenario.agents as Array<Record<string, unknown>>).map((agent) =>
      agent.position === 'Y' ? { ...agent, think: true } : agent,
    );
    const { result, runDir } = await run(server, { ...scenario, agents, thinking_budget: 1500 });
    expect(result.code).toBe(0);
    const judges = bodies(server).filter((body) => /## Your task: evaluate round/.test(last(body)));
    expect(judges).toHaveLength(3);
    for (const body of judges) {
      expect(body.think).toBe(true);
      // The judge's own cap (400) and the thinking budget (1500) on top.
      expect(body.options.num_predict).toBe(1900);
    }
    const votes = readEvents(runDir).filter((event) => event.type === 'vote-cast');
    for (const vote of votes) expect(vote).toMatchObject({ abstained: false, attempts: 1 });
    // A thinking debater's statement is still held to its own cap (and its speaking time).
    const debater = bodies(server).find((body) =>
      /Your name: Yara\n[\s\S]*## Your task: round 1/.test(last(body)),
    );
    expect(debater?.options.num_predict).toBe(1024 + 1500);
  });

  it('a judge answer cut at its cap is called cut, shown to the judge, and asked again with more room', async () => {
    const long = {
      comments: 'The debater spoke at great length about everything. '.repeat(40),
      position_y_performance: { argument_strength: 3, relevance: 3, persuasiveness: 3, clarity: 3 },
      new_arguments: true,
      continue_vote: true,
    };
    const short = {
      ...long,
      comments: 'Adequate.',
      continue_vote: false,
      position_y_performance: { argument_strength: 2, relevance: 2, persuasiveness: 2, clarity: 2 },
    };
    const server = await mock({
      script: [
        // A server that does not hold the answer to its schema: the comments run to the cap.
        { match: { regex: 'evaluate round 1\\nYour name: Yusuf\\n' }, json: long },
        { match: { regex: 'That answer could not be used' }, json: short },
      ],
    });
    const { result, runDir } = await run(server, testScenario({ rounds: 1 }));
    expect(result.code).toBe(0);
    const yusuf = readEvents(runDir).find((event) => event.type === 'vote-cast' && event.judge === 'Yusuf');
    expect(yusuf).toMatchObject({
      abstained: false,
      evaluation: { comments: 'Adequate.' },
      problems: [{ cause: 'cut-at-cap', problem: expect.stringMatching(/cut off at its token cap/) }],
    });
    const repair = bodies(server).find((body) => last(body).startsWith('That answer could not be used'));
    expect(repair?.options.num_predict).toBe(600);
    expect(repair?.messages.at(-2)?.role).toBe('assistant');
    expect(repair?.messages.at(-2)?.content).toMatch(/^\{"comments":"The debater spoke at great length/);
    expect(last(repair as ChatBody)).toMatch(/keeping every text field short/);
  });

  it('a claim that is not in its statement is dropped and counted; a claim copied from it is kept, even one word off', async () => {
    const server = await mock({
      script: [
        {
          match: { regex: 'Your name: Xavier\\n[\\s\\S]*round 1 of 1\\n' },
          reply:
            'Congestion charges cut traffic by a fifth in Stockholm. Shops in pedestrian streets gain customers.',
        },
        {
          match: { text: "list the claims in Xavier's statement in round 1\n" },
          json: {
            claims: [
              // The opening words of a sentence of the statement: the ledger records that sentence.
              { quote: 'Congestion charges cut traffic by a fifth', kind: 'new', answers: 'none' },
              // A paraphrase that drifted into the other side's case: not in the statement.
              { quote: 'Car-friendly cities deliver more of what people need', kind: 'new', answers: 'none' },
              // A copy with one word added and the case changed: the sentence, near-matched.
              { quote: 'shops in the pedestrian streets gain customers', kind: 'new', answers: 'none' },
            ],
          },
        },
      ],
    });
    const { result, runDir, out } = await run(server, testScenario({ rounds: 1 }));
    expect(result.code).toBe(0);
    const claims = readEvents(runDir).find((event) => event.type === 'claims' && event.agent === 'Xavier');
    expect(claims).toMatchObject({
      source: 'model',
      unverified: 1,
      nearMatched: 1,
      claims: [
        { claim: 'Congestion charges cut traffic by a fifth in Stockholm.' },
        { claim: 'Shops in pedestrian streets gain customers.' },
      ],
    });
    // The run's own report and transcript say so too.
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toMatch(
      /Claims ledger: \d+ claims recorded \(\d+ of them from a quote one word off\); 1 dropped as not in their statement; 0 extractions fell back/,
    );
    const report = await runAgora(['leaderboard', '--out', out, '--table', 'reliability', '--json']);
    const [table] = JSON.parse(report.stdout) as Array<{ rows: Array<Record<string, unknown>> }>;
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ 'Answer kind': 'claims extraction', 'Claims not in statement': 1 }),
    );
    // The other extractions ran on the simulator, which copies some quotes with a slip of its own.
    const near = readEvents(runDir)
      .filter((event) => event.type === 'claims')
      .reduce((sum, event) => sum + Number(event.nearMatched ?? 0), 0);
    const rows = table?.rows.filter((row) => row['Answer kind'] === 'claims extraction') ?? [];
    expect(rows.reduce((sum, row) => sum + Number(row['Claims near-matched']), 0)).toBe(near);
    expect(near).toBeGreaterThanOrEqual(1);
  });

  it('a 650-word statement over a 300-word limit is sent back with its own text to shorten', async () => {
    const long = `${'Cities that close their centres to cars see cleaner air and busier shops. '.repeat(50).trim()}`;
    expect(long.split(/\s+/).length).toBeGreaterThan(600);
    const server = await mock({
      script: [
        { match: { text: '## Your task: opening statements' }, times: 1, reply: long },
        {
          match: { text: 'Shorten it to at most 300 words' },
          reply: 'Car-free centres work. '.repeat(20).trim(),
        },
      ],
    });
    const scenario = SMALL_SCENARIOS.formal?.({
      statements: { word_limit: 300, word_limit_mode: 'regenerate' },
      model_options: { max_tokens: 1000 },
    });
    const { result, runDir } = await run(server, scenario ?? {});
    expect(result.code).toBe(0);
    const retry = bodies(server).find((body) => last(body).includes('Shorten it to at most 300 words'));
    expect(retry?.messages.at(-2)).toEqual({ role: 'assistant', content: long });
    expect(last(retry as ChatBody)).toMatch(/^That statement has 650 words; the limit is 300\./);
    const opening = readEvents(runDir).find(
      (event) => event.type === 'statement' && event.phase === 'opening',
    );
    expect(opening).toMatchObject({ regenerated: true, text: 'Car-free centres work. '.repeat(20).trim() });
    // The statement itself is asked for within its word limit.
    expect(
      last(
        bodies(server).find((body) => last(body).includes('## Your task: opening statements')) as ChatBody,
      ),
    ).toContain(
      'Aim for about 240 words; the limit is 300 words, and a longer statement is sent back to be shortened.',
    );
  });
});

describe('the simulator, as the demo shows it', () => {
  it('its judges mostly vote with their own scores and its claims come from the statements', async () => {
    const server = await mock();
    const { result, runDir } = await run(server, testScenario({ rounds: 6 }));
    expect(result.code).toBe(0);
    const events = readEvents(runDir);
    const votes = events.filter((event) => event.type === 'vote-cast');
    const against = votes.filter(
      (vote) => (vote.evaluation as { inconsistent?: boolean } | null)?.inconsistent,
    );
    expect(votes).toHaveLength(18);
    // At most a small seeded share goes against the scores (4% of votes; measured over thousands of
    // answers in tests/mock-ollama/judged-level.test.ts), never a quarter.
    expect(against.length).toBeLessThan(votes.length / 4);
    const claims = events.filter((event) => event.type === 'claims');
    expect(claims.every((event) => event.source === 'model')).toBe(true);
    expect(claims.reduce((sum, event) => sum + Number(event.unverified ?? 0), 0)).toBe(0);
    expect(claims.reduce((sum, event) => sum + (event.claims as unknown[]).length, 0)).toBeGreaterThan(12);
  });
});

describe('switching the topic', () => {
  it('a new topic on the abortion scenario leaves out its positions, personas and background, and says so', async () => {
    const server = await mock();
    const out = path.join(tempDir(), 'runs');
    const run = (...more: string[]) =>
      runAgora([
        'run',
        'scenarios/abortion.yaml',
        '--topic',
        'Does God exist?',
        '--rounds',
        '1',
        '--host',
        server.url,
        '--out',
        out,
        '--quiet',
        ...more,
      ]);
    const neutral = await run();
    expect(neutral.code).toBe(0);
    expect(neutral.stderr).toContain(
      '--topic starts a new debate: the positions "Pro-Choice" and "Pro-Life" become "For" and "Against"; the agents\' personas and the background (3 entries) are left out, since they belonged to "Should abortion be legal?". Name the positions with --positions "FOR,AGAINST".',
    );
    const sent = bodies(server);
    expect(sent.length).toBeGreaterThan(0);
    for (const body of sent) {
      const text = all(body);
      expect(text).toContain('Motion: Does God exist?');
      expect(text).not.toMatch(/Pro-Choice|Pro-Life|abortion|Roe v\. Wade|reproductive-rights attorney/i);
    }
    const named = await run('--positions', 'Atheist,Theist');
    expect(named.code).toBe(0);
    expect(named.stderr).not.toContain('--positions "FOR,AGAINST"');
    const latest = bodies(server).at(-1) as ChatBody;
    expect(all(latest)).toMatch(/Position X: Atheist\nPosition Y: Theist/);
  });
});
