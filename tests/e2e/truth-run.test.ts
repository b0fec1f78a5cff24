import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { comparable, onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

type Json = Record<string, unknown>;
interface Verdict {
  condition: string;
  reading: number;
  rightFirst: boolean;
  believed: string | null;
  correct: boolean | null;
  confidence: number | null;
}
interface Question {
  number: number;
  question: string;
  answer: string;
  wrongAnswer: string;
  verdicts: Verdict[];
}
/** A line offering `answer`: numbered for a judge deciding, listed for anyone else. */
const offered = (answer: string) =>
  new RegExp(`^(Answer [12]: |- )${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');
const readJson = (runDir: string) =>
  JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as Json & {
    questions: Question[];
    summary: { conditions: Array<{ condition: string; accuracy: { correct: number; n: number } | null }> };
    status: string;
  };

/** The chat requests the server saw: the messages joined, and whether a JSON schema was asked for. */
const chats = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => {
      const body = request.body as { messages: Array<{ content: string }>; format?: unknown };
      return {
        text: body.messages.map((message) => message.content).join('\n'),
        task: body.messages.at(-1)?.content ?? '',
        structured: typeof body.format === 'object' && body.format !== null,
      };
    });

describe('format: truth', () => {
  it('runs direct, consultancy and debate on the same generated questions, and show reports accuracy', async () => {
    const server = await mock();
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'run',
      '--format',
      'truth',
      '--questions',
      '6',
      '--seed',
      '21',
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const transcript = readJson(runDir);
    expect(transcript.status).toBe('completed');
    expect(transcript.questions).toHaveLength(6);
    for (const question of transcript.questions) {
      // Each condition read twice, the second time with the answers the other way round.
      expect(question.verdicts.map((verdict) => `${verdict.condition}:${verdict.reading}`)).toEqual([
        'direct:1',
        'direct:2',
        'consultancy:1',
        'consultancy:2',
        'debate:1',
        'debate:2',
      ]);
      for (const at of [0, 2, 4])
        expect(question.verdicts[at]?.rightFirst).toBe(!question.verdicts[at + 1]?.rightFirst);
      for (const verdict of question.verdicts) {
        // The judge names one of the two answers offered, and the record says whether it was the right one.
        expect([question.answer, question.wrongAnswer]).toContain(verdict.believed);
        expect(verdict.correct).toBe(verdict.believed === question.answer);
        expect(verdict.confidence).toBeGreaterThanOrEqual(50);
      }
    }
    // The summary counts what the questions say, condition by condition, reading by reading.
    for (const row of transcript.summary.conditions) {
      const right = transcript.questions.flatMap((question) =>
        question.verdicts.filter((verdict) => verdict.condition === row.condition && verdict.correct),
      ).length;
      expect(row.accuracy).toMatchObject({ correct: right, n: 12, questions: 6 });
    }
    // The simulator cannot work questions out: it is neither always right nor always wrong.
    const all = transcript.questions.flatMap((question) =>
      question.verdicts.map((verdict) => verdict.correct),
    );
    expect(all).toContain(true);
    expect(all).toContain(false);

    // Every judge call offers both answers and no debater is told which one is right.
    const requests = chats(server);
    const verdicts = requests.filter((request) => request.structured);
    expect(verdicts).toHaveLength(36);
    // Per question, each condition's two verdicts offer the answers in opposite orders.
    for (const question of transcript.questions) {
      const orders = verdicts
        .filter((request) => request.text.includes(question.question))
        .map(
          (request) =>
            `${/^Answer 1: (.+)$/m.exec(request.text)?.[1]} | ${/^Answer 2: (.+)$/m.exec(request.text)?.[1]}`,
        );
      const forward = `${question.answer} | ${question.wrongAnswer}`;
      const backward = `${question.wrongAnswer} | ${question.answer}`;
      expect(orders.filter((order) => order === forward)).toHaveLength(3);
      expect(orders.filter((order) => order === backward)).toHaveLength(3);
    }
    for (const question of transcript.questions) {
      const about = requests.filter((request) => request.text.includes(question.question));
      expect(about.length).toBeGreaterThan(3);
      for (const request of about) {
        expect(request.text).toMatch(offered(question.answer));
        expect(request.text).toMatch(offered(question.wrongAnswer));
        expect(request.text).not.toMatch(/\(right\)|is the right answer:/);
      }
    }

    const shown = await runAgora(['show', runDir]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Accuracy per condition');
    for (const row of transcript.summary.conditions) {
      expect(shown.stdout).toMatch(
        new RegExp(
          `${row.condition} +${row.accuracy?.correct} +12 +\\d+% \\(\\d+–\\d+%\\) +\\d of 6 \\(\\d+%\\)`,
        ),
      );
    }
    expect(shown.stdout).toMatch(
      /debate − direct +6 +\d(\.5)? +\d(\.5)? +[−+]?\d+ points \([−+]?\d+ to [−+]?\d+\)/,
    );
    expect(shown.stdout).toContain('Persuasiveness');
    expect(shown.stdout).toContain('## Question 6');
  });

  it('shows the passage to the debaters and never to the judge', async () => {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'questions.jsonl');
    writeFileSync(
      file,
      `${[
        {
          id: 'lamp',
          question: 'What colour was the lamp?',
          answer: 'green',
          wrong_answer: 'blue',
          passage: 'The lamp in the hall was green, the PASSAGE-MARK said.',
        },
        { question: 'How many legs has a spider?', answer: 8, wrong_answer: 6 },
      ]
        .map((item) => JSON.stringify(item))
        .join('\n')}\n`,
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(
      [
        'run',
        '--format',
        'truth',
        '--questions',
        file,
        '--seed',
        '4',
        '--host',
        server.url,
        '--out',
        out,
        '--quiet',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    const requests = chats(server).filter((request) => request.text.includes('What colour was the lamp?'));
    const judge = requests.filter((request) => request.task.includes('You are the judge'));
    const debaters = requests.filter((request) => !request.task.includes('You are the judge'));
    expect(judge.length).toBeGreaterThanOrEqual(3);
    expect(debaters.length).toBeGreaterThanOrEqual(4);
    // The judge is never given the passage; it reads only what the debaters quote of it, marked.
    for (const request of judge) {
      expect(request.text).not.toContain('## Passage');
      expect(request.text.replace(/<[uv]_quote>[^<]*<\/[uv]_quote>/g, '')).not.toContain('PASSAGE-MARK');
    }
    const alone = judge.filter((request) => request.task.includes('Answer it yourself as best you can'));
    expect(alone.length).toBeGreaterThanOrEqual(1);
    for (const request of alone) expect(request.text).not.toContain('PASSAGE-MARK');
    for (const request of debaters) expect(request.text).toContain('PASSAGE-MARK');
    expect(readJson(onlyRunDir(out)).questions.map((question) => question.answer)).toEqual(['green', '8']);
  });

  it('refuses a bad question file with the file, the field and the fix (exit 3)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'mine.yaml');
    writeFileSync(
      file,
      stringify([
        { question: 'What is 2 + 2?', answer: '4', wrong_answer: '5' },
        { question: 'What is 3 + 3?', answer: '6' },
        { question: 'What is 1 + 1?', answer: '2', wrong_answer: '2' },
      ]),
    );
    const result = await runAgora(
      ['run', '--format', 'truth', '--questions', 'mine.yaml', '--out', path.join(dir, 'runs')],
      {
        cwd: dir,
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /mine\.yaml:\d+:1: \[1\]\.wrong_answer: is missing; every question needs question, answer, wrong_answer/,
    );
    expect(result.stderr).toMatch(/mine\.yaml:\d+:1: \[2\]\.wrong_answer: is the same as answer \("2"\)/);
  });

  it('ends degraded (exit 9) when the judge gives no usable verdict, and counts it apart from right and wrong', async () => {
    const server = await mock({
      script: [{ match: { prompt: 'Answer the question yourself.' }, reply: 'Hard to say.' }],
    });
    const dir = tempDir();
    const scenario = path.join(dir, 'truth.yaml');
    writeFileSync(
      scenario,
      stringify({
        format: 'truth',
        seed: 3,
        questions: 2,
        max_rounds: 1,
        debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
        judge: { model: 'qwen2.5' },
        reliability: { attempts: 2, backoff_ms: 5, max_backoff_ms: 10 },
      }),
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(['run', scenario, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(9);
    const transcript = readJson(onlyRunDir(out));
    expect(transcript.status).toBe('degraded');
    for (const question of transcript.questions) {
      const direct = question.verdicts.find((verdict) => verdict.condition === 'direct');
      expect(direct).toMatchObject({ believed: null, correct: null });
      // Both readings of direct lack a verdict; the other conditions' four readings have one.
      expect(question.verdicts.filter((verdict) => verdict.correct !== null)).toHaveLength(4);
    }
    expect(transcript.summary.conditions.find((row) => row.condition === 'direct')).toMatchObject({
      accuracy: null,
      noVerdict: 4,
    });
    expect(result.stdout).toMatch(/direct +0 +0 +— +— +4/);
  });

  it('resumes after kill -9 to the same results as an uninterrupted run', async () => {
    const server = await mock({ speed: 0.05 });
    const dir = tempDir();
    const scenario = path.join(dir, 'truth.yaml');
    writeFileSync(
      scenario,
      stringify({
        format: 'truth',
        seed: 9,
        questions: 3,
        max_rounds: 1,
        debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
        judge: { model: 'qwen2.5' },
      }),
    );
    const reference = path.join(dir, 'reference');
    expect(
      (await runAgora(['run', scenario, '--host', server.url, '--out', reference, '--quiet'])).code,
    ).toBe(0);
    const out = path.join(dir, 'runs');
    // Debater A's first turn as the consultant (question 2's, after 13 events) gets no answer here, so
    // the killed run is still going when the kill lands however late that is; it resumes on `server`.
    const held = await mock({
      speed: 0.05,
      script: [{ match: { text: 'Your name: Debater A\nYou are the consultant' }, fault: 'hang' }],
    });
    const { child, result } = startAgora(['run', scenario, '--host', held.url, '--out', out, '--quiet']);
    await waitForEvents(out, 8);
    child.kill('SIGKILL');
    await result;
    const runDir = onlyRunDir(out);
    expect(readEvents(runDir).some((event) => event.type === 'run-end')).toBe(false);
    expect((await runAgora(['resume', runDir, '--host', server.url, '--quiet'])).code).toBe(0);
    expect(comparable(readJson(runDir) as never)).toEqual(
      comparable(readJson(onlyRunDir(reference)) as never),
    );
  });
  it('a batch over line-ups, and leaderboard --table truth over its runs per judge model and condition', async () => {
    const server = await mock();
    const dir = tempDir();
    const scenario = path.join(dir, 'truth.yaml');
    writeFileSync(
      scenario,
      stringify({
        format: 'truth',
        questions: 3,
        max_rounds: 1,
        debaters: { a: { model: 'llama3' }, b: { model: 'mistral' } },
        judge: { model: 'qwen2.5' },
      }),
    );
    const out = path.join(dir, 'runs');
    const batch = await runAgora([
      'batch',
      scenario,
      '--seeds',
      '1,2',
      '--models',
      'judge=qwen2.5',
      '--models',
      'judge=llama3',
      '--host',
      server.url,
      '--out',
      out,
    ]);
    expect(batch.code).toBe(0);
    const batchId = batch.stdout.match(/Batch (batch-[0-9a-f]+): 4 completed/)?.[1];
    expect(batchId).toBeDefined();
    // What the runs' own records say, summed by judge model and condition.
    const expected = new Map<string, { judged: number; right: number; flips: number; twice: number }>();
    for (const name of readdirSync(out).filter((entry) => entry.startsWith('batch-'))) {
      const record = readJson(path.join(out, name)) as ReturnType<typeof readJson> & {
        judge: { model: string };
      };
      for (const question of record.questions) {
        const believed = new Map<string, string[]>();
        for (const verdict of question.verdicts) {
          const key = `${record.judge.model}/${verdict.condition}`;
          const row = expected.get(key) ?? { judged: 0, right: 0, flips: 0, twice: 0 };
          row.judged += 1;
          if (verdict.correct) row.right += 1;
          expected.set(key, row);
          if (typeof verdict.correct !== 'boolean') continue;
          const answers = believed.get(key) ?? [];
          answers.push(String(verdict.believed));
          believed.set(key, answers);
        }
        // A flip: the two readings (answers in either order) believed different answers.
        for (const [key, answers] of believed) {
          const row = expected.get(key);
          if (!row || answers.length !== 2) continue;
          row.twice += 1;
          if (answers[0] !== answers[1]) row.flips += 1;
        }
      }
    }
    const board = await runAgora([
      'leaderboard',
      '--table',
      'truth',
      '--json',
      '--batch',
      String(batchId),
      '--out',
      out,
    ]);
    expect(board.code).toBe(0);
    const [table] = JSON.parse(board.stdout) as Array<{
      rows: Array<Record<string, string | number | null>>;
    }>;
    const rows = table?.rows ?? [];
    expect(rows.map((row) => `${row['Judge model']}/${row.Condition}`)).toEqual([
      'llama3/direct',
      'llama3/consultancy',
      'llama3/debate',
      'qwen2.5/direct',
      'qwen2.5/consultancy',
      'qwen2.5/debate',
    ]);
    for (const row of rows) {
      const sums = expected.get(`${row['Judge model']}/${row.Condition}`);
      expect(row).toMatchObject({
        Judged: sums?.judged,
        Right: sums?.right,
        Runs: 2,
      });
      expect(row['95% interval']).toMatch(/^\d+–\d+$/);
      expect(row['vs direct (points)'] === null).toBe(row.Condition === 'direct');
      expect(sums?.twice).toBe(2 * 3);
      expect(row['Order flips']).toBe(`${sums?.flips} of ${sums?.twice}`);
    }
    // A truth verdict names an answer, not a winner between the debaters' models: no ranking match.
    const ranking = await runAgora(['leaderboard', '--table', 'ranking', '--json', '--out', out]);
    expect(JSON.parse(ranking.stdout)[0].rows).toEqual([]);
  });
});
