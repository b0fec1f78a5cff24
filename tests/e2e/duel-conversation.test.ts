/**
 * A duel debater on a model of its own reads one conversation that only grows: its earlier
 * statements as its own assistant turns, each request the previous one with its answer and one new
 * user turn (what was said since, then its task). Checked on the requests the mock server recorded
 * from the CLI's runs, as sent and as each model's chat template renders them; the Judge keeps the
 * layout every call shares, and a debater whose model serves another seat keeps it too.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { OMITTED_MARKER } from '../../src/context/fit-window.js';
import {
  applyTemplate,
  chatTemplate,
  type MockOllama,
  startMockOllama,
  templateNameFor,
} from '../../src/mock-ollama/index.js';
import { personTask } from '../../src/render/person-task.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES } from '../helpers/format-scenarios.js';
import { longTurnRules } from '../helpers/long-turns.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function server(options: Parameters<typeof startMockOllama>[0]) {
  const started = await startMockOllama(options);
  servers.push(started);
  return started;
}

interface Message {
  role: string;
  content: string;
}
interface ChatBody {
  model: string;
  messages: Message[];
}

const DUEL = {
  format: 'duel',
  topic: 'Remote work is better for knowledge workers than working in an office',
  seed: 99,
  positions: { a: 'Remote work is better', b: 'The office is better' },
  debaters: {
    a: { name: 'Ada', model: 'llama3', role: 'You have led distributed teams for ten years.' },
    b: {
      name: 'Blaise',
      model: 'mistral',
      role: 'You run a firm that brought its staff back to the office.',
    },
  },
  judge: { name: 'Judge', model: 'qwen2.5' },
  max_rounds: 4,
  stop: { judge_early_stop: false, max_total_output_tokens: 40_000 },
};

async function run(mockServer: MockOllama, data: Record<string, unknown>) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST_RETRIES, ...data }));
  const out = path.join(dir, 'runs');
  const result = await runAgora(['run', file, '--host', mockServer.url, '--out', out, '--quiet'], {
    timeoutMs: 600_000,
  });
  expect(result.code, result.stderr).toBe(0);
  return readEvents(onlyRunDir(out));
}

const chats = (mockServer: MockOllama) =>
  mockServer.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);
const last = (body: ChatBody) => body.messages.at(-1)?.content ?? '';
const debaterCalls = (mockServer: MockOllama, name: string) =>
  chats(mockServer).filter(
    (body) =>
      /## Your task: round \d+ of \d+/.test(last(body)) && last(body).includes(`Your name: ${name}\n`),
  );
const statementsOf = (events: Array<Record<string, unknown>>, side: string) =>
  events
    .filter((event) => event.type === 'statement' && event.side === side)
    .map((event) => String(event.text).trim());

/** The roles after the rules' system message, if any: user, assistant, user, ..., user. */
function alternates(messages: readonly Message[]): boolean {
  const turns = messages[0]?.role === 'system' ? messages.slice(1) : messages;
  return (
    turns.length % 2 === 1 &&
    turns.every((message, index) => message.role === (index % 2 ? 'assistant' : 'user'))
  );
}

describe('a duel debater on a model of its own', () => {
  it('reads its earlier statements as its own turns, each request the previous one plus its answer and one turn', async () => {
    const mockServer = await server({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const events = await run(mockServer, DUEL);
    for (const [side, name, model] of [
      ['a', 'Ada', 'llama3'],
      ['b', 'Blaise', 'mistral'],
    ] as const) {
      const calls = debaterCalls(mockServer, name);
      const spoken = statementsOf(events, side);
      expect(calls).toHaveLength(4);
      expect(spoken).toHaveLength(4);
      calls.forEach((body, index) => {
        const round = index + 1;
        expect(body.model).toBe(model);
        expect(alternates(body.messages)).toBe(true);
        // Its own statements of the earlier rounds, in order, as its assistant turns.
        const own = body.messages.filter((message) => message.role === 'assistant').map((m) => m.content);
        expect(own).toEqual(spoken.slice(0, index));
        // Whose turn and what to do come last.
        expect(last(body)).toMatch(new RegExp(`## Your task: round ${round} of 4\\n`));
        expect(last(body)).toMatch(
          /\nSpeak in the first person as \w+, without headings and without writing your name\.\nAim for about 270 words; you are cut off after about 450\.$/,
        );
        // The opponent's statement it answers is in its new turn, whole.
        const opponent = statementsOf(events, side === 'a' ? 'b' : 'a');
        const answers = side === 'a' ? opponent[round - 2] : opponent[round - 1];
        if (answers !== undefined) expect(last(body)).toContain(answers);
        // A person in the seat is shown that statement alone, then the task.
        const view = personTask(body.messages);
        expect(view).toMatchObject({
          name,
          task: expect.stringMatching(`^Your task: round ${round} of 4\n`),
        });
        expect(view.opponent?.text).toBe(answers);
      });
      // Append-only: the next request begins with this one and its answer, then one user turn.
      for (let index = 0; index + 1 < calls.length; index += 1) {
        const [now, next] = [calls[index] as ChatBody, calls[index + 1] as ChatBody];
        expect(next.messages.slice(0, now.messages.length)).toEqual(now.messages);
        expect(next.messages.slice(now.messages.length)).toEqual([
          { role: 'assistant', content: spoken[index] },
          expect.objectContaining({ role: 'user' }),
        ]);
        // Rendered by the model's chat template, the next prompt begins with this prompt and its
        // answer (after the space mistral's template puts before an answer, which the model writes
        // as part of its first word): what the server's slot kept of this call.
        const template = chatTemplate(templateNameFor(model));
        const [before, after] = [
          applyTemplate(template, now.messages),
          applyTemplate(template, next.messages),
        ];
        expect(after.startsWith(`${before}${template.answerLead ?? ''}${spoken[index]}`)).toBe(true);
      }
    }
    // Llama3 keeps the rules as its system message; mistral, whose template would move a system
    // message into the last turn, reads them first in its first user turn.
    const [ada, blaise] = [debaterCalls(mockServer, 'Ada'), debaterCalls(mockServer, 'Blaise')];
    expect(ada.at(-1)?.messages[0]).toMatchObject({ role: 'system' });
    expect(ada.at(-1)?.messages[0]?.content).toMatch(/^You are taking part in a judged debate duel\./);
    expect(blaise.at(-1)?.messages[0]).toMatchObject({ role: 'user' });
    expect(blaise.at(-1)?.messages[0]?.content).toMatch(/^You are taking part in a judged debate duel\./);
    expect(
      applyTemplate(chatTemplate('mistral'), blaise.at(-1)?.messages ?? []).startsWith(
        '[INST] You are taking part in a judged debate duel.',
      ),
    ).toBe(true);
    // The Judge's calls keep the shared layout: the rules, the transcript, its task; no turns of its own.
    const judges = chats(mockServer).filter((body) => /^## Your task: judge round/.test(last(body)));
    expect(judges).toHaveLength(8);
    for (const body of judges) {
      expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'user']);
      expect(body.messages[0]?.content).toBe(ada.at(-1)?.messages[0]?.content);
    }
  });

  it('a debater whose model also serves the Judge keeps the shared transcript; the other has its conversation', async () => {
    const mockServer = await server({ models: ['llama3', 'mistral'] });
    await run(mockServer, { ...DUEL, max_rounds: 2, judge: { name: 'Judge', model: 'llama3' } });
    for (const body of debaterCalls(mockServer, 'Ada')) {
      expect(body.messages.map((message) => message.role)).toEqual(['system', 'user', 'user']);
      expect(body.messages[1]?.content).toMatch(/^## Debate so far/);
    }
    const blaise = debaterCalls(mockServer, 'Blaise');
    expect(blaise.map((body) => body.messages.map((message) => message.role))).toEqual([
      ['user'],
      ['user', 'assistant', 'user'],
    ]);
  });

  it('a conversation that outgrows the window starts again at a later round, the earlier ones summarised, never cut', async () => {
    // 350-650-word statements on a 900-token cap: a few rounds outgrow a 6,144-token window.
    const mockServer = await server({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: longTurnRules('/^Your name: (Ada|Blaise)$/m', 10),
    });
    const events = await run(mockServer, {
      ...DUEL,
      max_rounds: 5,
      debater_max_tokens: 900,
      model_options: { context_window: 6144 },
    });
    for (const body of chats(mockServer)) {
      expect(body.messages.map((message) => message.content).join('\n')).not.toContain(OMITTED_MARKER);
    }
    for (const [side, name] of [
      ['a', 'Ada'],
      ['b', 'Blaise'],
    ] as const) {
      const calls = debaterCalls(mockServer, name);
      expect(calls).toHaveLength(5);
      for (const body of calls) expect(alternates(body.messages)).toBe(true);
      // Where a request does not begin with the one before, it is a restart: its first turn gives
      // the rounds before the last by the Judge's summary, and it carries fewer earlier statements.
      const restarts = calls.filter((body, index) => {
        const before = calls[index - 1];
        return before !== undefined && !isPrefix(before.messages, body.messages);
      });
      expect(restarts.length).toBeGreaterThan(0);
      for (const body of restarts) {
        const first = body.messages.find((message) => message.role === 'user')?.content ?? '';
        expect(first).toMatch(/### Round 1 \(the Judge's summary\)/);
      }
      // The last request still holds its newest own statements verbatim, as its own turns.
      const spoken = statementsOf(events, side);
      const own = (calls.at(-1)?.messages ?? []).filter((message) => message.role === 'assistant');
      expect(own.length).toBeGreaterThan(0);
      expect(own.map((message) => message.content)).toEqual(spoken.slice(4 - own.length, 4));
    }
  });
});

function isPrefix(before: readonly Message[], after: readonly Message[]): boolean {
  return (
    before.length < after.length &&
    before.every(
      (message, index) => message.role === after[index]?.role && message.content === after[index]?.content,
    )
  );
}
