/**
 * What a server's one slot per model can serve in the formal debate, the critique and the council:
 * each call on a model begins with what the call before it on that model read (and, for a
 * debater alone on its model, with that call's answer too). Checked on the requests the simulator
 * received from the shipped scenarios, run by the CLI.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

interface Chat {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

const chats = (server: MockOllama): Chat[] =>
  server.requests.filter((request) => request.path === '/api/chat').map((request) => request.body as Chat);

/** The last message that holds a task heading: the call's task. */
const taskOf = (chat: Chat) =>
  [...chat.messages].reverse().find((message) => message.content.includes('## Your task'))?.content ?? '';

async function runShipped(file: string) {
  const server = await mock();
  const out = path.join(tempDir(), 'runs');
  const result = await runAgora(['run', path.resolve(file), '--host', server.url, '--out', out, '--quiet'], {
    timeoutMs: 600_000,
  });
  expect(result.code).toBe(0);
  return { server, events: readEvents(onlyRunDir(out)) };
}

describe('each call begins with what the call before it on its model read', () => {
  it('formal: a debater alone on its model continues its own conversation; calls on a shared model extend one record', async () => {
    const { server, events } = await runShipped('scenarios/formal-car-free-cities.yaml');
    const statements = events.filter((event) => event.type === 'statement');
    const sent = chats(server);
    const debaterCalls = sent.filter((chat) => /^## Your task: (?!the verdict)/m.test(taskOf(chat)));
    const verdicts = sent.filter((chat) => taskOf(chat).includes('## Your task: the verdict'));
    expect(debaterCalls).toHaveLength(12);
    expect(verdicts).toHaveLength(2);
    const judgeModel = verdicts[0]?.model;
    const debaterModel = (side: string) =>
      String(statements.find((event) => event.side === side && event.phase === 'preparation')?.model);
    const alone = ['affirmative', 'negative'].find((side) => debaterModel(side) !== judgeModel) as string;
    const shared = alone === 'affirmative' ? 'negative' : 'affirmative';
    expect(debaterModel(shared)).toBe(judgeModel);

    // Alone: each request is the one before, then its answer (the statement as recorded), then more.
    const own = debaterCalls.filter((chat) => chat.model === debaterModel(alone));
    const ownStatements = statements.filter((event) => event.side === alone);
    expect(own).toHaveLength(6);
    for (let at = 1; at < own.length; at += 1) {
      const before = own[at - 1] as Chat;
      const after = own[at] as Chat;
      expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
      expect(after.messages[before.messages.length]).toEqual({
        role: 'assistant',
        content: String(ownStatements[at - 1]?.text).trim(),
      });
    }
    // Its preparation stays its own: the other side and the judge never read it.
    const notes = String(ownStatements[0]?.text).trim();
    for (const chat of sent.filter((chat) => chat.model !== debaterModel(alone))) {
      expect(chat.messages.map((message) => message.content).join('\n')).not.toContain(notes);
    }

    // Shared with the judge: every call's record begins with the record of the call before it
    // on that model, and the verdict reads the record the last statement on that model read, grown.
    const onShared = sent.filter((chat) => chat.model === judgeModel);
    expect(onShared).toHaveLength(8);
    for (let at = 1; at < onShared.length; at += 1) {
      const before = onShared[at - 1]?.messages[1]?.content ?? '';
      expect(before.startsWith('## The debate so far')).toBe(true);
      // Before anyone has spoken, the record is a placeholder line.
      const empty = '## The debate so far\nNo statements have been made yet.';
      const grown = before === empty ? '## The debate so far\n' : before;
      expect(onShared[at]?.messages[1]?.content.startsWith(grown)).toBe(true);
    }
    // The two readings of the side swap differ only after the criteria.
    const [first, second] = verdicts.map((chat) => chat.messages.at(-1)?.content ?? '');
    const common = (first ?? '').indexOf('The two sides:');
    expect(common).toBeGreaterThan(0);
    expect(second?.slice(0, common)).toBe(first?.slice(0, common));
    expect(first?.slice(0, common)).toContain('Score each side on every criterion');
  });

  it('critique: on a model shared by experts and the judge, the refinements and the synthesis begin with every critique of the round', async () => {
    const { server } = await runShipped('scenarios/critique-rate-limiter.yaml');
    const sent = chats(server);
    const record = (chat: Chat) => chat.messages[1]?.content ?? '';
    for (const round of [1, 2]) {
      const critiques = sent.filter((chat) =>
        new RegExp(`^## Your task: critique .+ \\(round ${round}\\)$`, 'm').test(taskOf(chat)),
      );
      expect(critiques).toHaveLength(6);
      const refinements = sent.filter(
        (chat) => chat.model === 'llama3' && taskOf(chat).includes(`## Your task: round ${round} refinement`),
      );
      // Ada and Sol share llama3 with the judge.
      expect(refinements).toHaveLength(2);
      const synthesis = sent.find((chat) =>
        taskOf(chat).includes(`## Your task: synthesise a solution (after round ${round})`),
      ) as Chat;
      for (const refinement of refinements) {
        for (const critique of critiques) expect(record(refinement).startsWith(record(critique))).toBe(true);
        expect(record(refinement)).toContain(`## Round ${round}: critiques`);
        expect(record(refinement)).toBe(record(refinements[0] as Chat));
        expect(record(synthesis).startsWith(record(refinement))).toBe(true);
      }
      // Per, alone on mistral, reads the critiques of its own proposal in its task.
      const per = sent.find(
        (chat) =>
          chat.model === 'mistral' && taskOf(chat).includes(`## Your task: round ${round} refinement`),
      ) as Chat;
      expect(record(per)).toBe(record(critiques[0] as Chat));
      expect(taskOf(per)).toContain('## The critiques of your proposal\n### Ada on Per');
    }
  });

  it("council: each round's calls begin with everything the calls of the round before read, that round's task included", async () => {
    const { server } = await runShipped('scenarios/council-billing-database.yaml');
    const sent = chats(server);
    const record = (chat: Chat) => chat.messages[1]?.content ?? '';
    const round = (n: number) =>
      sent.filter((chat) => taskOf(chat).startsWith(`## Your task: round ${n} as the`));
    const judge = sent.filter((chat) => taskOf(chat).startsWith('## Your task: the decision'));
    expect(judge).toHaveLength(1);
    const rounds = [round(1), round(2), round(3), judge];
    for (const [at, calls] of rounds.entries()) {
      expect(calls.length).toBeGreaterThan(0);
      // Every role of a round reads the same record, ending with the round's task.
      for (const chat of calls) expect(record(chat)).toBe(record(calls[0] as Chat));
      if (at < 3)
        expect(record(calls[0] as Chat)).toMatch(new RegExp(`## Round ${at + 1}: [^\\n]+\\nEach role`));
      if (at === 0) continue;
      const before = record((rounds[at - 1] as Chat[])[0] as Chat);
      expect(record(calls[0] as Chat).startsWith(before)).toBe(true);
      expect(record(calls[0] as Chat).length).toBeGreaterThan(before.length);
    }
    // The role's card, last, names the round whose answer it asks for.
    for (const chat of round(3))
      expect(taskOf(chat)).toContain('Answer with the JSON object round 3 asks for above');
  });
});
