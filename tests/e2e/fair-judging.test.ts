import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DEFAULT_CRITERIA } from '../../src/config/schema-parts.js';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

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

/** The chat requests the server saw: model, the messages' texts, and those joined. */
const chats = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => {
      const body = request.body as { model: string; messages: Array<{ content: string }> };
      const messages = body.messages.map((message) => message.content);
      return { model: body.model, messages, text: messages.join('\n') };
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
    // Side swap is on by default: the verdict is asked twice, both times of the impartial model.
    expect(verdictCalls.map((chat) => chat.model)).toEqual(['qwen2.5', 'qwen2.5']);
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

const scores = (value: number) =>
  Object.fromEntries(Object.keys(DEFAULT_CRITERIA).map((name) => [name, value]));
const verdictAnswer = (winner: string, affirmative = 3, negative = 3) => ({
  summary: 'A close debate.',
  reasons: 'Both sides argued well.',
  affirmative: scores(affirmative),
  negative: scores(negative),
  winner,
});

/** The judges table of the leaderboard over one runs folder, as JSON rows. */
async function judgesTable(out: string) {
  const result = await runAgora(['leaderboard', '--out', out, '--table', 'judges', '--json']);
  expect(result.code).toBe(0);
  const [table] = JSON.parse(result.stdout) as Array<{
    columns: string[];
    rows: Array<Record<string, unknown>>;
  }>;
  return table;
}

describe("the verdict follows the judge's own scores", () => {
  it('overrules a named winner that its weighted totals contradict, and says so', async () => {
    const server = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: [{ match: { prompt: '## Your task: the verdict' }, json: verdictAnswer('negative', 5, 2) }],
    });
    const scenario = scenarioFile(formal({ verdict: { enabled: true } }));
    const result = await run(server, scenario);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(scenario.out);
    expect(readJson(runDir).verdict).toMatchObject({
      winner: 'affirmative',
      named_winner: 'negative',
      winner_contradicts_scores: true,
      totals: { affirmative: 5, negative: 2 },
    });
    const markdown = readFileSync(path.join(runDir, 'transcript.md'), 'utf8');
    expect(markdown).toContain('Winner: **affirmative**');
    expect(markdown).toContain(
      'The judge named negative the winner, but its own weighted totals favour affirmative; the totals decide.',
    );
  });
});

describe('side swap', () => {
  it('asks the formal verdict twice, negative first the second time, and a disagreement is a tie', async () => {
    const server = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: [
        // A judge that always prefers whichever side it reads first.
        { match: { prompt: '"winner": "negative" | "affirmative"' }, json: verdictAnswer('negative') },
        { match: { prompt: '## Your task: the verdict' }, json: verdictAnswer('affirmative') },
      ],
    });
    const scenario = scenarioFile(formal({ verdict: { enabled: true, side_swap: true } }));
    const result = await run(server, scenario);
    expect(result.code).toBe(0);
    const [straight, swapped] = chats(server).filter((chat) =>
      chat.text.includes('## Your task: the verdict'),
    );
    const runDir = onlyRunDir(scenario.out);
    const statements = readEvents(runDir).filter((event) => event.type === 'statement');
    const opening = (side: string) =>
      String(statements.find((event) => event.phase === 'opening' && event.side === side)?.text).slice(0, 60);
    const position = (text: string | undefined, side: string) => (text ?? '').indexOf(opening(side));
    // Both calls show the debate in the order it was spoken (a reply never before what it answers);
    // the swapped call introduces the negative first, in the header and in the answer's format.
    for (const call of [straight, swapped]) {
      expect(position(call?.text, 'negative')).toBeGreaterThan(-1);
      expect(position(call?.text, 'affirmative')).toBeLessThan(position(call?.text, 'negative'));
    }
    expect(straight?.text).toMatch(/Affirmative: .*\nNegative: /);
    expect(swapped?.text).toMatch(/Negative: .*\nAffirmative: /);
    expect(swapped?.text).toContain('"winner": "negative" | "affirmative"');
    const verdict = readJson(runDir).verdict as Json;
    expect(verdict).toMatchObject({
      winner: 'tie',
      side_swap: {
        presented_first: ['affirmative', 'negative'],
        picks: ['affirmative', 'negative'],
        agreed: false,
        answers: [{ winner: 'affirmative' }, { winner: 'negative' }],
      },
    });
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toMatch(/recorded as a tie/);
    const table = await judgesTable(scenario.out);
    expect(table?.columns).toContain('First-position preference');
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ 'Judge model': 'qwen2.5', 'First-position preference': '1 (2 of 2)' }),
    );
  });

  /** The duel judge's answer naming `stronger`, scripted for the reading that lists `first` first. */
  const POSITIONS: Record<string, string> = { Ada: 'For', Blaise: 'Against' };
  const readingListing = (first: string, stronger: string) => ({
    match: { text: `- "${first}": arguing for ${POSITIONS[first]}\n- "` },
    json: { summary: 'A fair round.', why: 'One side was clearer.', stronger, no_new_arguments: false },
  });
  /** A judge that favours whichever debater it reads first. */
  const FIRST_LISTED = (first: string) => readingListing(first, first);

  it('asks the duel judge twice, Blaise listed first the second time, each debater named the same in both', async () => {
    // A judge that favours whichever debater it reads first: the two readings disagree.
    const server = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: [FIRST_LISTED('Ada'), FIRST_LISTED('Blaise')],
    });
    const scenario = scenarioFile(duel({ judge: { name: 'Judge', model: 'qwen2.5', side_swap: true } }));
    const result = await run(server, scenario);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(scenario.out);
    const [straight, swapped] = chats(server).filter((chat) =>
      chat.text.includes('## Your task: judge round'),
    );
    // The swapped call lists the sides the other way round and keeps the order spoken: Ada still
    // opens the round. Only the task differs, so everything before it is the same text in both calls.
    expect(straight?.messages.at(-1)).toMatch(/- "Ada": arguing for For\n- "Blaise": arguing for Against$/);
    expect(straight?.messages.at(-1)).toContain('"stronger": "Ada" | "Blaise" | "even"}');
    expect(swapped?.messages.at(-1)).toMatch(/- "Blaise": arguing for Against\n- "Ada": arguing for For$/);
    expect(swapped?.messages.at(-1)).toContain('"stronger": "Blaise" | "Ada" | "even"}');
    // And the task itself is the same up to the choice, which comes last in the answer and after
    // everything else in the task: a slot holding one reading serves the other all but its end.
    const upToChoice = (text: string | undefined) => text?.slice(0, text.indexOf('"stronger": '));
    expect(upToChoice(swapped?.messages.at(-1))).toBe(upToChoice(straight?.messages.at(-1)));
    expect(upToChoice(straight?.messages.at(-1))).toContain('"no_new_arguments": ');
    for (const call of [straight, swapped]) expect(call?.messages.at(-1)).not.toMatch(/"a"|"b"/);
    expect(swapped?.messages.slice(0, -1)).toEqual(straight?.messages.slice(0, -1));
    // The schema sent asks for the names in the order listed, and the pick is required.
    const formats = server.requests
      .map(
        (request) =>
          (request.body as { format?: { properties?: Json; required?: string[] } } | undefined)?.format,
      )
      .filter((format) => format?.properties?.stronger !== undefined);
    expect(formats.map((format) => format?.properties?.stronger)).toEqual([
      { type: 'string', enum: ['Ada', 'Blaise', 'even'] },
      { type: 'string', enum: ['Blaise', 'Ada', 'even'] },
    ]);
    for (const format of formats) expect(format?.required).toContain('stronger');
    expect(straight?.text).toMatch(
      /\*\*Ada\*\* \(arguing for For[\s\S]*\*\*Blaise\*\* \(arguing for Against/,
    );
    const judgement = readEvents(runDir).find((event) => event.type === 'assessment');
    // Recorded by side, as before: the run's "a" is Ada whichever reading named her.
    expect(judgement).toMatchObject({
      abstained: false,
      result: {
        stronger: 'even',
        side_swap: { presented_first: ['a', 'b'], picks: ['a', 'b'], agreed: false },
      },
    });
    expect((judgement?.result as Json | undefined)?.side_swap).toMatchObject({
      answers: [{ stronger: 'a' }, { stronger: 'b' }],
    });
    expect(readJson(runDir)).toMatchObject({
      rounds: [{ judgement: { stronger: 'even', side_swap: { picks: ['a', 'b'] } } }],
    });
    const table = await judgesTable(scenario.out);
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ 'Judge model': 'qwen2.5', 'First-position preference': '1 (2 of 2)' }),
    );
  });

  it('a duel judge that names the same debater in both readings gives that debater the round', async () => {
    // Blaise in both orders, once as the side listed second and once as the side listed first.
    const server = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: [readingListing('Ada', 'Blaise'), readingListing('Blaise', 'blaise')],
    });
    const scenario = scenarioFile(duel({ judge: { name: 'Judge', model: 'qwen2.5', side_swap: true } }));
    expect((await run(server, scenario)).code).toBe(0);
    const runDir = onlyRunDir(scenario.out);
    expect(readJson(runDir)).toMatchObject({
      rounds: [
        {
          judgement: {
            stronger: 'b',
            side_swap: { picks: ['b', 'b'], agreed: true, answers: [{ stronger: 'b' }, { stronger: 'b' }] },
          },
        },
      ],
      stats: { roundsWon: { a: 0, b: 1, even: 0 } },
    });
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toContain('Stronger: B.');
  });

  it('reports no position preference without side swap', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const scenario = scenarioFile(duel({ judge: { name: 'Judge', model: 'qwen2.5', side_swap: false } }));
    expect((await run(server, scenario)).code).toBe(0);
    const table = await judgesTable(scenario.out);
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ 'Judge model': 'qwen2.5', 'First-position preference': 'n/a' }),
    );
  });
});
