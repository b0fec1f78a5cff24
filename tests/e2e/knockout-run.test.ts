import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, type ScriptRule, startMockOllama } from '../../src/mock-ollama/index.js';
import { decideRotation } from '../../src/rotation/rotation-policy.js';
import { TIME_LIMIT_MARKER } from '../../src/timer/speaking-timer.js';
import { closedPort, runAgora, tempDir } from '../helpers/cli.js';
import { voteRule } from '../helpers/judge-script.js';
import { type TestScenarioOptions, testScenario, Y_NAMES } from '../helpers/scenario.js';
import { comparable, onlyRunDir, readEvents, readTranscript } from '../helpers/transcripts.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function debate(options: TestScenarioOptions & { script?: ScriptRule[]; args?: string[] } = {}) {
  const server = await startMockOllama({ models: ['llama3', 'mistral'], script: options.script ?? [] });
  servers.push(server);
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(testScenario(options)));
  const out = path.join(dir, 'runs');
  const result = await runAgora([
    'run',
    file,
    '--host',
    server.url,
    '--out',
    out,
    ...(options.args ?? ['--quiet']),
  ]);
  const runDir = existsSync(out) ? onlyRunDir(out) : '';
  return { result, server, runDir, transcript: runDir ? readTranscript(runDir) : undefined };
}

const debaters = (transcript: ReturnType<typeof readTranscript> | undefined) =>
  transcript?.rounds.map((round) => round.debatingY) ?? [];

describe('agora run: the knockout challenge end to end', () => {
  it('runs 6 rounds by default, X first, with 3 evaluations per round', async () => {
    const { result, runDir, transcript } = await debate({ args: ['--json'] });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { status: string; runDir: string };
    expect(summary).toMatchObject({ status: 'completed', runDir });
    expect(transcript?.rounds).toHaveLength(6);
    for (const round of transcript?.rounds ?? []) {
      expect(round.statements.map((statement) => statement.position)).toEqual(['X', 'Y']);
      expect(round.evaluations).toHaveLength(3);
      expect(round.evaluations.map((evaluation) => evaluation.judge)).not.toContain(round.debatingY);
      expect(round.transition?.summary).toMatch(new RegExp(`^Round ${round.number}:`));
    }
    for (const name of ['events.jsonl', 'transcript.json', 'transcript.md', 'run.log']) {
      expect(existsSync(path.join(runDir, name))).toBe(true);
    }
    const events = readEvents(runDir);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    expect(events[0]?.type).toBe('run-start');
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', stopReason: 'max_rounds' });
  });

  it('rotates on 2 of 3 rotate votes and keeps the debater on 1 of 3', async () => {
    const [, second, third] = Y_NAMES;
    const { transcript } = await debate({
      rounds: 3,
      script: [
        voteRule({ round: 1, judge: second, vote: 'rotate' }),
        voteRule({ round: 1, judge: third, vote: 'rotate' }),
        voteRule({ round: 2, judge: Y_NAMES[0], vote: 'rotate' }),
        voteRule({ vote: 'continue' }),
      ],
    });
    const rounds = transcript?.rounds ?? [];
    expect(rounds[0]?.outcome).toMatchObject({ result: 'rotation', rotateVotes: 2, decidedBy: 'votes' });
    expect(rounds[1]?.outcome).toMatchObject({ result: 'continue', rotateVotes: 1, continueVotes: 2 });
    expect(transcript?.rotations).toEqual([
      expect.objectContaining({ afterRound: 1, from: Y_NAMES[0], rotateVotes: 2 }),
    ]);
    expect(debaters(transcript)[1]).toBe(debaters(transcript)[2]);
  });

  it('breaks a tie left by an abstaining judge with the weighted scores', async () => {
    const [first, second, third, fourth] = Y_NAMES;
    const { transcript } = await debate({
      rounds: 2,
      script: [
        // Two unusable answers in a row: the judge abstains after one repair attempt.
        voteRule({ round: 1, judge: second, vote: 'invalid' }),
        voteRule({ round: 1, judge: third, vote: 'rotate', score: 1 }),
        voteRule({ round: 1, judge: fourth, vote: 'continue', score: 3 }),
        voteRule({ round: 2, judge: first, vote: 'invalid' }),
        voteRule({ round: 2, judge: third, vote: 'rotate', score: 4 }),
        voteRule({ round: 2, judge: fourth, vote: 'continue', score: 4 }),
        voteRule({ vote: 'continue' }),
      ],
    });
    const [one, two] = transcript?.rounds ?? [];
    expect(one?.evaluations.find((evaluation) => evaluation.judge === second)).toMatchObject({
      abstained: true,
      abstainReason: expect.stringMatching(/unusable answer: the answer holds no JSON object/),
    });
    // Mean of 1.0 and 3.0 is 2.0, below the midpoint 3: rotate.
    expect(one?.outcome).toMatchObject({
      result: 'rotation',
      decidedBy: 'scores',
      abstentions: 1,
      meanScore: 2,
    });
    // Mean of 4.0 and 4.0 is above the midpoint: continue.
    expect(two?.outcome).toMatchObject({ result: 'continue', decidedBy: 'scores', meanScore: 4 });
  });

  it('continues when every judge abstains (an exact tie)', async () => {
    const { transcript, server } = await debate({ rounds: 1, script: [voteRule({ vote: 'invalid' })] });
    const [round] = transcript?.rounds ?? [];
    expect(round?.evaluations.every((evaluation) => evaluation.abstained)).toBe(true);
    expect(round?.outcome).toMatchObject({
      result: 'continue',
      decidedBy: 'exact-tie',
      abstentions: 3,
      meanScore: null,
    });
    // Each judge: the first answer, then one repair attempt that sees its own unusable answer, is
    // told what was wrong, and gets more room.
    const repairs = server.requests
      .map(
        (request) =>
          request.body as {
            messages: Array<{ role: string; content: string }>;
            options: { num_predict: number };
          },
      )
      .filter((body) => JSON.stringify(body ?? '').includes('That answer could not be used'));
    expect(repairs).toHaveLength(3);
    for (const body of repairs) {
      expect(body.messages.at(-2)).toEqual({
        role: 'assistant',
        content: 'I think the debater did fine overall.',
      });
      expect(body.messages.at(-1)?.content).toMatch(
        /the answer holds no JSON object\. Reply again with only the JSON object/,
      );
      expect(body.options.num_predict).toBe(600);
    }
  });

  it('stops rotating at the rotation limit', async () => {
    const { transcript } = await debate({ rounds: 4, limit: 1, script: [voteRule({ vote: 'rotate' })] });
    const outcomes = transcript?.rounds.map((round) => round.outcome?.result);
    expect(outcomes).toEqual(['rotation', 'rotation-limit-reached', 'rotation-limit-reached', 'debate-over']);
    expect(transcript?.rotations).toHaveLength(1);
  });

  it('lets each Y debate at most once and keeps the last one when nobody is eligible', async () => {
    const { transcript } = await debate({ rounds: 6, limit: 5, script: [voteRule({ vote: 'rotate' })] });
    const order = debaters(transcript);
    const distinct = [...new Set(order)];
    expect(distinct).toHaveLength(4);
    // Once all four have debated the fourth stays: consecutive runs only, no return.
    expect(order.filter((name, index) => index > 0 && name !== order[index - 1])).toHaveLength(3);
    expect(transcript?.rounds.map((round) => round.outcome?.result)).toEqual([
      'rotation',
      'rotation',
      'rotation',
      'nobody-eligible',
      'nobody-eligible',
      'debate-over',
    ]);
    expect(transcript?.stats.agents.filter((agent) => agent.knockedOut)).toHaveLength(4);
  });

  it('gives the same transcript for the same seed, and follows the seeded choice for another', async () => {
    const script = [voteRule({ round: 1, vote: 'rotate' }), voteRule({ vote: 'continue' })];
    const first = await debate({ rounds: 2, seed: 11, script });
    const again = await debate({ rounds: 2, seed: 11, script });
    expect(comparable(again.transcript)).toEqual(comparable(first.transcript));

    const picked = (seed: number) =>
      decideRotation({
        decision: 'rotate',
        roundsRemain: true,
        round: 1,
        current: Y_NAMES[0] as string,
        yAgents: Y_NAMES.slice(0, 4),
        debated: new Set([Y_NAMES[0] as string]),
        rotationsSoFar: 0,
        limit: 3,
        seed,
      }).rotation?.to;
    const otherSeed = [12, 13, 14, 15, 16, 17, 18, 19, 20].find(
      (seed) => picked(seed) !== picked(11),
    ) as number;
    const other = await debate({ rounds: 2, seed: otherSeed, script });
    expect(first.transcript?.rotations[0]?.to).toBe(picked(11));
    expect(other.transcript?.rotations[0]?.to).toBe(picked(otherSeed));
    expect(other.transcript?.rotations[0]?.to).not.toBe(first.transcript?.rotations[0]?.to);
  });

  it('keeps a long debate within a small context window by summarising in large steps', async () => {
    // The claims ledger (memory and open claims) takes a fixed share of the window; at 4096 tokens
    // and 160-token statements, a summary still folds in two rounds or more.
    const window = 4096;
    const { transcript, runDir, server } = await debate({ rounds: 8, contextWindow: window, maxTokens: 160 });
    expect(transcript?.status).toBe('completed');
    const covered = transcript?.summaries.map((summary) => summary.throughRound) ?? [];
    expect(covered.length).toBeGreaterThan(0);
    // Each summary folds in several rounds, so the shared prompt prefix stays stable in between.
    covered.forEach((through, index) => {
      expect(through - (covered[index - 1] ?? 0)).toBeGreaterThanOrEqual(2);
    });
    const answerCap: Record<string, number> = { 'turn-end': 160, 'vote-cast': 400, summary: 512 };
    for (const event of readEvents(runDir)) {
      const cap = answerCap[event.type];
      // A summary asked for again, shorter, counts the prompts of both calls: each one fits.
      const calls = event.type === 'summary' && event.shortened ? 2 : 1;
      if (cap !== undefined) expect((event.promptTokens as number) / calls + cap).toBeLessThanOrEqual(window);
    }
    const chats = server.requests.filter((request) => request.path === '/api/chat');
    expect(
      chats.every((request) => (request.body as { options: { num_ctx: number } }).options.num_ctx === window),
    ).toBe(true);
  });

  it('marks statements cut by the timer', async () => {
    const { transcript } = await debate({ rounds: 1, secondsPerSide: 12 });
    const statements = transcript?.rounds[0]?.statements ?? [];
    expect(statements.length).toBe(2);
    for (const statement of statements) {
      expect(statement.truncated).toBe(true);
      expect(statement.text.endsWith(TIME_LIMIT_MARKER)).toBe(true);
      expect(statement.outputTokens).toBe(45);
      expect(statement.simulatedSeconds).toBe(12);
    }
  });

  it('streams the debate live with speakers, judges and final tables', async () => {
    const { result } = await debate({ rounds: 1, args: [] });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Round 1 · Xavier \(Position X, Car-free\) · llama3/);
    expect(result.stdout).toMatch(/Xavier is generating/);
    expect(result.stdout).toMatch(/Judges scoring Yara: Yusuf, Yvonne, Yannick/);
    // The agents' table, one line per agent in the 80 columns of a pipe.
    expect(result.stdout).toMatch(/^Agent\s+Pos\s+Model\s+Rounds\s+Mean score\s+Votes/m);
    expect(result.stdout).toMatch(/^Yara\s+Y\s+/m);
    // A path wider than the 80 columns of a pipe goes whole on the line after its label.
    expect(result.stdout).toMatch(/Transcript:\s+\S*transcript\.md/);
  });
});

describe('agora run without a usable Ollama', () => {
  it('says Ollama is unreachable, points to the demo, and writes nothing', async () => {
    const out = path.join(tempDir(), 'runs');
    const port = await closedPort();
    const result = await runAgora([
      'run',
      'scenarios/abortion.yaml',
      '--host',
      `http://127.0.0.1:${port}`,
      '--out',
      out,
    ]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`cannot reach Ollama at http://127.0.0.1:${port} (ECONNREFUSED)`);
    expect(result.stderr).toMatch(/npm run demo/);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('names the missing models and how to pull them', async () => {
    const server = await startMockOllama({ models: ['llama3'] });
    servers.push(server);
    const result = await runAgora([
      'run',
      'scenarios/abortion.yaml',
      '--host',
      server.url,
      '--out',
      tempDir(),
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/`ollama pull mistral`/);
  });
});
