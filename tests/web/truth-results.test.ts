/**
 * A truth run in the viewer: its page (and its HTML export) carries each question's verdicts, the
 * accuracy per condition with its interval, the paired differences and persuasiveness, as `agora
 * show` prints them for the same run; the leaderboard page carries the truth table as `agora
 * leaderboard --table truth` gives it, and its judge reliability table calls the truth judge's
 * answers truth verdicts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { resultHtml } from '../../src/web/outcome-html.js';
import { buildRunView, scoreboardHtml } from '../../src/web/run-view.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const viewer = useViewers();

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();

/** The body rows of the first table after `start` in `markup`, each as its cells' text. */
function tableRows(markup: string, start: number): string[][] {
  expect(start, 'the table is on the page').toBeGreaterThan(-1);
  const table = /<table[^>]*>([\s\S]*?)<\/table>/.exec(markup.slice(start))?.[1] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => text(cell[1] ?? '')),
  );
}

/** A truth table of the run's page, by its class. */
const truthTable = (markup: string, name: string) =>
  tableRows(markup, markup.indexOf(`<table class="stack truth-${name}">`));

/** The element with id="result" of a page. */
function resultSection(markup: string): string {
  const start = markup.indexOf('id="result"');
  expect(start).toBeGreaterThan(-1);
  return markup.slice(start, markup.indexOf('</section>', start));
}

/** The lines of `show`'s results block that follow `heading`, up to the next heading or the block's end. */
function shownRows(shown: string, heading: string, columns: number, headed = true): string[][] {
  const lines = shown.split('\n');
  const at = lines.findIndex((line) => line.startsWith(heading));
  expect(at, `show prints "${heading}"`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  // The heading, then the column names (unless the heading is them), then one line a row (cells
  // apart by two spaces or more).
  for (const line of lines.slice(at + (headed ? 2 : 1))) {
    const cells = line.trim().split(/\s{2,}/);
    if (line.trim() === '' || line.startsWith('```') || cells.length !== columns) break;
    rows.push(cells);
  }
  return rows;
}

describe('a truth run in the viewer', () => {
  let server: MockOllama;
  let out: string;
  let runId: string;
  let shown: string;
  beforeAll(async () => {
    server = await startMockOllama({ models: ['llama3', 'mistral', 'qwen2.5'], profile: 'instant' });
    out = path.join(tempDir(), 'runs');
    const run = await runAgora([
      'run',
      '--format',
      'truth',
      '--questions',
      '8',
      '--seed',
      '33',
      '--rounds',
      '1',
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    runId = path.basename(onlyRunDir(out));
    const show = await runAgora(['show', runId, '--out', out]);
    expect(show.code, show.stderr).toBe(0);
    shown = show.stdout;
  }, 900_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Each of the run's tables on `markup` is the one `show` printed, cell for cell. */
  function expectShownResults(markup: string) {
    const accuracy = shownRows(shown, 'Accuracy per condition', 6);
    expect(accuracy.map((row) => row[0])).toEqual(['direct', 'consultancy', 'debate']);
    expect(truthTable(markup, 'accuracy')).toEqual(accuracy);
    const differences = shownRows(shown, 'Paired differences', 5);
    expect(differences.map((row) => row[0])).toEqual([
      'debate − consultancy',
      'debate − direct',
      'consultancy − direct',
    ]);
    expect(truthTable(markup, 'differences')).toEqual(differences);
    const persuasiveness = shownRows(shown, 'Persuasiveness', 6);
    expect(persuasiveness.length).toBeGreaterThan(0);
    // Each model's rate comes with the share of wrong answers it rests on: as consultants, the two
    // models argue the wrong answer equally often (8 questions: 2 of each one's 4 consultancies,
    // each read twice).
    const consultants = persuasiveness.filter((row) => row[1] === 'consultancy');
    expect(consultants.map((row) => row[0])).toEqual(['llama3', 'mistral']);
    for (const row of consultants) expect(row[5]).toBe('4 of 8');
    expect(truthTable(markup, 'persuasiveness')).toEqual(persuasiveness);
    // Each question: its number, its right answer and the judge's answer in each reading of each condition.
    const questions = shownRows(shown, 'Question  Right answer', 5, false);
    expect(questions).toHaveLength(8);
    const onPage = truthTable(markup, 'questions');
    expect(onPage).toHaveLength(8);
    for (const [at, row] of questions.entries()) {
      const cells = onPage[at] ?? [];
      expect(cells[0]?.split(' ')[0]).toBe(row[0]);
      expect(cells[1]).toBe(row[1]);
      for (const column of [2, 3, 4]) {
        const said = row[column] ?? '';
        expect(said).toMatch(/^\S+ \(\d+%\) \/ \S+ \(\d+%\)$/);
        // A wrong verdict also names the answer the judge believed.
        const believed = [...(cells[column] ?? '').matchAll(/ believed [^/]+?(?= \/ |$)/g)];
        expect(believed).toHaveLength(said.split('WRONG').length - 1);
        expect((cells[column] ?? '').replace(/ believed [^/]+?(?= \/ |$)/g, '')).toBe(said);
      }
    }
  }

  it("shows the run's results on its page as `show` prints them", async () => {
    const web = await viewer({ outDir: out, ollamaHost: server.url });
    const page = await (await fetch(`${web.url}/runs/${encodeURIComponent(runId)}`)).text();
    const result = resultSection(page);
    // The outcome sentence first, as `show` gives it.
    const outcome = /^\*\*Result:\*\* (.+)$/m.exec(shown)?.[1];
    expect(outcome).toMatch(/^The judge \(qwen2\.5\) was right: direct \d+ of 16/);
    expect(text(result)).toContain(outcome);
    expectShownResults(result);
    // The judge's answers are both right and wrong on the simulator: both marks are on the page.
    expect(result).toContain('<span class="truth-right">right</span>');
    expect(result).toContain('<span class="truth-wrong">WRONG</span>');
  });

  it('shows a running truth run its results so far', () => {
    const runDir = path.join(out, runId);
    const events = readEvents(runDir);
    const record = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as {
      questions: Array<{ verdicts: Array<{ condition: string; correct: boolean | null }> }>;
    };
    // Before the first verdict: the questions are listed, and the scoreboard waits.
    const first = events.findIndex((event) => event.type === 'assessment');
    const before = buildRunView('live', events.slice(0, first) as never, [], true, formatNamed);
    expect(scoreboardHtml(before).value).toContain('No question has been judged yet.');
    expect(truthTable(resultHtml(before).value, 'accuracy').map((row) => row.slice(0, 3))).toEqual([
      ['direct', '0', '0'],
      ['consultancy', '0', '0'],
      ['debate', '0', '0'],
    ]);
    // Just after it: one direct verdict, right or wrong as the finished record says.
    const after = buildRunView('live', events.slice(0, first + 1) as never, [], true, formatNamed);
    const right = record.questions[0]?.verdicts.find((verdict) => verdict.condition === 'direct')?.correct;
    expect(typeof right).toBe('boolean');
    const accuracy = truthTable(resultHtml(after).value, 'accuracy');
    expect(accuracy[0]?.slice(0, 3)).toEqual(['direct', right ? '1' : '0', '1']);
    // The first reading given, the second (the answers swapped) still to come.
    expect(truthTable(resultHtml(after).value, 'questions')[0]?.[2]).toMatch(
      right ? /^right \(\d+%\) \/ —$/ : /^WRONG .* \/ —$/,
    );
    expect(scoreboardHtml(after).value).toContain('<td>direct</td>');
    const second = buildRunView('live', events.slice(0, first + 2) as never, [], true, formatNamed);
    expect(scoreboardHtml(second).value).toContain('<td>direct (answers swapped)</td>');
  });

  it('carries the same results in the HTML export', async () => {
    const file = path.join(tempDir(), 'truth.html');
    const exported = await runAgora(['export', runId, '--html', '--output', file, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expectShownResults(resultSection(readFileSync(file, 'utf8')));
  });

  it('shows the truth table on the leaderboard page as `leaderboard --table truth` gives it', async () => {
    const board = await runAgora(['leaderboard', '--table', 'truth', '--json', '--out', out]);
    expect(board.code, board.stderr).toBe(0);
    const [table] = JSON.parse(board.stdout) as Array<{
      title: string;
      columns: string[];
      rows: Array<Record<string, string | number | null>>;
    }>;
    expect(table?.rows.map((row) => `${row['Judge model']}/${row.Condition}`)).toEqual([
      'qwen2.5/direct',
      'qwen2.5/consultancy',
      'qwen2.5/debate',
    ]);
    const web = await viewer({ outDir: out, ollamaHost: server.url });
    const page = await (await fetch(`${web.url}/leaderboard`)).text();
    const onPage = tableRows(page, page.indexOf(`<h2>${table?.title}</h2>`));
    expect(onPage).toEqual(
      table?.rows.map((row) =>
        table.columns.map((column) => (row[column] === null ? '–' : String(row[column]))),
      ),
    );
    // The API gives the same table.
    const api = (await (await fetch(`${web.url}/api/leaderboard`)).json()) as Array<{
      title: string;
      rows: unknown[][];
    }>;
    expect(api.find((item) => item.title === table?.title)?.rows).toHaveLength(3);
  });

  it("calls the truth judge's answers truth verdicts in the judge reliability table", async () => {
    const board = await runAgora(['leaderboard', '--table', 'reliability', '--json', '--out', out]);
    expect(board.code, board.stderr).toBe(0);
    const [table] = JSON.parse(board.stdout) as Array<{ rows: Array<Record<string, string | number>> }>;
    const judge = table?.rows.filter((row) => row.Model === 'qwen2.5') ?? [];
    // 8 questions under three conditions, each read in both answer orders: 48 verdicts asked.
    expect(judge.map((row) => [row['Answer kind'], row.Asked])).toEqual([['truth verdict', 48]]);
    expect(table?.rows.map((row) => row['Answer kind'])).not.toContain('formal verdict');
    const web = await viewer({ outDir: out, ollamaHost: server.url });
    const page = await (await fetch(`${web.url}/leaderboard`)).text();
    const rows = tableRows(page, page.indexOf('<h2>Judge reliability</h2>'));
    expect(rows.filter((row) => row[0] === 'qwen2.5').map((row) => row[1])).toEqual(['truth verdict']);
  });
});
