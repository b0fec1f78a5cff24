/**
 * What a user watches says what happened: the terminal's live view and the viewer's scoreboard show
 * who took each duel round, the formal verdict with its weighted scores, what each council role
 * said, and critique contributions made side by side each under its author.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';
import { useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewer = useViewers();
/** Wide enough that no line of the live view is wrapped: these tests read what it says, not its layout. */
const WIDE = { COLUMNS: '100000' };
const FAST = {
  attempts: 2,
  backoff_ms: 5,
  max_backoff_ms: 10,
  request_timeout_seconds: 60,
  max_consecutive_failures: 3,
};

function scenarioFile(data: Record<string, unknown>) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST, ...data }));
  return { file, out: path.join(dir, 'runs') };
}

/** The run's page, as the viewer serves it. */
async function runPage(out: string): Promise<string> {
  const web = await viewer({ outDir: out, ollamaHost: 'http://127.0.0.1:9' });
  const runId = path.basename(onlyRunDir(out));
  return (await fetch(`${web.url}/runs/${runId}`)).text();
}

/** The scoreboard panel of a run's page. */
function scoreboardOf(page: string): string {
  return /<div id="scoreboard">([\s\S]*?)<\/div><\/section>/.exec(page)?.[1] ?? '';
}

/** The transcript's judgements on a run's page: each assessment section. */
function judgementsOf(page: string): string[] {
  return [...page.matchAll(/<section class="event assessment"[\s\S]*?<\/section>/g)].map((match) => match[0]);
}

describe('judgements as the user sees them', () => {
  it('duel: says who took each round, by name and side, in the terminal and on the scoreboard', async () => {
    const server = await mock({
      script: [
        {
          match: { text: '## Your task: judge round' },
          json: {
            summary: 'A pressed harder.',
            why: 'Ada answered the cost.',
            stronger: 'Ada',
            no_new_arguments: false,
          },
        },
      ],
    });
    const { file, out } = scenarioFile({
      format: 'duel',
      topic: 'Remote work is better than the office',
      seed: 5,
      max_rounds: 1,
      debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
      judge: { name: 'Judge', model: 'llama3' },
      stop: { judge_early_stop: false },
    });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out], { env: WIDE });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Judge: Round 1 to Ada (For)\nAda answered the cost.\nA pressed harder.\nRead in both orders: agreed.\n',
    );
    const page = await runPage(out);
    const board = scoreboardOf(page);
    expect(board).toContain('<td class="text">Round 1 to Ada (For) · new arguments</td>');
    expect(board).not.toContain('no new arguments: false');
    // The transcript writes the judgement up as a person would: no dump of the answer's fields.
    const [judgement] = judgementsOf(page);
    expect(judgement).toContain('<p class="verdict">Round 1 to Ada (For)</p>');
    expect(judgement).toContain('<p class="why">Ada answered the cost.</p>');
    expect(judgement).toContain('Read in both orders: agreed.');
    expect(judgement).not.toContain('<dl>');
    expect(judgement).not.toContain('presented first');
  }, 900_000);

  it('formal: shows the verdict with its winner and weighted scores, labelled Verdict', async () => {
    const scores = (value: number) => ({
      argument_strength: value,
      relevance: value,
      persuasiveness: value,
      clarity: value,
    });
    const server = await mock({
      script: [
        {
          match: { text: '## Your task: the verdict' },
          json: {
            summary: 'Close.',
            affirmative: scores(4),
            negative: scores(2),
            winner: 'affirmative',
            reasons: 'Better evidence.',
          },
        },
      ],
    });
    const { file, out } = scenarioFile({
      format: 'formal',
      topic: 'This house would ban private cars from city centres',
      seed: 3,
      debaters: [
        { name: 'Ada', model: 'llama3' },
        { name: 'Blaise', model: 'mistral' },
      ],
      verdict: { enabled: true, judge_model: 'llama3' },
    });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out], { env: WIDE });
    expect(result.code).toBe(0);
    const affirmative = /Affirmative \(For the motion\): (Ada|Blaise)/.exec(result.stdout)?.[1];
    expect(affirmative).toBeDefined();
    const verdict = `${affirmative} (affirmative, For the motion) wins; weighted scores: affirmative 4.00, negative 2.00`;
    expect(result.stdout).toContain(`Verdict (Judge): ${verdict}\nBetter evidence.\n`);
    // The criteria as a small table under the reasons, then the side-swap check in one line.
    expect(result.stdout).toMatch(
      /Criterion +Weight +Affirmative +Negative\nargument strength +0\.40 +4 +2\n[\s\S]*weighted total +4\.00 +2\.00\nRead in both orders: agreed\.\n/,
    );
    const page = await runPage(out);
    const board = scoreboardOf(page);
    const [written] = judgementsOf(page);
    expect(written).toContain('<table class="criteria">');
    expect(written).toContain('<tr><td>argument strength</td><td>0.40</td><td>4</td><td>2</td></tr>');
    expect(written).toContain(
      '<tr class="total"><td>weighted total</td><td></td><td>4.00</td><td>2.00</td></tr>',
    );
    expect(written).toContain('Read in both orders: agreed.');
    expect(written).not.toContain('<dl>');
    expect(board).toContain(
      `<tr><td>Verdict</td><td>verdict</td><td>Judge</td><td class="text">${verdict}</td>`,
    );
    expect(board).not.toContain('<td>13</td>');
  }, 900_000);

  it("council: shows each role's claim, challenges and revision, then the Decision, as text and as a table", async () => {
    const server = await mock();
    const { file, out } = scenarioFile({
      format: 'council',
      topic: 'Should we move the billing database to PostgreSQL?',
    });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out], { env: WIDE });
    expect(result.code).toBe(0);
    const { stdout } = result;
    expect(stdout).toContain(
      'Round 1 — opening claims\ngenerating: Proponent, Critic, Analyst, Synthesizer…',
    );
    expect(stdout).toContain('Round 2 — challenges\n');
    expect(stdout).toContain('Round 3 — revisions\n');
    expect(stdout).toMatch(/\nCritic claims \((for|against|conditional), confidence \d\.\d\d\): \S/);
    expect(stdout).toMatch(/\nAnalyst challenges (Proponent|Critic|Synthesizer): \S/);
    expect(stdout).toMatch(/\nSynthesizer revises \((for|against|conditional), confidence \d\.\d\d\): \S/);
    expect(stdout).toMatch(/\nDecision \(Judge\): \S/);
    expect(stdout).not.toContain('round 4');
    expect(stdout).not.toMatch(/Judge on round \d \(\w+\): \n/);
    const board = scoreboardOf(await runPage(out));
    expect(board).toContain(
      '<th>Role</th><th>Stance</th><th>Claim, challenge or revision</th><th>Confidence</th>',
    );
    expect(board).toMatch(
      /<td[^>]*>1 · claim<\/td><td>Proponent<\/td><td>(for|against|conditional)<\/td><td class="text">[^<]+<\/td><td>\d\.\d\d<\/td>/,
    );
    expect(board).toMatch(
      /<td[^>]*>2 · challenges<\/td><td>Critic<\/td><td>–<\/td><td class="text">(Proponent|Analyst|Synthesizer): /,
    );
    expect(board).toMatch(/<strong>Decision:<\/strong> \S/);
    expect(board).toMatch(
      /Final Packet: consensus \d\.\d\d · confidence \d\.\d\d · \d+ risks? · \d+ next actions?/,
    );
    expect(board).not.toContain('<dt>');
  }, 900_000);

  it('critique: prints contributions made side by side whole, each under its author, never interleaved', async () => {
    const server = await mock({ speed: 0.02 });
    const { file, out } = scenarioFile({
      format: 'critique',
      topic: 'Design a cache for product pages',
      agents: [
        { name: 'Ada', role: 'architect', model: 'llama3' },
        { name: 'Per', role: 'performance', model: 'mistral' },
      ],
      judge: { model: 'llama3' },
      rounds: 1,
    });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out], { env: WIDE });
    expect(result.code).toBe(0);
    const { stdout } = result;
    expect(stdout).toContain('Round 1 proposals\ngenerating: Ada, Per…\n');
    expect(stdout).toContain('Round 1 critiques\ngenerating: Ada on Per, Per on Ada…\n');
    // Only the judge's design, written alone, streams as it is generated.
    expect(stdout).not.toMatch(/(Ada|Per) is generating/);
    expect(stdout).toContain('Judge is generating');
    // Each contribution: its author's header, then its whole text, then its size.
    const events = readEvents(onlyRunDir(out));
    for (const event of events.filter((item) => item.type === 'statement' && item.phase !== 'synthesis')) {
      const what = event.target ? `${event.phase} of ${event.target}` : event.phase;
      expect(stdout).toContain(
        `${event.speaker} (${event.side}), ${what}:\n${String(event.text).trim()}\n(${event.outputTokens} tokens`,
      );
    }
  }, 900_000);
});
