/**
 * Model text is not terminal control: a model answering with escape sequences (a clipboard write,
 * a window title, a hyperlink, clearing the screen, moving the cursor) and a scenario holding some
 * reach the terminal without them, in the live view, `show` and the tables; `--json` escapes them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const ESC = '\u001b';
const HOSTILE = [
  `${ESC}]52;c;cm0gLXJmIH4=\u0007`,
  `${ESC}]0;owned${ESC}\\`,
  `${ESC}]8;;https://evil.example${ESC}\\here${ESC}]8;;${ESC}\\`,
  `${ESC}[2J${ESC}[H`,
  `${ESC}[5A${ESC}[10;20H`,
  '\u009b2J',
].join(' ');
const ANSWER = `Offices build trust. ${HOSTILE} Remote work scatters teams, and meetings multiply.`;

const mock = useMockServers({
  models: ['llama3', 'mistral'],
  script: [{ match: { model: 'mistral' }, reply: ANSWER }],
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('escape sequences in model and scenario text', () => {
  it('are removed from the live view, show and runs, and escaped in --json', async () => {
    const server = await mock();
    const dir = tempDir();
    const file = path.join(dir, 'duel.yaml');
    writeFileSync(
      file,
      stringify({
        format: 'duel',
        topic: `Remote work ${ESC}]0;title from the scenario\u0007is better than the office`,
        seed: 5,
        max_rounds: 1,
        debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
        judge: { name: 'Judge', model: 'llama3' },
        stop: { judge_early_stop: false },
      }),
    );
    const out = path.join(dir, 'runs');
    const run = await runAgora(['run', file, '--host', server.url, '--out', out]);
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stdout).toContain('Offices build trust.');
    expect(run.stdout).toContain('Remote work scatters teams');
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).not.toContain('52;c;');

    const listed = await runAgora(['runs', '--out', out]);
    expect(listed.stdout).not.toMatch(CONTROL);
    const json = await runAgora(['runs', '--out', out, '--json']);
    expect(json.stdout).not.toMatch(CONTROL);
    const [runListing] = JSON.parse(json.stdout) as Array<{ runId: string; topic: string }>;
    expect(runListing?.topic).toContain(`${ESC}]0;`);

    const show = await runAgora(['show', runListing?.runId as string, '--out', out]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Offices build trust.');
    expect(show.stdout).not.toMatch(CONTROL);
    const shownJson = await runAgora(['show', runListing?.runId as string, '--out', out, '--json']);
    expect(shownJson.stdout).not.toMatch(CONTROL);
    // The JSON keeps the text as the model wrote it, escaped.
    expect(shownJson.stdout).toContain('\\u001b]52;c;');
    expect(JSON.stringify(JSON.parse(shownJson.stdout))).toContain('\\u001b]52;c;');
  });
});
