/**
 * `agora tournament --format knockout` as a user runs it: Position X on one model, the four
 * Position Y agents on the other, both orders of every pairing; the Y agents score the exchanges
 * for the format's rotation, and the match's result is the verdict of a judge from outside the
 * match and both debaters' families, read from the finished debate. Checked on the requests the
 * mock server recorded, and after a kill.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/core/errors.js';
import type { RecordedRequest } from '../../src/mock-ollama/types.js';
import { type KnockoutVerdict, verdictMessages } from '../../src/tournament/knockout-verdict.js';
import { modelFamily } from '../../src/tournament/model-family.js';
import type { TournamentEntry } from '../../src/tournament/tournament-log.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { tournamentEntries as entries } from '../helpers/tournament-log.js';

const mock = useMockServers();

const plannedIn = (log: TournamentEntry[]) =>
  log.flatMap((entry) => (entry.type === 'matches-planned' ? entry.matches : []));
const endsIn = (log: TournamentEntry[]) =>
  log.flatMap((entry) => (entry.type === 'debate-end' ? [entry] : []));

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

const chats = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.path === '/api/chat').map((request) => request.body as ChatBody);
const isVerdict = (body: ChatBody) => body.messages[0]?.content.startsWith('You judge a finished debate');

function transcriptOf(folder: string, runId: string) {
  return JSON.parse(readFileSync(path.join(folder, runId, 'transcript.json'), 'utf8')) as {
    format: string;
    agents: Array<{ position: string; model: string }>;
    rounds: Array<{ statements: Array<{ position: string; text: string }> }>;
  };
}

describe('agora tournament --format knockout', () => {
  it('runs on the simulator to standings, each result the verdict of the match’s judge', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'motions.txt'),
      'Tea is better than coffee\nCities should ban cars from their centres\n',
    );
    const out = path.join(dir, 'cup');
    const result = await runAgora(
      [
        'tournament',
        '--demo',
        '--format',
        'knockout',
        '--models',
        'm1,m2,m3,m4',
        '--motions',
        'motions.txt',
        '--rounds',
        '2',
        '--concurrency',
        '4',
        '--out',
        out,
      ],
      { cwd: dir },
    );
    expect(result.stderr).toContain('knockout, round-robin (24 debates)');
    expect([0, 9]).toContain(result.code);
    const log = entries(out);
    const planned = plannedIn(log);
    expect(planned).toHaveLength(24);
    const ends = endsIn(log);
    expect(ends.map((end) => end.runId).sort()).toEqual(planned.map((match) => match.runId).sort());
    for (const end of ends) {
      const match = planned.find((each) => each.runId === end.runId);
      const transcript = transcriptOf(out, end.runId);
      expect(transcript.format).toBe('knockout');
      // X on the first model, the four Ys on the second.
      expect(transcript.agents.filter((agent) => agent.position === 'X').map((agent) => agent.model)).toEqual(
        [match?.first],
      );
      expect(transcript.agents.filter((agent) => agent.position === 'Y').map((agent) => agent.model)).toEqual(
        Array(4).fill(match?.second),
      );
      const verdict = JSON.parse(
        readFileSync(path.join(out, end.runId, 'tournament-verdict.json'), 'utf8'),
      ) as KnockoutVerdict;
      expect(verdict.judge).toBe(match?.judge);
      expect([match?.first, match?.second]).not.toContain(verdict.judge);
      // The result is the verdict's: X is the first side.
      if (end.status === 'completed') expect(end.match?.score).toBe({ x: 1, y: 0, tie: 0.5 }[verdict.winner]);
      expect(end.match?.readings.map((reading) => reading.judgeModel)).toEqual(
        verdict.picks[0] ? [verdict.judge] : [],
      );
    }
    for (const line of ['Rating', 'Style', 'Separability:', 'order flips', 'Robustness:'])
      expect(result.stdout).toContain(line);
    for (const model of ['m1', 'm2', 'm3', 'm4'])
      expect(result.stdout).toMatch(new RegExp(`^\\s*${model}\\b`, 'm'));
  });

  it('asks its verdicts only of judges outside the match and both debaters’ families, and asks again only what a kill lost', async () => {
    const server = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\n');
    const args = [
      'tournament',
      '--host',
      server.url,
      '--format',
      'knockout',
      '--models',
      'llama3,mistral,qwen2.5',
      '--motions',
      'motions.txt',
      '--rounds',
      '2',
      '--out',
      'cup',
    ];
    const first = await runAgora(args, { cwd: dir });
    expect([0, 9]).toContain(first.code);
    const out = path.join(dir, 'cup');
    const planned = plannedIn(entries(out));
    expect(planned).toHaveLength(6);
    expect(planned.every((match) => match.judgeRule === 'other-family')).toBe(true);
    const sent = chats(server.requests);
    const verdicts = sent.filter(isVerdict);
    // Two readings per debate, the sides in both orders.
    expect(verdicts).toHaveLength(12);
    for (const match of planned) {
      // The readings of this debate: the prompts built from its own transcript, in both orders.
      const transcript = transcriptOf(out, match.runId);
      const prompts = (['x', 'y'] as const).map((side) => verdictMessages(transcript, side)[1]?.content);
      const asked = verdicts.filter((body) => prompts.includes(body.messages[1]?.content));
      // Both side orders of a pairing on a motion share a judge; the simulator may write them alike.
      expect(asked.length, match.runId).toBeGreaterThanOrEqual(2);
      for (const body of asked) {
        expect(body.model).toBe(match.judge);
        expect(modelFamily(body.model)).not.toBe(modelFamily(match.first));
        expect(modelFamily(body.model)).not.toBe(modelFamily(match.second));
      }
      const orders = asked.map((body) => {
        const task = (body.messages[1]?.content ?? '').split('## Your task')[1] ?? '';
        return task.indexOf('x —') < task.indexOf('y —') ? 'x' : 'y';
      });
      expect(new Set(orders)).toEqual(new Set(['x', 'y']));
    }
    // The Y agents' own scoring stays on the Y model: no debater's request goes to the judge.
    for (const body of sent.filter((each) => !isVerdict(each)))
      expect(planned.some((match) => [match.first, match.second].includes(body.model))).toBe(true);

    // A kill after a debate ended and before its verdict was kept: its end is not logged, its verdict
    // file not written. The same command asks that one verdict again and runs no debate.
    const lost = planned[5]?.runId as string;
    const lines = readFileSync(path.join(out, 'tournament.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(
      path.join(out, 'tournament.jsonl'),
      `${lines.filter((line) => !(line.includes('"debate-end"') && line.includes(lost))).join('\n')}\n`,
    );
    rmSync(path.join(out, lost, 'tournament-verdict.json'));
    const events = readFileSync(path.join(out, lost, 'events.jsonl'), 'utf8');
    const before = chats(server.requests).length;
    const again = await runAgora(args, { cwd: dir });
    expect(again.code).toBe(first.code);
    expect(again.stderr).toContain(`already finished: ${lost}`);
    const asked = chats(server.requests).slice(before);
    expect(asked).toHaveLength(2);
    expect(asked.every(isVerdict)).toBe(true);
    expect(asked.every((body) => body.model === planned[5]?.judge)).toBe(true);
    expect(readFileSync(path.join(out, lost, 'events.jsonl'), 'utf8')).toBe(events);
    expect(
      endsIn(entries(out))
        .map((end) => end.runId)
        .sort(),
    ).toEqual(planned.map((match) => match.runId).sort());
    expect(again.stdout).toBe(first.stdout);
  });

  it('fails a knockout whose judge gives no usable verdict, and asks only the verdict again next time', async () => {
    // Every verdict the judge is asked for comes back as prose, not the JSON asked for.
    const broken = await mock({
      models: ['llama3', 'mistral', 'qwen2.5'],
      script: [
        { match: { text: 'Which side argued its position better?' }, reply: 'Both sides made good points.' },
      ],
    });
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\n');
    const args = (host: string) => [
      'tournament',
      '--host',
      host,
      '--format',
      'knockout',
      '--models',
      'llama3,mistral,qwen2.5',
      '--motions',
      'motions.txt',
      '--rounds',
      '1',
      // All six debates at once: a tournament stops starting debates after as many failures in a
      // row as it runs at a time, and here every debate is to end before its verdict fails.
      '--concurrency',
      '6',
      '--out',
      'cup',
    ];
    const first = await runAgora(args(broken.url), { cwd: dir });
    expect(first.code).toBe(ExitCode.runFailed);
    expect(first.stderr).toContain('no usable verdict in either side order');
    const out = path.join(dir, 'cup');
    const planned = plannedIn(entries(out));
    // The debates ended; none counts, and no verdict was kept.
    expect(endsIn(entries(out))).toHaveLength(0);
    for (const match of planned) {
      expect(existsSync(path.join(out, match.runId, 'transcript.json'))).toBe(true);
      expect(existsSync(path.join(out, match.runId, 'tournament-verdict.json'))).toBe(false);
    }

    const working = await mock({ models: ['llama3', 'mistral', 'qwen2.5'] });
    const again = await runAgora(args(working.url), { cwd: dir });
    expect([0, 9]).toContain(again.code);
    const asked = chats(working.requests);
    // Two readings per debate, and no debate run again.
    expect(asked).toHaveLength(2 * planned.length);
    expect(asked.every(isVerdict)).toBe(true);
    expect(
      endsIn(entries(out))
        .map((end) => end.runId)
        .sort(),
    ).toEqual(planned.map((match) => match.runId).sort());
  });

  it('repeats no finished knockout after kill -9 mid-debate', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\n');
    const out = path.join(dir, 'cup');
    const args = [
      'tournament',
      '--demo',
      '--format',
      'knockout',
      '--models',
      'm1,m2,m3',
      '--motions',
      'motions.txt',
      '--rounds',
      '2',
      '--concurrency',
      '1',
      '--out',
      out,
    ];
    const running = startAgora(args, { cwd: dir });
    // Killed once a debate has ended and the next one is in flight; the moment is read from the log.
    for (;;) {
      const log = entries(out);
      const ended = endsIn(log).map((end) => end.runId);
      const started = log.flatMap((entry) => (entry.type === 'debate-start' ? [entry.runId] : []));
      if (ended.length >= 1 && started.some((runId) => !ended.includes(runId))) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    running.child.kill('SIGKILL');
    await running.result;
    const finished = endsIn(entries(out)).map((end) => end.runId);
    const kept = new Map(
      finished.map((runId) => [runId, readFileSync(path.join(out, runId, 'events.jsonl'), 'utf8')]),
    );

    const last = await runAgora(['tournament', '--resume', out], { cwd: dir });
    expect([0, 9]).toContain(last.code);
    const log = entries(out);
    const planned = plannedIn(log);
    expect(
      endsIn(log)
        .map((end) => end.runId)
        .sort(),
    ).toEqual(planned.map((match) => match.runId).sort());
    for (const [runId, events] of kept)
      expect(readFileSync(path.join(out, runId, 'events.jsonl'), 'utf8'), runId).toBe(events);
    for (const match of planned) {
      const starts = readFileSync(path.join(out, match.runId, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .filter((line) => JSON.parse(line).type === 'run-start');
      expect(starts, match.runId).toHaveLength(1);
      expect(existsSync(path.join(out, match.runId, 'tournament-verdict.json'))).toBe(true);
    }
    expect(last.stdout).toMatch(/^\s*m1\b/m);
  });
});
