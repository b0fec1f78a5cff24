/**
 * The claims ledger behind agent memory, and summaries that stay faithful over a long debate: the
 * simulator is scripted to plant distinct claims, and the prompts the engine sends are read back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama, ScriptRule } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { voteRule } from '../helpers/judge-script.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  options: { num_ctx: number; num_predict: number };
}

const bodies = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);

const lastMessage = (body: ChatBody) => body.messages.at(-1)?.content ?? '';

/** Statement and claims answers for one side in one round: a statement, and the claim it plants. */
function plant(agent: string, round: number, rounds: number, claim: string, answers = 'none'): ScriptRule[] {
  return [
    {
      match: { regex: `Your name: ${agent}\\n[\\s\\S]*round ${round} of ${rounds}\\n` },
      reply:
        `${claim} I have evidence for this from the pilot programmes, and I will keep returning to it. `.repeat(
          3,
        ),
    },
    {
      match: { text: `list the claims in ${agent}'s statement in round ${round}\n` },
      // The note-taker quotes the opening words of the claim's sentence; the ledger records the sentence.
      json: { claims: [{ quote: claim.split(' ').slice(0, 8).join(' '), kind: 'new', answers }] },
    },
  ];
}

async function run(server: MockOllama, data: Record<string, unknown>) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(data));
  const out = path.join(dir, 'runs');
  const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], {
    timeoutMs: 600_000,
  });
  return { result, runDir: onlyRunDir(out) };
}

describe('the claims ledger', () => {
  it('records each statement’s claims as events, answered from the other side, and builds memory from each side’s perspective', async () => {
    const script = [
      ...plant('Xavier', 1, 2, 'CLAIM-A: congestion charges cut traffic by a fifth.'),
      ...plant('Yara', 1, 2, 'CLAIM-B: shops in the centre lose customers without parking.', 'X1.1'),
      ...plant('Xavier', 2, 2, 'CLAIM-C: footfall rises when streets are pedestrianised.', 'Y1.1'),
      // Yara keeps the floor, so round 2 is her answer to Xavier.
      voteRule({ vote: 'continue', score: 4 }),
    ];
    const server = await mock({ script });
    const { result, runDir } = await run(server, testScenario({ rounds: 2 }));
    expect(result.code).toBe(0);
    const claims = readEvents(runDir).filter((event) => event.type === 'claims');
    expect(claims.map((event) => `${event.round}:${event.agent}:${event.source}`)).toEqual([
      '1:Xavier:model',
      '1:Yara:model',
      '2:Xavier:model',
      '2:Yara:model',
    ]);
    // The extraction call is small and shares the debate's prefix (system and transcript messages).
    const sent = bodies(server);
    const extraction = sent.find((body) =>
      lastMessage(body).includes("list the claims in Xavier's statement in round 1"),
    );
    const yaraSpeaks = sent.find((body) => /Your name: Yara\n[\s\S]*round 1 of 2/.test(lastMessage(body)));
    expect(extraction?.options.num_predict).toBe(240);
    expect(extraction?.messages.slice(0, 2)).toEqual(yaraSpeaks?.messages.slice(0, 2));

    // Yara, before speaking, is told about X's claim as unanswered (from her side's perspective),
    // by its words: it is her focus, in the second person, and quoted there only.
    const yara = lastMessage(yaraSpeaks as ChatBody);
    expect(yara).toMatch(
      /Your focus: answer Xavier's claim from round 1, "CLAIM-A: congestion charges[^\n]*", which your side has not answered yet/,
    );
    expect(yara.split('CLAIM-A')).toHaveLength(2);
    expect(yara).not.toMatch(/claims that your side has not answered yet/);
    // In round 2 Xavier sees his own claim as his, rebutted by Yara, and her open claim.
    const xavier2 = lastMessage(
      sent.find((body) => /Your name: Xavier\n[\s\S]*round 2 of 2/.test(lastMessage(body))) as ChatBody,
    );
    // His claim is listed once, where it now belongs: among those of his the other side rebutted.
    expect(xavier2).toMatch(/Claims of yours your opponent has rebutted[\s\S]*CLAIM-A/);
    expect(xavier2.split('CLAIM-A')).toHaveLength(2);
    expect(xavier2).toMatch(/Your focus: answer Yara's claim from round 1, "CLAIM-B/);
    expect(xavier2.split('CLAIM-B')).toHaveLength(2);
    // Claim ids are the note-taker's: no debater reads one, so none can cite one.
    const debaterPrompts = sent.filter((body) => /## Your task: round \d+ of/.test(lastMessage(body)));
    expect(debaterPrompts.length).toBe(4);
    for (const body of debaterPrompts) {
      expect(body.messages.map((message) => message.content).join('\n')).not.toMatch(/\[[XY]\d+\.\d+\]/);
    }
    // The extraction may link only to the other side's claims: the schema lists their ids and none.
    const yaraExtraction = sent.find((body) =>
      lastMessage(body).includes("list the claims in Yara's statement in round 1"),
    ) as ChatBody & {
      format: { properties: { claims: { items: { properties: { answers: { enum: string[] } } } } } };
    };
    expect(yaraExtraction.format.properties.claims.items.properties.answers.enum).toEqual(['X1.1', 'none']);
    // The round transition's focus names the open claims.
    const roundEnd = readEvents(runDir).find(
      (event) => event.type === 'round-end' && event.round === 1,
    ) as unknown as {
      transition: { focus: string };
    };
    expect(roundEnd.transition.focus).toMatch(/Xavier should answer the open claim "CLAIM-B/);
  });

  it('off: no extraction call, and memory from key sentences as before', async () => {
    const server = await mock();
    const { result, runDir } = await run(
      server,
      testScenario({ rounds: 1, extra: { memory: { claims: 'off' } } }),
    );
    expect(result.code).toBe(0);
    expect(readEvents(runDir).some((event) => event.type === 'claims')).toBe(false);
    expect(bodies(server).some((body) => lastMessage(body).includes('list the claims'))).toBe(false);
  });

  it('heuristic: claims from key sentences, no extraction call', async () => {
    const server = await mock();
    const { result, runDir } = await run(
      server,
      testScenario({ rounds: 1, extra: { memory: { claims: 'heuristic' } } }),
    );
    expect(result.code).toBe(0);
    const claims = readEvents(runDir).filter((event) => event.type === 'claims');
    expect(claims).toHaveLength(2);
    expect(claims.every((event) => event.source === 'heuristic')).toBe(true);
    expect(bodies(server).some((body) => lastMessage(body).includes('list the claims'))).toBe(false);
  });
});

describe('summaries over 30 rounds', () => {
  it('the live claims of round 1 still reach the round-30 prompts, within num_ctx, in a few folds that ask no model', async () => {
    const rounds = 30;
    const script: ScriptRule[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      script.push(
        ...plant(
          'Xavier',
          round,
          rounds,
          `X-CLAIM-${round}: a distinct point for car-free streets number ${round}.`,
        ),
      );
      script.push(
        ...plant('Yara', round, rounds, `Y-CLAIM-${round}: a distinct point for drivers number ${round}.`),
      );
    }
    const server = await mock({ script });
    const data = testScenario({ rounds, maxTokens: 300, contextWindow: 4096, yCount: 4, threshold: 4 });
    const { result, runDir } = await run(server, data);
    expect(result.code).toBe(0);
    const sent = bodies(server);
    const round30 = sent.filter((body) => lastMessage(body).includes(`round ${rounds} of ${rounds}`));
    expect(round30.length).toBeGreaterThanOrEqual(2);
    for (const body of round30) {
      const prompt = body.messages.map((message) => message.content).join('\n');
      expect(prompt).toContain('X-CLAIM-1:');
      expect(prompt).toContain('Y-CLAIM-1:');
      expect(body.options.num_ctx).toBe(4096);
      // Each claim is listed once: memory leaves out what the transcript's open claims already list.
      const claimLines = prompt.split('\n').filter((line) => /^- .+, round \d+: "/.test(line));
      expect(claimLines.length).toBeGreaterThan(0);
      expect(new Set(claimLines.map((line) => line.replace(/ \(evidence: .*\)$/, ''))).size).toBe(
        claimLines.length,
      );
    }
    // Nothing sent was over the window (the simulator refuses that with truncate: false).
    const events = readEvents(runDir);
    expect(JSON.stringify(events)).not.toMatch(/exceeds the context length/);
    const summaries = events.filter((event) => event.type === 'summary');
    // Large steps: far fewer summaries than rounds (one per round would be 28 or 29).
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.length).toBeLessThanOrEqual(10);
    // Every part, and every rewrite of the parts into one, is written from the claims ledger: no
    // model is asked for a summary, so no round waits for one.
    expect(summaries.every((event) => event.model === 'claims ledger')).toBe(true);
    // The token table counts model calls as the report does: a part written from the ledger is none.
    expect(result.stdout).not.toMatch(/^claims ledger /m);
    const calls = /^whole run +(\d+) /m.exec(result.stdout)?.[1];
    expect(calls, result.stdout).toBeDefined();
    expect(result.stdout).toContain(`Model calls: ${calls};`);
    expect(summaries.some((event, index) => index > 0 && (event.fromRound ?? 1) === 1)).toBe(true);
    expect(sent.some((body) => lastMessage(body).includes('## Your task: the summary of'))).toBe(false);
    // biome-ignore lint/suspicious/noConsole: the figure belongs in the test output
    console.log(`30-round debate, 4096-token window: ${summaries.length} folds`);
  }, 900_000);
});

describe('live commentary', () => {
  it('a commentator speaks after each round, shown live and kept, never in a debater’s or judge’s prompt', async () => {
    const words = 'COMMENTARY-MARK: Xavier pressed hard on traffic data while Yara held firm on shops.';
    const server = await mock({ script: [{ match: { text: 'commentary after round' }, reply: words }] });
    const dir = tempDir();
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(
      file,
      stringify(
        testScenario({
          rounds: 2,
          extra: { commentary: { model: 'llama3', persona: 'a former debate coach with a dry wit' } },
        }),
      ),
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Commentary after round 1: COMMENTARY-MARK/);
    const runDir = onlyRunDir(out);
    const events = readEvents(runDir);
    expect(events.filter((event) => event.type === 'commentary').map((event) => event.round)).toEqual([1, 2]);
    // Commentary follows its round's decision and comes before the next round's first statement.
    const order = events.map((event) => `${event.type}:${event.round ?? ''}`);
    expect(order.indexOf('commentary:1')).toBe(order.indexOf('round-end:1') + 1);
    const sent = bodies(server);
    const commentator = sent.find((body) => lastMessage(body).includes('commentary after round 1'));
    expect(lastMessage(commentator as ChatBody)).toMatch(/a former debate coach with a dry wit/);
    for (const body of sent.filter((item) => !lastMessage(item).includes('commentary after round')))
      expect(JSON.stringify(body.messages)).not.toContain('COMMENTARY-MARK');
    const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as {
      commentary: Array<{ round: number; text: string }>;
    };
    expect(transcript.commentary[0]?.text).toBe(words);
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).toMatch(
      /\*\*Commentary\*\* \(for the audience\): COMMENTARY-MARK/,
    );
  });
});

describe('early stop on the ledger', () => {
  it('stops when two rounds running bring no new claim, whatever the judges say', async () => {
    const again = {
      claims: [{ quote: 'The same point once more, as I', kind: 'restated', answers: 'none' }],
    };
    const newArguments = {
      round_number: 1,
      comments: 'Fresh material.',
      position_y_performance: { argument_strength: 4, relevance: 4, persuasiveness: 4, clarity: 4 },
      new_arguments: true,
      continue_vote: true,
    };
    const server = await mock({
      script: [
        {
          match: { text: '## Your task: round' },
          reply: 'The same point once more, as I said before. '.repeat(5),
        },
        { match: { text: 'list the claims in' }, json: again },
        { match: { text: 'evaluate round' }, json: newArguments },
      ],
    });
    const { result, runDir } = await run(
      server,
      testScenario({ rounds: 6, extra: { stop: { judge_early_stop: true } } }),
    );
    expect(result.code).toBe(0);
    const end = readEvents(runDir).at(-1);
    expect(end).toMatchObject({ type: 'run-end', status: 'completed', stopReason: 'judge_early_stop' });
    // Round 1's claims are new whatever the note-taker calls them (nothing was said before);
    // rounds 2 and 3 say the same sentences again.
    expect(readEvents(runDir).filter((event) => event.type === 'round-end')).toHaveLength(3);
  });
});
