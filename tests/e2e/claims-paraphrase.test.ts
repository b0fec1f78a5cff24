/**
 * Claims and memory as a small model makes them: the simulator copies one claim quote in four with
 * a slip (a comma left out, a changed case, a word changed or left out), and the engine's prompts
 * are read back from the requests it sent. A claim the statement never made reaches nothing; a
 * debater who has spoken is never told it has not; after a rotation Position X hears who it now
 * debates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama, ScriptRule } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

interface ChatBody {
  messages: Array<{ role: string; content: string }>;
}

const bodies = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody);

const lastMessage = (body: ChatBody) => body.messages.at(-1)?.content ?? '';
const wholePrompt = (body: ChatBody) => body.messages.map((message) => message.content).join('\n');

/** A debater's prompt: its name and round, read from its task. */
function debaterTask(body: ChatBody): { agent: string; round: number } | null {
  const text = lastMessage(body);
  const agent = /^Your name: (.+)$/m.exec(text)?.[1];
  const round = /^## Your task: round (\d+) of \d+$/m.exec(text)?.[1];
  return agent && round ? { agent, round: Number(round) } : null;
}

async function run(server: MockOllama, data: Record<string, unknown>, runId = 'claims') {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(data));
  const out = path.join(dir, 'runs');
  const result = await runAgora(
    ['run', file, '--host', server.url, '--out', out, '--run-id', runId, '--quiet'],
    { timeoutMs: 600_000 },
  );
  return { result, out, runDir: onlyRunDir(out) };
}

/** Every judge votes to replace the debater, with new arguments seen: a rotation after each round. */
const replaceEveryone: ScriptRule = {
  match: { text: 'evaluate round' },
  json: {
    comments: 'Weak on evidence and slow to answer.',
    position_y_performance: { argument_strength: 2, relevance: 2, persuasiveness: 2, clarity: 2 },
    new_arguments: true,
    continue_vote: false,
  },
};

describe('claims and memory with a note-taker that copies like a small model', () => {
  it('keeps at least 90% of the claims, tells no one who has spoken that they have not, and names the new opponent after every rotation', async () => {
    const server = await mock({ script: [replaceEveryone] });
    const { result, runDir } = await run(
      server,
      testScenario({ rounds: 8, yCount: 4, threshold: 2, limit: 3 }),
    );
    expect(result.code, result.stderr).toBe(0);
    const events = readEvents(runDir);

    // Claims kept, through the real matching code, from the simulator's default quotes.
    const extractions = events.filter((event) => event.type === 'claims');
    expect(extractions).toHaveLength(16);
    const sum = (field: string) => extractions.reduce((total, event) => total + Number(event[field] ?? 0), 0);
    const fromModel = extractions.filter((event) => event.source === 'model');
    const kept = fromModel.reduce((total, event) => total + (event.claims as unknown[]).length, 0);
    const dropped = sum('unverified');
    const near = sum('nearMatched');
    const fellBack = extractions.filter((event) => event.source === 'heuristic').length;
    // biome-ignore lint/suspicious/noConsole: the figures belong in the test output
    console.log(
      `knockout on the simulator's defaults: ${kept} claims kept (${near} near-matched), ${dropped} dropped, ${fellBack} of ${extractions.length} extractions fell back to key sentences`,
    );
    expect(kept / (kept + dropped)).toBeGreaterThanOrEqual(0.9);
    // The simulator did slip: some quotes were only near their sentence, and they were kept.
    expect(near).toBeGreaterThan(0);

    // Nobody who has spoken is told otherwise; those who have not are (so the check can fail).
    const spokenBefore = (agent: string, round: number) =>
      events.some(
        (event) => event.type === 'turn-end' && event.agent === agent && Number(event.round) < round,
      );
    const sent = bodies(server);
    const debaterPrompts = sent.flatMap((body) => {
      const task = debaterTask(body);
      return task ? [{ ...task, text: lastMessage(body), body }] : [];
    });
    expect(debaterPrompts.length).toBeGreaterThanOrEqual(16);
    let told = 0;
    for (const prompt of debaterPrompts) {
      const says = prompt.text.includes('You have not spoken yet');
      if (spokenBefore(prompt.agent, prompt.round))
        expect(says, `${prompt.agent}, round ${prompt.round}`).toBe(false);
      else if (says) told += 1;
      // No claim id reaches a debater, and no claim is listed twice in one prompt.
      expect(wholePrompt(prompt.body)).not.toMatch(/\[[XY]\d+\.\d+\]/);
      const listed = prompt.text.split('\n').filter((line) => line.startsWith('- '));
      expect(new Set(listed).size, `${prompt.agent}, round ${prompt.round}`).toBe(listed.length);
    }
    expect(told).toBeGreaterThan(0);
    // Xavier, who has spoken, is reminded of his own claims.
    const xavier4 = debaterPrompts.find((prompt) => prompt.agent === 'Xavier' && prompt.round === 4);
    expect(xavier4?.text).toMatch(/Claims you have made so far|Points you have made so far/);

    // After every rotation, Position X's next prompt says who now debates, whom they replaced, and
    // its focus names the new opponent.
    const rotations = events.flatMap((event) =>
      event.type === 'round-end' && event.rotation
        ? [{ after: Number(event.round), ...(event.rotation as { from: string; to: string }) }]
        : [],
    );
    expect(rotations).toHaveLength(3);
    for (const rotation of rotations) {
      const next = debaterPrompts.filter(
        (prompt) => prompt.agent === 'Xavier' && prompt.round === rotation.after + 1,
      );
      expect(next.length).toBeGreaterThan(0);
      for (const prompt of next) {
        expect(prompt.text).toContain(
          `${rotation.to} now debates for Car-friendly (Position Y) in place of ${rotation.from}`,
        );
        const focus = prompt.text.split('\n').find((line) => line.startsWith('Your focus:'));
        expect(focus, `Xavier, round ${prompt.round}`).toContain(rotation.to);
      }
    }
    // The moderator's notes a person reads carry no claim id either.
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).not.toMatch(/\[[XY]\d+\.\d+\]/);

    // What a 7-8B model receives: one extraction task and one debater's memory, as sent.
    const extraction = sent.find((body) =>
      lastMessage(body).includes("list the claims in Xavier's statement in round 3"),
    );
    const memory = xavier4?.text.slice(
      xavier4.text.indexOf('\n\n', xavier4.text.indexOf('Your side:')) + 2,
      xavier4.text.indexOf('## Your task'),
    );
    // biome-ignore lint/suspicious/noConsole: what the model reads, for the record
    console.log(
      `--- extraction task ---\n${lastMessage(extraction as ChatBody)}\n--- Xavier's memory, round 4 ---\n${memory}`,
    );
  });

  it('a claim no statement made reaches no later prompt, transcript or map; a statement left without claims gets its key sentences', async () => {
    const fabricated = 'Tram fares quadrupled wherever cars were banned outright';
    const server = await mock({
      script: [
        // Every quote of Xavier's first extraction is made up: nothing of it is his.
        {
          match: { text: "list the claims in Xavier's statement in round 1\n" },
          json: { claims: [{ quote: fabricated, kind: 'new', answers: 'none' }] },
        },
        // Yara's mixes one made-up quote with one of her own sentence's openings (the simulator's speech).
        {
          match: { text: "list the claims in Yara's statement in round 1\n" },
          json: { claims: [{ quote: `${fabricated} last year`, kind: 'new', answers: 'none' }] },
        },
      ],
    });
    const { result, out, runDir } = await run(server, testScenario({ rounds: 3 }), 'fabricated');
    expect(result.code, result.stderr).toBe(0);
    const events = readEvents(runDir);
    const first = events.filter((event) => event.type === 'claims' && event.round === 1);
    for (const event of first) {
      // Dropped, counted, and the statement's own key sentences stand in, marked as such.
      expect(event).toMatchObject({
        source: 'heuristic',
        unverified: 1,
        reason: expect.stringMatching(/no quote of the answer was in the statement/),
      });
      const statement = events.find(
        (turn) => turn.type === 'turn-end' && turn.round === 1 && turn.agent === event.agent,
      );
      const text = String(statement?.text).replace(/\s+/g, ' ');
      expect((event.claims as Array<{ claim: string }>).length).toBeGreaterThan(0);
      for (const claim of event.claims as Array<{ claim: string }>)
        expect(text).toContain(claim.claim.replace(/…$/, ''));
    }
    // Nothing made up went anywhere: not into a later prompt, the log, the transcript or the map.
    const extractionAt = server.requests.findIndex((request) =>
      JSON.stringify(request.body ?? '').includes("list the claims in Xavier's statement in round 1"),
    );
    expect(extractionAt).toBeGreaterThan(-1);
    const later = server.requests.slice(extractionAt + 1);
    expect(later.length).toBeGreaterThan(10);
    for (const request of later) expect(JSON.stringify(request.body ?? '')).not.toContain('Tram fares');
    expect(readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')).not.toContain('Tram fares');
    expect(readFileSync(path.join(runDir, 'transcript.md'), 'utf8')).not.toContain('Tram fares');
    expect(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')).not.toContain('Tram fares');
    const shown = await runAgora(['show', 'fabricated', '--out', out]);
    expect(shown.code, shown.stderr).toBe(0);
    const map = shown.stdout.slice(shown.stdout.indexOf('## Argument map'));
    expect(map).toContain('- **X1.1** ');
    expect(map).not.toContain('Tram fares');
    // The map says which statements hold key sentences in place of a note-taker's claims.
    expect(map).toMatch(/For 2 statements the ledger holds key sentences instead/);
  });
});
