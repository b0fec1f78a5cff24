/**
 * Every run ends with one plain sentence saying who won and why, in the terminal report, in the
 * Markdown transcript (`show`) and in `runs`; a run that did not reach its end names no winner;
 * nothing a reader must decode (`max_rounds`, `manual-stop`); a fallback model that spoke is named
 * in every format's transcript; and clipped text ends at a word with an ellipsis.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ScriptRule } from '../../src/mock-ollama/index.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { voteRule } from '../helpers/judge-script.js';
import { answerLate, useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

type Json = Record<string, unknown>;

/** Raw labels of the log that a reader would have to decode. */
const RAW_LABELS = /max_rounds|manual-stop|judge_early_stop|\(finished\)|\b1 next actions\b/;

/** Wide enough that no sentence of the report is wrapped: the tests read what the lines say. */
const WIDE = { env: { COLUMNS: '100000' } };

function scenarioFile(data: Json) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST_RETRIES, ...data }));
  return { file, out: path.join(dir, 'runs') };
}

/** A model that is missing on the server, so the participant's fallback model speaks instead. */
const MISTRAL_MISSING: ScriptRule = { match: { model: 'mistral' }, fault: 'not-found-404' };

/** The Markdown transcript as `show` prints it. */
async function shown(runDir: string): Promise<string> {
  const result = await runAgora(['show', runDir]);
  expect(result.code).toBe(0);
  return result.stdout;
}

/** A table's rows (they begin with their round), from a report printed without borders or wrapping. */
function rowsUnder(stdout: string, header: RegExp): string[][] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => header.test(line));
  expect(start).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^(\d+|round-\d) /.test(line)) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(line.trim().split(/ {2,}/));
  }
  return rows;
}

/** `cell` is `full` itself, or a beginning of it that ends at a word, marked with "…". */
function expectClippedAtWord(cell: string, full: string) {
  const flat = full.replace(/\s+/g, ' ').trim();
  if (cell === flat) return;
  expect(cell.endsWith('…'), `"${cell}" is cut without an ellipsis`).toBe(true);
  const kept = cell.slice(0, -1);
  expect(flat.startsWith(kept), `"${cell}" is not the beginning of "${flat}"`).toBe(true);
  expect(flat.charAt(kept.length), `"${cell}" is cut inside a word`).toMatch(/[\s,;:.—–-]/);
}

describe('who won, in one plain sentence', () => {
  it('knockout: names the position that holds and why, the same in the report, show and runs', async () => {
    const server = await mock({ script: [voteRule({ vote: 'continue' })] });
    const { file, out } = scenarioFile(testScenario({ rounds: 2 }));
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    expect(result.code).toBe(0);
    const sentence =
      'Xavier (Car-free) knocked out 0 of 1 opponent; Yara held the floor to the end, so Car-friendly holds.';
    expect(result.stdout.split('\n')).toContain(sentence);
    expect(result.stdout).not.toMatch(RAW_LABELS);
    const markdown = await shown(onlyRunDir(out));
    expect(markdown).toContain(`**Result:** ${sentence}`);
    expect(markdown).not.toMatch(RAW_LABELS);
    const runs = await runAgora(['runs', '--out', out, '--json']);
    expect(JSON.parse(runs.stdout)).toEqual([expect.objectContaining({ outcome: sentence })]);
  });

  it('knockout: a run stopped before its last round names no winner, only how far it got', async () => {
    // The last round is judged a minute late, so the run is still going when Ctrl-C comes unless that
    // is a minute late (it stops after the step in flight, so that step must end by itself).
    const server = await mock({
      speed: 0.2,
      script: [answerLate({ text: '## Your task: evaluate round 6\n' })],
    });
    const { file, out } = scenarioFile(testScenario({ rounds: 6 }));
    const { child, result } = startAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    // Stopped once the first round has its verdict: the standing then is "Y holds" or "X prevails".
    await waitFor(() => readEvents(onlyRunDir(out)).some((event) => event.type === 'round-end'));
    child.kill('SIGINT');
    const stopped = await result;
    expect(stopped.code).toBe(130);
    expect(stopped.stdout).toMatch(
      /^Stopped after round [1-5] of 6, before the end, so there is no winner; so far Xavier \(Car-free\) had knocked out \d of \d opponents?; resume it to finish/m,
    );
    expect(stopped.stdout).not.toMatch(/holds|prevails/);
    expect(stopped.stdout).not.toMatch(RAW_LABELS);
    const markdown = await shown(onlyRunDir(out));
    expect(markdown).toMatch(/\*\*Result:\*\* Stopped after round [1-5] of 6, before the end/);
    expect(markdown).not.toMatch(/holds|prevails/);
  });

  it('duel: "Blaise won 2 rounds to 0", and the transcript names the fallback model that spoke for him', async () => {
    const judgement: ScriptRule = {
      match: { prompt: 'Your task: judge round' },
      json: {
        summary: 'Blaise engaged.',
        why: 'Blaise answered the point.',
        stronger: 'Blaise',
        no_new_arguments: false,
      },
    };
    const server = await mock({ script: [MISTRAL_MISSING, judgement] });
    const data = SMALL_SCENARIOS.duel?.() as Json & { debaters: { b: Json }; judge: Json };
    data.debaters.b.fallback_models = ['qwen2.5'];
    data.judge.side_swap = false;
    const { file, out } = scenarioFile(data);
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toContain('Blaise (Against) won 2 rounds to 0.');
    expect(result.stdout).not.toMatch(RAW_LABELS);
    const markdown = await shown(onlyRunDir(out));
    expect(markdown).toContain('**Result:** Blaise (Against) won 2 rounds to 0.');
    expect(markdown).toMatch(
      /### Blaise \(Debater B\)\n\n_spoken by fallback model `qwen2\.5` instead of `mistral`_/,
    );
  });

  it('formal: without a verdict it says so plainly and how to get one', async () => {
    const server = await mock();
    const { file, out } = scenarioFile(SMALL_SCENARIOS.formal?.() ?? {});
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    expect(result.code).toBe(0);
    const plain =
      'No verdict: this debate was run without a judge, so it names no winner; to have one, set `verdict: { enabled: true }` in the scenario and run it again.';
    expect(result.stdout.split('\n')).toContain(plain);
    expect(result.stdout).not.toMatch(RAW_LABELS);
    expect(await shown(onlyRunDir(out))).toContain(`**Result:** ${plain}`);
  });

  it('formal: with a verdict it names the winner, the weighted totals and the judge’s reasons', async () => {
    const server = await mock();
    const { file, out } = scenarioFile(SMALL_SCENARIOS.formal?.({ verdict: { enabled: true } }) ?? {});
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    expect(result.code).toBe(0);
    const transcript = JSON.parse(readFileSync(path.join(onlyRunDir(out), 'transcript.json'), 'utf8'));
    const winner = transcript.verdict.winner as 'affirmative' | 'negative';
    const name = transcript.sides[winner].name as string;
    expect(result.stdout).toMatch(
      new RegExp(
        `^${name} \\(${winner}: [^)]+\\) wins the judge's verdict, \\d\\.\\d\\d to \\d\\.\\d\\d on the weighted criteria: \\S`,
        'm',
      ),
    );
  });

  it('formal: a win on tied totals says the judge named the winner, with both readings, everywhere', async () => {
    const four = { argument_strength: 4, relevance: 4, persuasiveness: 4, clarity: 4 };
    const server = await mock({
      script: [
        {
          match: { prompt: '## Your task: the verdict' },
          json: {
            summary: 'Two close cases.',
            reasons: 'The negative answered the cost question directly',
            affirmative: four,
            negative: four,
            winner: 'negative',
          },
        },
      ],
    });
    const { file, out } = scenarioFile(SMALL_SCENARIOS.formal?.({ verdict: { enabled: true } }) ?? {});
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    expect(result.code, result.stderr).toBe(0);
    const runDir = onlyRunDir(out);
    const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8'));
    const name = transcript.sides.negative.name as string;
    const position = transcript.positions.negative as string;
    const decided = `${name} (negative: ${position}) wins the judge's verdict on the winner it named: the weighted totals tie, 4.00 to 4.00, in both readings (the sides in swapped order), and it named negative both times`;
    const sentence = `${decided}: The negative answered the cost question directly.`;
    expect(result.stdout.split('\n')).toContain(sentence);
    expect(result.stdout).not.toMatch(/wins the judge's verdict, 4\.00 to 4\.00/);
    expect(await shown(runDir)).toContain(`**Result:** ${sentence}`);
    const runs = await runAgora(['runs', '--out', out, '--json']);
    // A list of runs clips a long sentence at a word, after what decided the verdict.
    const listed = (JSON.parse(runs.stdout) as Array<{ outcome: string }>)[0]?.outcome ?? '';
    expect(listed.startsWith(decided)).toBe(true);
    expectClippedAtWord(listed, sentence);
    // The page: the exported run page says the same.
    const page = path.join(path.dirname(out), 'run.html');
    expect((await runAgora(['export', runDir, '--html', '--output', page])).code).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain(
      'the weighted totals tie, 4.00 to 4.00, in both readings (the sides in swapped order), and it named negative both times',
    );
  });

  it('critique: says what the judge synthesised, names a fallback model, and clips first lines at a word', async () => {
    const server = await mock({ script: [MISTRAL_MISSING] });
    const data = SMALL_SCENARIOS.critique?.() as Json & { agents: Json[] };
    for (const agent of data.agents) agent.fallback_models = ['qwen2.5'];
    const { file, out } = scenarioFile(data);
    const result = await runAgora(['run', file, '--host', server.url, '--out', out], WIDE);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^After 1 round of proposals, critiques and refinements by Ada and Per, the judge synthesised a solution with confidence \d+\/100: "/m,
    );
    expect(result.stdout).not.toMatch(RAW_LABELS);
    const transcript = JSON.parse(readFileSync(path.join(onlyRunDir(out), 'transcript.json'), 'utf8'));
    const texts = transcript.rounds.flatMap((round: Record<string, Array<{ text: string }>>) =>
      [...(round.proposals ?? []), ...(round.critiques ?? []), ...(round.refinements ?? [])].map(
        (item) => item.text,
      ),
    );
    const rows = rowsUnder(result.stdout, /^Round\s+Phase\s+Agent\s+On\s+First line/);
    expect(rows).toHaveLength(texts.length);
    for (const [index, row] of rows.entries()) {
      const firstLine = (texts[index] as string).trim().split('\n')[0] as string;
      // Round, phase and agent, then the target of a critique, then the first line.
      expectClippedAtWord(row[row[1] === 'critique' ? 4 : 3] as string, firstLine);
    }
    expect(rows.some((row) => row.some((cell) => cell.endsWith('…')))).toBe(true);
    const markdown = await shown(onlyRunDir(out));
    expect(markdown).toMatch(
      /\*\*Per\*\* \(performance\)\n\n_spoken by fallback model `qwen2\.5` instead of `mistral`_/,
    );
  });

  it('council: says what the Judge chose, names a fallback model, and clips claims at a word', async () => {
    const server = await mock({ script: [MISTRAL_MISSING] });
    const data = SMALL_SCENARIOS.council?.() as Json & { participants: Record<string, Json> };
    (data.participants.critic as Json).fallback_models = ['qwen2.5'];
    const { file, out } = scenarioFile(data);
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], WIDE);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^The Judge chose "[^"]+"; \d of the 4 roles that answered ended on the majority stance \([^)]+\), and the Final Packet lists \d+ next actions?\.$/m,
    );
    expect(result.stdout).not.toMatch(RAW_LABELS);
    const transcript = JSON.parse(readFileSync(path.join(onlyRunDir(out), 'transcript.json'), 'utf8'));
    const claims = transcript.rounds.flatMap((round: { outputs: Array<{ claim?: string }> }) =>
      round.outputs.map((output) => output.claim ?? ''),
    );
    const rows = rowsUnder(result.stdout, /^Round\s+Role\s+Model\s+Claim/);
    expect(rows).toHaveLength(claims.length);
    for (const [index, row] of rows.entries()) expectClippedAtWord(row.at(-1) as string, claims[index]);
    expect(rows.some((row) => row.at(-1)?.endsWith('…'))).toBe(true);
    expect(rows.filter((row) => row[2] === 'qwen2.5 (fallback for mistral)')).toHaveLength(3);
    const markdown = await shown(onlyRunDir(out));
    expect(markdown).toMatch(/^\*\*Result:\*\* The Judge chose "/m);
    expect(markdown).toContain(
      '- Critic, round-1: answered by fallback model `qwen2.5` instead of `mistral`',
    );
  });
});

/** Waits until `ready()` holds (polled; the run writes its log in another process). */
async function waitFor(ready: () => boolean, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const holds = () => {
    try {
      return ready();
    } catch {
      // The run's folder or log does not exist yet.
      return false;
    }
  };
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
