/**
 * A formal debate run without a verdict, on its run page: the Result panel and the scoreboard say
 * that there is no verdict and how to have one, and spectators are asked about the debate (or its
 * phase while it goes on), not about a numbered round.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { resultHtml } from '../../src/web/outcome-html.js';
import { spectatorHtml } from '../../src/web/pages.js';
import { buildRunView, scoreboardHtml } from '../../src/web/run-view.js';
import { projectRoot, runAgora, tempDir } from '../helpers/cli.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const viewer = useViewers();
const NO_VERDICT = 'No verdict: this debate was run without a judge, so it names no winner';

/** The text of the element with this id in a page. */
function section(page: string, id: string): string {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(section|div)>`).exec(page);
  return (match?.[1] ?? '').replace(/<[^>]+>/g, '');
}

describe('a formal debate without a verdict in the viewer', () => {
  let out: string;
  let runDir: string;
  beforeAll(async () => {
    out = path.join(tempDir(), 'runs');
    const run = await runAgora([
      'demo',
      path.join(projectRoot, 'scenarios', 'formal-universal-healthcare.yaml'),
      '--profile',
      'instant',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    runDir = onlyRunDir(out);
  }, 900_000);

  it('shows the outcome sentence for the finished run and asks spectators about the debate', async () => {
    const web = await viewer({ outDir: out, ollamaHost: 'http://127.0.0.1:9' });
    const page = await (await fetch(`${web.url}/runs/${encodeURIComponent(path.basename(runDir))}`)).text();
    expect(section(page, 'result')).toContain(NO_VERDICT);
    expect(section(page, 'result')).toContain('set `verdict: { enabled: true }` in the scenario');
    expect(section(page, 'result')).not.toContain('No result yet');
    expect(section(page, 'scoreboard')).toContain(NO_VERDICT);
    expect(section(page, 'scoreboard')).not.toContain('No round has been decided yet');
    expect(section(page, 'spectators')).toContain('Who had the better of this debate?');
    expect(section(page, 'spectators')).not.toMatch(/round \d+/);
  });

  it('asks spectators of a formal debate still going about the debate so far and its phase', () => {
    const events = readEvents(runDir);
    // Up to the first cross-examination question, as a live page sees it then.
    const cut = events.findIndex((event) => event.type === 'statement' && event.phase === 'cross-question');
    const view = buildRunView('live', events.slice(0, cut + 1) as never, [], true, formatNamed);
    const question = spectatorHtml(view).value;
    expect(question).toContain(
      'Who has the better of the debate so far? Now: <strong>cross-examination</strong>.',
    );
    expect(question).not.toMatch(/round \d+/);
    expect(scoreboardHtml(view).value).toContain('No round has been decided yet.');
    expect(resultHtml(view).value).toContain('No result yet.');
  });
});
