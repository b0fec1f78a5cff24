/**
 * The running summary folds the transcript between rounds, after the votes, every few rounds: both
 * speakers and the judges of a round read the same transcript, the summariser reads the debate's
 * own prefix on the model that answered last (no extra model swap), and an answer cut at its cap
 * is asked for again, shorter. Realistic statement lengths (350-650 words) in the shipped abortion
 * scenario's 8192-token window, against the simulator holding one model at a time.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadScenario, parseScenario } from '../../src/config/load-scenario.js';
import type { Scenario } from '../../src/config/scenario.js';
import type { RunEvent } from '../../src/core/events.js';
import { SUMMARY_CUT_NOTE } from '../../src/formats/knockout/summary-step.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { type MockOllama, type ScriptRule, startMockOllama } from '../../src/mock-ollama/index.js';
import { tempDir } from '../helpers/cli.js';
import { inProcessRun } from '../helpers/in-process-run.js';
import { testScenario } from '../helpers/scenario.js';

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function debate(scenario: Scenario, options: { script?: ScriptRule[]; oneModel?: boolean } = {}) {
  const server = await startMockOllama({
    models: ['llama3', 'mistral'],
    profile: options.oneModel ? 'desktop-gpu-small' : 'instant',
    speechLength: { minWords: 350, maxWords: 650 },
    ...(options.script ? { script: options.script } : {}),
  });
  servers.push(server);
  const events = await inProcessRun(scenario, new OllamaProvider({ host: server.url }));
  const chats = server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);
  return { events, chats, server };
}

const task = (body: ChatBody) => body.messages.at(-1)?.content ?? '';
const transcript = (body: ChatBody) => body.messages[1]?.content ?? '';
type Summary = Extract<RunEvent, { type: 'summary' }>;

/** The shipped abortion scenario with its folds written by a model (`context.summary: model`). */
async function withModelFolds(): Promise<Scenario> {
  const scenario = await loadScenario('scenarios/abortion.yaml');
  if (scenario.format !== 'knockout') throw new Error('expected a knockout scenario');
  return { ...scenario, context: { ...scenario.context, summary: 'model' } };
}

describe('the running summary written by a model', () => {
  it('folds after the votes, every few rounds, on the model that answered last: a round reads one transcript', async () => {
    const scenario = await withModelFolds();
    const { events, chats, server } = await debate(scenario, { oneModel: true });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const summaries = events.filter((event): event is Summary => event.type === 'summary');
    // The window holds about two rounds of 350-650-word statements: a summary every two rounds or
    // so, not one a round.
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.length).toBeLessThanOrEqual(2);
    for (const summary of summaries) {
      // Between rounds: right after a round's end, before the next round's first statement.
      const before = events[events.indexOf(summary) - 1];
      expect(before).toMatchObject({ type: 'round-end', round: summary.throughRound });
      // Each fold takes several rounds at once, in a part of its own after the earlier ones.
      expect(summary.throughRound - (summary.fromRound ?? 1) + 1).toBeGreaterThanOrEqual(2);
      // On the judges' model, which answered the round's last call and is the one loaded.
      expect(summary.model).toBe('mistral');
    }
    // Every call of a round reads the same debate so far: the speakers' and the judges' transcript
    // messages all start with the one the round's first speaker read (which, in round 1, says that
    // the debate has not started yet).
    for (let round = 2; round <= 6; round += 1) {
      const calls = chats.filter((body) =>
        new RegExp(
          `## Your task: (round ${round} of|evaluate round ${round}\\n|list the claims in .* round ${round}\\n)`,
        ).test(task(body)),
      );
      expect(calls.length).toBe(2 + 2 + 3);
      const first = transcript(calls[0] as ChatBody);
      for (const body of calls) expect(transcript(body).startsWith(first)).toBe(true);
    }
    // One model resident: two loads a round (X's model, then the panel's) and one for loading both
    // before round 1; a summary on another model would cost two more each time.
    expect(server.stats().modelLoads).toBeLessThanOrEqual(2 * 6 + 1);
  });

  it('reads the debate’s own prefix: the judges’ messages, then only its task, with a length that grows with the rounds it folds', async () => {
    const scenario = await withModelFolds();
    const { events, chats } = await debate(scenario);
    const summaryCalls = chats.filter((body) => /^## Your task: the summary of/.test(task(body)));
    const summaries = events.filter((event): event is Summary => event.type === 'summary');
    expect(summaryCalls.length).toBe(summaries.length);
    expect(summaryCalls.length).toBeGreaterThan(0);
    for (const [index, body] of summaryCalls.entries()) {
      const summary = summaries[index] as Summary;
      const judge = chats
        .slice(0, chats.indexOf(body))
        .filter((call) => /## Your task: evaluate round/.test(task(call)))
        .at(-1) as ChatBody;
      expect(body.messages[0]).toEqual(judge.messages[0]);
      // The judges' transcript, and after it at most the note of who takes the floor next.
      expect(transcript(body).startsWith(transcript(judge))).toBe(true);
      expect(transcript(body).slice(transcript(judge).length)).toMatch(
        /^(\n\nModerator: .* takes the floor for Position Y\.)?$/,
      );
      expect(body.messages).toHaveLength(3);
      const rounds = summary.throughRound - (summary.fromRound ?? 1) + 1;
      expect(task(body)).toContain(`Aim for about ${60 * rounds} words`);
      expect(task(body)).toMatch(/says nothing of how anyone was judged/);
      expect(task(body)).toMatch(/note-taker now, not a debater/);
      // The claims it is given are in the speakers' words, without the ids it is told not to write.
      expect(task(body)).toMatch(/Do not write claim ids/);
      expect(task(body)).toMatch(/\nClaims recorded in rounds? [\d-]+:\n- [^\n]+, round \d+: "/);
      expect(task(body)).not.toMatch(/\b[XY]\d+\.\d+\b/);
    }
    // A later part follows the earlier one, which the transcript keeps as it was written.
    const second = summaries[1];
    if (second) {
      expect(second.fromRound).toBe((summaries[0] as Summary).throughRound + 1);
      const after = chats.find((body) => /## Your task: round 6 of 6/.test(task(body))) as ChatBody;
      expect(transcript(after)).toContain((summaries[0] as Summary).text);
      expect(transcript(after)).toContain(second.text);
    }
  });

  it('an answer cut at its cap is asked for again, shorter; one still cut says so in its text', async () => {
    const long = 'The debate went back and forth on every point raised so far. '.repeat(120);
    const once = [
      { match: { text: '## Your task: the summary of' }, times: 1, reply: long },
      {
        match: { text: '## Your task: the summary of' },
        reply: 'SHORTER-SUMMARY: both sides held their ground.',
      },
    ];
    // A window that holds a round and one summary part at its cap, but not two parts: the last
    // fold must rewrite. With the rules as they are, windows of about 2,850-3,200 tokens do that.
    const base = testScenario({ rounds: 4, contextWindow: 3000, maxTokens: 160 });
    const data = { ...base, context: { ...(base.context as object), summary: 'model' } };
    const scenario = await parseScenario(stringify(data), path.join(tempDir(), 's.yaml'));
    const shortened = await debate(scenario, { script: once });
    const first = shortened.events.find((event): event is Summary => event.type === 'summary');
    expect(first).toMatchObject({ shortened: true, text: 'SHORTER-SUMMARY: both sides held their ground.' });
    expect(first?.cut).toBeUndefined();
    const asked = shortened.chats.filter((body) => /^## Your task: the summary of/.test(task(body)));
    const words = asked.slice(0, 2).map((body) => Number(/Aim for about (\d+) words/.exec(task(body))?.[1]));
    expect(words[1]).toBeLessThan(words[0] as number);

    const always = [{ match: { text: '## Your task: the summary of' }, reply: long }];
    const cut = await debate(scenario, { script: always });
    const marked = cut.events.find((event): event is Summary => event.type === 'summary');
    expect(marked).toMatchObject({ shortened: true, cut: true });
    expect(marked?.text.endsWith(SUMMARY_CUT_NOTE)).toBe(true);
    // Summaries as long as their cap take as much room as the rounds they fold: a later fold
    // rewrites the parts into one rather than adding another, and the debate still fits its window.
    expect(cut.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const parts = cut.events.filter((event): event is Summary => event.type === 'summary');
    expect(parts.at(-1)?.fromRound ?? 1).toBe(1);
    // Readers of the transcript (the speakers, note-taker and judges after the fold) see the note too.
    const later = cut.chats.filter((body) => transcript(body).includes('### Summary of'));
    expect(later.length).toBeGreaterThan(0);
    for (const body of later) expect(transcript(body)).toContain(SUMMARY_CUT_NOTE);
  });
});

describe('folds written from the claims ledger (the default)', () => {
  it('writes each folded statement’s claims in the speaker’s own sentences, with no model call, and the prompts read them', async () => {
    const scenario = await loadScenario('scenarios/abortion.yaml');
    if (scenario.format !== 'knockout') throw new Error('expected a knockout scenario');
    expect(scenario.context.summary).toBe('ledger');
    const { events, chats } = await debate(scenario);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const summaries = events.filter((event): event is Summary => event.type === 'summary');
    expect(summaries.length).toBeGreaterThan(0);
    // No model was asked for a summary.
    expect(chats.some((body) => /^## Your task: the summary of/.test(task(body)))).toBe(false);
    const claims = events.filter(
      (event): event is Extract<RunEvent, { type: 'claims' }> => event.type === 'claims',
    );
    for (const summary of summaries) {
      expect(summary).toMatchObject({ model: 'claims ledger', promptTokens: 0, outputTokens: 0 });
      // Between rounds, after the round it folds.
      expect(events[events.indexOf(summary) - 1]).toMatchObject({
        type: 'round-end',
        round: summary.throughRound,
      });
      const from = summary.fromRound ?? 1;
      // A rewrite of the parts into one keeps only the claims still unanswered (tested below).
      const rewrite = summary.text.startsWith('Who debated');
      for (let round = from; round <= summary.throughRound; round += 1) {
        expect(summary.text).toContain(`Round ${round}:`);
        if (rewrite) continue;
        for (const extraction of claims.filter((item) => item.round === round)) {
          for (const claim of extraction.claims) expect(summary.text).toContain(`"${claim.claim.trim()}"`);
        }
      }
      expect(summaries.filter((part) => !part.text.startsWith('Who debated')).length).toBeGreaterThan(0);
      // The next round's speakers read it in their transcript.
      const next = chats.find((body) =>
        new RegExp(`## Your task: round ${summary.throughRound + 1} of`).test(task(body)),
      ) as ChatBody;
      expect(transcript(next)).toContain(summary.text);
    }
  });
});

describe('the running summary rewritten from the claims ledger', () => {
  it('when its parts grow too long, it is rewritten with no model call: who debated, then the claims still unanswered', async () => {
    const shipped = await loadScenario('scenarios/abortion.yaml');
    if (shipped.format !== 'knockout') throw new Error('expected a knockout scenario');
    const scenario = { ...shipped, debate: { ...shipped.debate, rounds: 12 } };
    const { events, chats } = await debate(scenario);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const summaries = events.filter((event): event is Summary => event.type === 'summary');
    // A rewrite replaces the parts before it: it starts again at round 1.
    const rewrites = summaries.filter((summary, index) => index > 0 && (summary.fromRound ?? 1) === 1);
    expect(rewrites.length).toBeGreaterThan(0);
    expect(chats.some((body) => /^## Your task: the summary of/.test(task(body)))).toBe(false);
    const claims = events.filter(
      (event): event is Extract<RunEvent, { type: 'claims' }> => event.type === 'claims',
    );
    for (const rewrite of rewrites) {
      const through = rewrite.throughRound;
      expect(rewrite).toMatchObject({ model: 'claims ledger', promptTokens: 0, outputTokens: 0 });
      expect(rewrite.text).toMatch(new RegExp(`^Who debated in rounds 1-${through}\\.`));
      for (let round = 1; round <= through; round += 1) expect(rewrite.text).toContain(`- Round ${round}: `);
      // No claim is in it: those still unanswered follow it in the transcript.
      for (const extraction of claims.filter((item) => item.round <= through)) {
        for (const claim of extraction.claims) expect(rewrite.text).not.toContain(claim.claim.trim());
      }
      const next = chats.find((body) =>
        new RegExp(`## Your task: round ${through + 1} of`).test(task(body)),
      ) as ChatBody;
      const text = transcript(next);
      expect(text).toContain(`### Summary of rounds 1-${through}\n${rewrite.text}`);
      const open = text
        .split(`### Claims from rounds 1-${through} still unanswered there\n`)[1]
        ?.split('\n### ')[0];
      expect(open?.split('\n').filter((line) => line.startsWith('- ')).length).toBeGreaterThan(0);
    }
  });
});
