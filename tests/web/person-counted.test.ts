/**
 * A person in a knockout seat is counted as `person`, not as the model the seat names, in every
 * table, page and export: the index, the leaderboard, transcript.md, `runs --json`, the run page's
 * participants and the arena's reveal and people's ranking.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, writeFiles } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewer = useViewers();

const STATEMENTS = [
  'Car-free centres give streets back to people walking, cycling and trading, and the air is cleaner.',
  'Shops in pedestrian streets gain custom, as the cities that tried it have measured year after year.',
];

type Table = { title: string; rows: Array<Record<string, unknown> | unknown[]> };
/** The first column of a table's rows: the command's --json names its cells, the viewer's API lists them. */
const modelsIn = (table: Table | undefined) =>
  (table?.rows ?? []).map((row) => (Array.isArray(row) ? row[0] : row.Model));

describe('a person in a knockout seat', () => {
  it("is counted as person, never as the seat's model, in every table, page and export", async () => {
    const server = await mock();
    const dir = writeFiles({ 'scenario.yaml': stringify(testScenario({ rounds: 2, yCount: 2 })) });
    const out = path.join(dir, 'runs');
    // Xavier's seat names llama3; the person takes it, and the Y agents speak on mistral.
    const run = await runAgora(
      [
        'run',
        path.join(dir, 'scenario.yaml'),
        '--human',
        'x',
        '--run-id',
        'seated',
        '--out',
        out,
        '--host',
        server.url,
      ],
      { input: STATEMENTS.map((text) => `${text}\n.\n`).join('') },
    );
    expect(run.code, run.stderr).toBe(0);
    const runDir = path.join(out, 'seated');

    // The index: every round's X is the person.
    const rounds = await runAgora([
      'query',
      'SELECT x_model, debater_model FROM rounds',
      '--out',
      out,
      '--json',
    ]);
    expect(rounds.code, rounds.stderr).toBe(0);
    const rows = JSON.parse(rounds.stdout) as Array<{ x_model: string; debater_model: string }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toEqual({ x_model: 'person', debater_model: 'mistral' });

    // The leaderboard: the person's wins and losses are the person's.
    const board = await runAgora(['leaderboard', '--out', out, '--json']);
    expect(board.code, board.stderr).toBe(0);
    const tables = JSON.parse(board.stdout) as Table[];
    const ranking = tables.find((table) => table.title.startsWith('Ranking of models (Bradley-Terry)'));
    expect(modelsIn(ranking)).toContain('person');
    expect(modelsIn(ranking)).not.toContain('llama3');

    // transcript.md and transcript.json.
    const markdown = readFileSync(path.join(runDir, 'transcript.md'), 'utf8');
    expect(markdown).toContain('- **Xavier**, Position X, model `person`');
    expect(markdown).not.toContain('llama3');
    const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as {
      agents: Array<{ name: string; model: string }>;
    };
    expect(transcript.agents.find((agent) => agent.name === 'Xavier')?.model).toBe('person');

    // runs --json.
    const runs = await runAgora(['runs', '--out', out, '--json']);
    expect((JSON.parse(runs.stdout) as Array<{ models: string }>)[0]?.models).toBe('mistral,person');

    // The run page's participants, and the arena's reveal and the people's ranking.
    const web = await viewer({ outDir: out, ollamaHost: server.url });
    const page = await (await fetch(`${web.url}/runs/seated`)).text();
    const started = page.slice(page.indexOf('<h3>Debate started</h3>'));
    expect(started).toContain('<strong>Xavier</strong> · Position X (Car-free) · <code>person</code>');
    expect(page).not.toContain('llama3');

    const blind = await fetch(`${web.url}/runs/seated?blind=1`);
    const cookie = (blind.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const token = /name="agora-token" content="([^"]+)"/.exec(await blind.text())?.[1] ?? '';
    const cast = await fetch(`${web.url}/api/runs/seated/arena-votes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-token': token, cookie },
      body: JSON.stringify({ choice: 'X' }),
    });
    expect(cast.status).toBe(201);
    const revealed = (await cast.json()) as { sides: Array<{ key: string; speakers: unknown[] }> };
    expect(revealed.sides.find((side) => side.key === 'X')?.speakers).toEqual([
      { name: 'Xavier', model: 'person' },
    ]);
    const reloaded = await (await fetch(`${web.url}/runs/seated?blind=1`, { headers: { cookie } })).text();
    expect(reloaded).toContain('Xavier <code>person</code>');
    expect(reloaded).not.toContain('llama3');

    const webTables = (await (await fetch(`${web.url}/api/leaderboard`)).json()) as Table[];
    const people = webTables.find((table) => table.title.startsWith('Ranking of models by people'));
    expect(modelsIn(people)).toContain('person');
    expect(modelsIn(people)).not.toContain('llama3');
  }, 900_000);
});
