/**
 * A person at the podium in a duel and a formal debate: the seat speaks through standard input,
 * its statements are recorded under the model name `person` and judged like any debater's, input
 * that ends early pauses the run at the person's turn, and the judge's seat is never a person's.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { agoraCommandLine, projectRoot, runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const start = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

const duel = (extra: Record<string, unknown> = {}) => ({
  format: 'duel',
  topic: 'Remote work is better for knowledge workers than the office',
  seed: 5,
  positions: { a: 'Remote work is better', b: 'The office is better' },
  debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
  judge: { name: 'Judge', model: 'qwen2.5' },
  max_rounds: 2,
  stop: { judge_early_stop: false },
  ...extra,
});

const formal = (extra: Record<string, unknown> = {}) => ({
  format: 'formal',
  topic: 'This house would ban private cars from city centres',
  seed: 3,
  debaters: [
    { name: 'Ada', model: 'llama3' },
    { name: 'Blaise', model: 'mistral' },
  ],
  verdict: { enabled: true, judge_model: 'qwen2.5' },
  ...extra,
});

function scenarioFile(scenario: Record<string, unknown>): { file: string; out: string } {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(scenario));
  return { file, out: path.join(dir, 'runs') };
}

type Json = Record<string, unknown>;
const transcriptOf = (runDir: string) =>
  JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as Json;

const chatModels = (server: { requests: Array<{ path: string; body: unknown }> }) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => (request.body as { model: string }).model);

/** Statements as a pipe gives them: each ends at a line holding only ".". */
const piped = (statements: string[]) => statements.map((text) => `${text}\n.\n`).join('');

const DUEL_WORDS = [
  'Remote work gives people back the hours they lose commuting, and those hours go into focused work. Teams that write things down decide better than teams that talk in corridors.',
  'My opponent says juniors learn by watching, yet mentoring works over video when it is planned. The office is a habit, not a method, and habits should be judged by results.',
];

describe('a person at the podium in a duel', () => {
  it('speaks for Debater A from piped input, and the judge judges every round', async () => {
    const server = await start();
    const { file, out } = scenarioFile(duel());
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--human', 'a'], {
      input: piped(DUEL_WORDS),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('=== Your turn at the podium ===');
    expect(result.stdout).toContain('You speak as Ada, for Remote work is better.');
    // In round 2 the person reads Blaise's statement of round 1, as Ada's model would.
    expect(result.stdout).toContain('Blaise said:');
    const runDir = onlyRunDir(out);
    const statements = readEvents(runDir).filter((event) => event.type === 'statement');
    const mine = statements.filter((event) => event.side === 'a');
    expect(mine.map((event) => [event.speaker, event.model, event.text])).toEqual(
      DUEL_WORDS.map((text) => ['Ada', 'person', text]),
    );
    expect(statements.filter((event) => event.side === 'b').map((event) => event.model)).toEqual([
      'mistral',
      'mistral',
    ]);
    const transcript = transcriptOf(runDir);
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'max_rounds' });
    expect(transcript.debaters).toMatchObject({ a: { name: 'Ada', model: 'person' } });
    const rounds = transcript.rounds as Array<{ judgement: Json | null }>;
    expect(rounds).toHaveLength(2);
    for (const round of rounds) {
      expect(round.judgement).toMatchObject({
        abstained: false,
        stronger: expect.stringMatching(/^(a|b|even)$/),
      });
    }
    // The judge read the person's words as Debater A's.
    const judged = server.requests.filter(
      (request) => request.path === '/api/chat' && (request.body as { model: string }).model === 'qwen2.5',
    );
    expect(JSON.stringify(judged[0]?.body)).toContain(DUEL_WORDS[0]?.slice(0, 60));
    expect(chatModels(server)).not.toContain('person');
    expect(chatModels(server)).not.toContain('llama3');
  });

  it('takes a seat marked human: true in the scenario, and resumes a run paused when the input ends', async () => {
    const server = await start();
    const { file, out } = scenarioFile(
      duel({
        debaters: {
          a: { name: 'Ada', model: 'llama3' },
          b: { name: 'Blaise', model: 'mistral', human: true },
        },
      }),
    );
    const first = await runAgora(['run', file, '--host', server.url, '--out', out], {
      input: piped([DUEL_WORDS[0] as string]),
    });
    expect(first.code).toBe(130);
    const runDir = onlyRunDir(out);
    expect(first.stdout).toContain(`resume ${runDir}`);
    expect(readEvents(runDir).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'stopped',
      stopReason: 'awaiting-person',
    });
    const second = await runAgora(['resume', runDir, '--host', server.url], {
      input: `${DUEL_WORDS[1]}\n`,
    });
    expect(second.code).toBe(0);
    const events = readEvents(runDir);
    const blaise = events.filter((event) => event.type === 'statement' && event.side === 'b');
    expect(blaise.map((event) => [event.model, event.text])).toEqual(
      DUEL_WORDS.map((text) => ['person', text]),
    );
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });

  it('counts a pasted statement as it is recorded, cut at the cap, so the opponent still speaks', async () => {
    const server = await start();
    const { file, out } = scenarioFile(duel());
    // 7,000 words: counted whole (9,334 tokens) they would spend the duel's 8,000-token budget.
    const paste = Array.from({ length: 7000 }, (_, index) => `word${index % 50}`).join(' ');
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--human', 'a'], {
      input: piped([paste, DUEL_WORDS[1] as string]),
    });
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const statements = readEvents(runDir).filter((event) => event.type === 'statement');
    const first = statements.find((event) => event.side === 'a' && event.round === 1);
    // The cap is 600 tokens: 450 words at 4/3 tokens a word, counted as the 600 tokens they are.
    expect(String(first?.text).split(/\s+/)).toHaveLength(450);
    expect(first).toMatchObject({ model: 'person', outputTokens: 600, truncated: true });
    expect(statements.filter((event) => event.side === 'b').map((event) => event.model)).toEqual([
      'mistral',
      'mistral',
    ]);
    expect(transcriptOf(runDir)).toMatchObject({ status: 'completed', stopReason: 'max_rounds' });
  });

  it('reads only so much of a never-ending line, says what was dropped, and goes on to the next statement', async () => {
    const server = await start();
    const { file, out } = scenarioFile(duel());
    // 32 MB on one line: the old reader held it all (700 MB of it crashed the run).
    const endless = 'a'.repeat(32 * 1024 * 1024);
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--human', 'a'], {
      input: piped([`${DUEL_WORDS[0]}\n${endless}`, DUEL_WORDS[1] as string]),
    });
    expect(result.code).toBe(0);
    // The cap is 600 tokens, so 9,600 characters are read: the first line whole, then the long one's start.
    const kept = 9600 - (DUEL_WORDS[0] as string).length - 1;
    expect(result.stdout).toContain(
      `(Your statement is longer than the 9,600 characters read of it: the other ${(endless.length - kept).toLocaleString('en-US')}, up to the line holding only ".", were dropped.`,
    );
    const statements = readEvents(onlyRunDir(out)).filter((event) => event.type === 'statement');
    const mine = statements.filter((event) => event.side === 'a');
    expect(mine[0]?.text).toBe(`${DUEL_WORDS[0]}\n${'a'.repeat(kept)}`);
    expect(mine[1]?.text).toBe(DUEL_WORDS[1]);
    expect(statements.filter((event) => event.side === 'b')).toHaveLength(2);
  });

  it('pauses at once at the person’s turn when `agora stop` is asked while it waits, and resumes there', async () => {
    const server = await start();
    const { file, out } = scenarioFile(duel());
    const [command = process.execPath, ...rest] = agoraCommandLine([
      'run',
      file,
      '--host',
      server.url,
      '--out',
      out,
      '--human',
      'a',
    ]);
    // Standard input stays open and silent: the run waits for the person, as at a terminal.
    const child = spawn(command, rest, {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1', OLLAMA_HOST: 'http://127.0.0.1:1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stderr.resume();
    const asked = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('=== Your turn at the podium ===')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await asked;
      const runDir = onlyRunDir(out);
      const stop = await runAgora(['stop', runDir]);
      expect(stop.code).toBe(0);
      expect(stop.stdout).toContain('Asked process');
      expect(await exited).toBe(130);
      expect(readEvents(runDir).at(-1)).toMatchObject({
        type: 'run-end',
        status: 'stopped',
        stopReason: 'awaiting-person',
      });
      expect(stdout).toContain(`resume ${runDir}`);
      const resumed = await runAgora(['resume', runDir, '--host', server.url], {
        input: piped(DUEL_WORDS),
      });
      expect(resumed.code).toBe(0);
      const mine = readEvents(runDir).filter((event) => event.type === 'statement' && event.side === 'a');
      expect(mine.map((event) => event.text)).toEqual(DUEL_WORDS);
      expect(transcriptOf(runDir)).toMatchObject({ status: 'completed' });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses the judge’s seat and a seat the duel does not have, naming the seats it has', async () => {
    const { file, out } = scenarioFile(duel());
    for (const seat of ['Judge', 'c']) {
      const result = await runAgora(['run', file, '--out', out, '--human', seat]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--human ${seat}`);
      expect(result.stderr).toContain('a (Debater A, Ada) and b (Debater B, Blaise)');
    }
    const judged = await runAgora(['run', file, '--out', out, '--human', 'Judge']);
    expect(judged.stderr).toContain("the judge's seat is always a model's");
  });

  it('refuses human: true on the judge in a scenario, saying where a person can sit', async () => {
    const { file, out } = scenarioFile(duel({ judge: { name: 'Judge', model: 'qwen2.5', human: true } }));
    const result = await runAgora(['run', file, '--out', out]);
    // A mistake in a scenario file is a configuration error (exit 3), named by file, line and field.
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('scenario.yaml:');
    expect(result.stderr).toContain('judge.human');
    expect(result.stderr).toContain('a judge is always a model');
  });
});

/** The negative's six statements: preparation, opening, rebuttal, its answer, its question, closing. */
const NEGATIVE = [
  'Notes: access for disabled people, deliveries, the cost to small shops; expect the air quality point.',
  'Private cars carry people the buses do not reach. A ban in the centre punishes the night worker and the carer first, and the shops that depend on them.',
  'My opponent praises cleaner air, yet a low-emission zone gets most of that without a ban. Their case assumes transport that many towns do not have.',
  'Yes, some shops gained footfall; those were the ones on new tram lines. No, I do not accept that disabled access is solved by permits alone.',
  'Which towns without a metro have banned cars without losing trade? Who pays for the buses your ban needs on the first day?',
  'The affirmative has shown that cities can be cleaner, not that a ban is the way to get there. Cleaner engines and pricing do the job and keep the centre open to all.',
];

describe('a person at the podium in a formal debate', () => {
  it('speaks for the negative in every phase from piped input, and the verdict judges the debate', async () => {
    const server = await start();
    const { file, out } = scenarioFile(formal());
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--human', 'negative'], {
      input: piped(NEGATIVE),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Your task: cross-examination');
    const runDir = onlyRunDir(out);
    const transcript = transcriptOf(runDir);
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'finished' });
    const sides = transcript.sides as Record<string, { name: string; model: string }>;
    // The person is shown what the other side said last, under its speaker's name.
    expect(result.stdout).toContain(`${sides.affirmative?.name} said:`);
    expect(sides.negative?.model).toBe('person');
    expect(sides.affirmative?.model).not.toBe('person');
    const statements = readEvents(runDir).filter(
      (event) => event.type === 'statement' && event.side === 'negative',
    );
    expect(statements.map((event) => [event.phase, event.model, event.text])).toEqual([
      ['preparation', 'person', NEGATIVE[0]],
      ['opening', 'person', NEGATIVE[1]],
      ['rebuttal', 'person', NEGATIVE[2]],
      ['cross-answer', 'person', NEGATIVE[3]],
      ['cross-question', 'person', NEGATIVE[4]],
      ['closing', 'person', NEGATIVE[5]],
    ]);
    expect(transcript.verdict).toMatchObject({
      abstained: false,
      winner: expect.stringMatching(/affirmative|negative|tie/),
    });
    // The judge read the person's closing as the negative's.
    const verdictCalls = server.requests.filter(
      (request) => request.path === '/api/chat' && (request.body as { model: string }).model === 'qwen2.5',
    );
    expect(JSON.stringify(verdictCalls.at(-1)?.body)).toContain(NEGATIVE[5]?.slice(0, 60));
    expect(chatModels(server)).not.toContain('person');
  });

  it('holds the person to the word limit and the time limit, counted from their words', async () => {
    const server = await start();
    // 12 s at 3.75 tokens a second and 4/3 tokens a word is 33 words; the word limit is 20.
    const { file, out } = scenarioFile(
      formal({ statements: { time_limit_seconds: 12, word_limit: 20 }, verdict: { enabled: false } }),
    );
    const long = Array.from({ length: 40 }, (_, index) => `word${index + 1}`).join(' ');
    const result = await runAgora(
      ['run', file, '--host', server.url, '--out', out, '--human', 'negative', '--quiet'],
      { input: piped(Array.from({ length: 6 }, () => long)) },
    );
    expect(result.code).toBe(0);
    const mine = readEvents(onlyRunDir(out)).filter(
      (event) => event.type === 'statement' && event.side === 'negative',
    );
    // Preparation has no word limit: the time limit cuts it at word 33, marked.
    expect(mine[0]).toMatchObject({ phase: 'preparation', timeLimited: true });
    expect(mine[0]?.text).toMatch(/ word33\n\[Time limit reached\]$/);
    // The speeches are cut at the word limit first, as a model's are.
    expect(mine[1]).toMatchObject({ phase: 'opening', wordLimited: true });
    expect(mine[1]?.text).toMatch(/ word20 \[Word limit reached\]$/);
  });

  it('strict mode: the moderator reads a time-cut statement with its marker, each speaker as the debate names it, and only rules it can check', async () => {
    const server = await start({
      script: [
        {
          match: { prompt: 'You moderate a formal debate' },
          json: { assessment: 'On the motion and civil.', on_topic: true, follows_conventions: true },
        },
      ],
    });
    // One debater is named only by its model, as debaters picked from the server are.
    const { file, out } = scenarioFile(
      formal({
        debaters: [
          { name: 'llama3', model: 'llama3' },
          { name: 'Blaise', model: 'mistral' },
        ],
        statements: { time_limit_seconds: 12, strict_mode: true, moderator_model: 'qwen2.5' },
        verdict: { enabled: false },
      }),
    );
    const long = Array.from({ length: 40 }, (_, index) => `word${index + 1}`).join(' ');
    const result = await runAgora(
      ['run', file, '--host', server.url, '--out', out, '--human', 'negative', '--quiet'],
      { input: piped(Array.from({ length: 6 }, () => long)) },
    );
    expect(result.code).toBe(0);
    const moderations = server.requests
      .filter((request) => request.path === '/api/chat')
      .map((request) => (request.body as { messages: Array<{ content: string }> }).messages)
      .filter((messages) => messages[0]?.content.startsWith('You moderate a formal debate'));
    // Five speeches a side, each checked once.
    expect(moderations).toHaveLength(10);
    for (const messages of moderations) {
      expect(messages[0]?.content).not.toMatch(/fabricated quotations/);
      expect(messages[0]?.content).toContain('do not judge whether its facts or quotations are accurate');
      expect(messages[1]?.content).not.toMatch(/statement by llama3\b/);
    }
    // The seed gives the model-named debater the negative, the person's seat here.
    const byPerson = moderations.filter((messages) =>
      messages[1]?.content.startsWith('Check this statement by the negative ('),
    );
    const byModel = moderations.filter((messages) =>
      messages[1]?.content.startsWith('Check this statement by Blaise ('),
    );
    expect([byPerson.length, byModel.length]).toEqual([5, 5]);
    // The person's speeches ran past 12 s of speaking time: the moderator reads them as recorded, marked.
    for (const messages of byPerson)
      expect(messages[1]?.content).toMatch(/ word33\n\[Time limit reached\]\n/);
  });

  it('pauses when the input ends before the negative’s closing, and resume finishes with the rest', async () => {
    const server = await start();
    const { file, out } = scenarioFile(formal());
    const first = await runAgora(['run', file, '--host', server.url, '--out', out, '--human', 'Blaise'], {
      input: piped(NEGATIVE.slice(0, 5)),
    });
    expect(first.code).toBe(130);
    const runDir = onlyRunDir(out);
    expect(readEvents(runDir).at(-1)).toMatchObject({ stopReason: 'awaiting-person' });
    const second = await runAgora(['resume', runDir, '--host', server.url], { input: `${NEGATIVE[5]}\n` });
    expect(second.code).toBe(0);
    const events = readEvents(runDir);
    const closing = events.find(
      (event) => event.type === 'statement' && event.phase === 'closing' && event.speaker === 'Blaise',
    );
    expect(closing).toMatchObject({ model: 'person', text: NEGATIVE[5] });
    expect(transcriptOf(runDir)).toMatchObject({ status: 'completed' });
  });

  it('refuses the judge’s seat and a side the debate does not have, naming its seats', async () => {
    const { file, out } = scenarioFile(formal());
    for (const seat of ['judge', 'neutral']) {
      const result = await runAgora(['run', file, '--out', out, '--human', seat]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--human ${seat}`);
      expect(result.stderr).toMatch(/affirmative \((Ada|Blaise)\) and negative \((Ada|Blaise)\)/);
    }
  });
});
