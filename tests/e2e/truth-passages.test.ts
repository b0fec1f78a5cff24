/**
 * Truth runs on generated passages: the judge reads the passage only under `expert`, the debaters
 * always; quotes reach the judge marked as checked; `show` reports the passage-clustered differences,
 * the quotes per debater model and the unparsed share.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { projectRoot, runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });
const scenario = path.join(projectRoot, 'scenarios', 'truth-passages.yaml');

const chats = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => {
      const body = request.body as { messages: Array<{ content: string }> };
      return {
        text: body.messages.map((message) => message.content).join('\n'),
        task: body.messages.at(-1)?.content ?? '',
      };
    });

interface Transcript {
  status: string;
  questions: Array<{ number: number; kind: string; passageId: string | null }>;
  quotes: Array<{ question: number; model: string; text: string; verdict: string }>;
  quoteTallies: Array<{ model: string; quotes: number; verified: number }>;
  summary: {
    conditions: Array<{ condition: string }>;
    differences: Array<{ first: string; second: string; clustered: { clusters: number; n: number } | null }>;
    unparsed: { count: number; of: number; overLimit: boolean };
    groups: Array<{ group: string; questions: number }> | null;
  };
}

describe('truth on passages', () => {
  it('hides the passage from the judge except under expert, and marks the quotes it is shown', async () => {
    const server = await mock();
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'run',
      scenario,
      '--questions',
      '9',
      '--rounds',
      '1',
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as Transcript;
    expect(transcript.status).toBe('completed');
    expect(transcript.summary.conditions.map((row) => row.condition)).toEqual([
      'direct',
      'expert',
      'consultancy',
      'debate',
    ]);
    // Two passage questions to every control question, four questions to a passage.
    expect(transcript.questions.filter((q) => q.kind === 'passage')).toHaveLength(6);
    expect(new Set(transcript.questions.map((q) => q.passageId).filter(Boolean)).size).toBe(2);

    const events = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8');
    const questionSet = events
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            data?: { questions?: Array<{ question: string; passage?: string }> };
          },
      )
      .find((event) => event.type === 'artifact')?.data?.questions;
    const withPassage = (questionSet ?? []).filter((q) => q.passage);
    expect(withPassage).toHaveLength(6);
    const requests = chats(server);
    let judgeRequests = 0;
    for (const question of withPassage) {
      // A line of the passage that no prompt holds unless the passage is in it.
      const line = (question.passage as string).split('\n\n')[1] as string;
      const about = requests.filter((request) => request.text.includes(question.question));
      const judge = about.filter((request) => request.task.includes('You are the judge'));
      const debaters = about.filter((request) => !request.task.includes('You are the judge'));
      const expert = judge.filter((request) => request.task.includes('Read the passage and answer'));
      // Read twice, once with each answer first.
      expect(expert).toHaveLength(2);
      // The debaters speak once a question (two debaters and a consultant, one round): both readings
      // of a debate or a consultancy judge the same statements.
      expect(debaters).toHaveLength(3);
      for (const request of expert) expect(request.text).toContain(line);
      for (const request of judge.filter((r) => !expert.includes(r)))
        expect(request.text).not.toContain(line);
      for (const request of debaters) {
        expect(request.text).toContain(line);
        expect(request.task).toContain('<quote>');
      }
      judgeRequests += judge.length;
      // Under each condition, two verdicts on the question, the answers in opposite orders.
      const verdicts = judge.filter((request) => request.task.includes('Which answer is right?'));
      const conditionOf = (task: string) =>
        task.includes('Read the passage and answer')
          ? 'expert'
          : task.includes('Debater A argues for Answer')
            ? 'debate'
            : task.includes('The consultant argues for Answer')
              ? 'consultancy'
              : 'direct';
      for (const condition of ['direct', 'expert', 'consultancy', 'debate']) {
        const orders = verdicts
          .filter((request) => conditionOf(request.task) === condition)
          .map((request) => [
            /^Answer 1: (.+)$/m.exec(request.text)?.[1],
            /^Answer 2: (.+)$/m.exec(request.text)?.[1],
          ]);
        expect(orders, `${question.question} (${condition})`).toHaveLength(2);
        const [first, second] = orders as [string[], string[]];
        expect(first[0]).not.toBe(first[1]);
        expect(second).toEqual([first[1], first[0]]);
      }
    }
    // With one round the judge asks the consultant nothing: only verdicts, four conditions read twice.
    expect(judgeRequests).toBe(6 * 4 * 2);
    // The debate verdicts read the quotes marked, and what the marks mean.
    const debateVerdicts = requests.filter((request) => request.task.includes('Debater A argues for Answer'));
    const marked = debateVerdicts.filter((request) => /<v_quote>|<u_quote>/.test(request.text));
    expect(marked.length).toBeGreaterThan(0);
    for (const request of marked) {
      expect(request.task).toContain('<v_quote>...</v_quote> is a verified quote');
      expect(request.text).not.toMatch(/<quote>/);
    }

    // Every quote recorded with its verdict, and counted per debater model.
    expect(transcript.quotes.length).toBeGreaterThan(0);
    for (const quote of transcript.quotes)
      expect(['verified', 'near-miss', 'unverified']).toContain(quote.verdict);
    const counted = transcript.quoteTallies.reduce((sum, row) => sum + row.quotes, 0);
    expect(counted).toBe(transcript.quotes.length);
    // Differences over passages that share questions are clustered by passage.
    const debateDirect = transcript.summary.differences.find(
      (row) => row.first === 'debate' && row.second === 'direct',
    );
    expect(debateDirect?.clustered?.clusters).toBe(2 + 3);
    expect(transcript.summary.groups?.map((group) => [group.group, group.questions])).toEqual([
      ['passage', 6],
      ['control', 3],
    ]);
    expect(transcript.summary.unparsed.overLimit).toBe(false);

    const board = await runAgora(['leaderboard', '--table', 'truth', '--json', '--out', out]);
    expect(board.code).toBe(0);
    const [table] = JSON.parse(board.stdout) as Array<{
      rows: Array<Record<string, string | number | null>>;
    }>;
    const judged = (group: string, condition: string) =>
      table?.rows.find((row) => row.Questions === group && row.Condition === condition)?.Judged;
    // Readings: each question judged in both orders.
    expect(judged('passage', 'debate')).toBe(12);
    expect(judged('control', 'debate')).toBe(6);
    expect(judged('passage', 'expert')).toBe(12);

    const shown = await runAgora(['show', 'latest', '--out', out]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('from a bootstrap over passages');
    expect(shown.stdout).toContain('Questions needed');
    expect(shown.stdout).toContain('Quotes of the passage per debater model');
    expect(shown.stdout).toMatch(/Readings whose answer could not be read: 0 of 72 \(0%/);
    expect(shown.stdout).toMatch(/Order flips/);
    expect(shown.stdout).toMatch(
      /Debate against the judge alone: .* on passage questions, .* on the control questions/,
    );
  });

  it('runs on the built-in simulator with the scenario as shipped', async () => {
    const out = path.join(tempDir(), 'runs');
    const result = await runAgora([
      'demo',
      scenario,
      '--questions',
      '4',
      '--rounds',
      '1',
      '--out',
      out,
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    const transcript = JSON.parse(
      readFileSync(path.join(onlyRunDir(out), 'transcript.json'), 'utf8'),
    ) as Transcript;
    expect(transcript.status).toBe('completed');
    expect(transcript.questions.length).toBe(4);
  });
});

describe('your own passages', () => {
  it('reads passages from text files beside the questions, shared by the questions that name them', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'lighthouse.txt'),
      'The keeper, Ines Varga, lit the lamp at dusk. Her brother Oskar kept the boat.\n',
    );
    writeFileSync(
      path.join(dir, 'questions.yaml'),
      stringify([
        {
          id: 'keeper',
          question: 'Who lit the lamp?',
          answer: 'Ines Varga',
          wrong_answer: 'Oskar',
          passage_file: 'lighthouse.txt',
        },
        {
          id: 'boat',
          question: 'Who kept the boat?',
          answer: 'Oskar',
          wrong_answer: 'Ines Varga',
          passage_file: 'lighthouse.txt',
        },
        { question: 'How many legs has a spider?', answer: 8, wrong_answer: 6 },
      ]),
    );
    const out = path.join(dir, 'runs');
    const result = await runAgora(
      [
        'demo',
        '--format',
        'truth',
        '--questions',
        'questions.yaml',
        '--rounds',
        '1',
        '--out',
        out,
        '--quiet',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    const transcript = JSON.parse(
      readFileSync(path.join(onlyRunDir(out), 'transcript.json'), 'utf8'),
    ) as Transcript;
    expect(transcript.questions.map((q) => q.passageId)).toEqual(['lighthouse.txt', 'lighthouse.txt', null]);
  });

  it('refuses a passage file that is missing, and a passage longer than the debaters can read, naming the size that fits (exit 3)', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'long.txt'),
      `${'The harbour was quiet that winter, and the boats stayed in. '.repeat(700)}\n`,
    );
    writeFileSync(
      path.join(dir, 'questions.yaml'),
      stringify([
        { id: 'gone', question: 'Who?', answer: 'A', wrong_answer: 'B', passage_file: 'missing.txt' },
      ]),
    );
    const missing = await runAgora(
      ['demo', '--format', 'truth', '--questions', 'questions.yaml', '--out', path.join(dir, 'runs')],
      { cwd: dir },
    );
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('questions.yaml');
    expect(missing.stderr).toContain('passage_file');
    expect(missing.stderr).toContain('missing.txt, which does not exist');
    expect(missing.stderr).not.toMatch(/\n\s+at /);

    writeFileSync(
      path.join(dir, 'questions.yaml'),
      stringify([
        {
          id: 'long',
          question: 'Was it quiet?',
          answer: 'yes',
          wrong_answer: 'no',
          passage_file: 'long.txt',
        },
      ]),
    );
    const long = await runAgora(
      ['demo', '--format', 'truth', '--questions', 'questions.yaml', '--out', path.join(dir, 'runs')],
      { cwd: dir },
    );
    expect(long.code).toBe(3);
    expect(long.stderr).toMatch(
      /its passage \(long\.txt\) comes to about \d+ tokens, more than the \d+ a debater's prompt has room for/,
    );
    expect(long.stderr).toMatch(/shorten the passage to about \d+ characters/);
  });
});
