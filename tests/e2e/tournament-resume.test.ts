/**
 * A tournament killed with SIGKILL, twice, at moments read from its own log (once with a debate in
 * flight, once right after a debate ended), then continued: no finished debate runs again, the
 * interrupted ones resume from their own logs, and the tournament ends with every debate once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TournamentEntry } from '../../src/tournament/tournament-log.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { tournamentEntries as entries, whenTournamentLog as whenLog } from '../helpers/tournament-log.js';

const endsIn = (log: TournamentEntry[]) =>
  log.filter((entry) => entry.type === 'debate-end').map((entry) => entry.runId);

/** The event log of each finished run, to compare after the resume. */
function eventLogs(folder: string, runIds: string[]): Map<string, string> {
  return new Map(
    runIds.map((runId) => [runId, readFileSync(path.join(folder, runId, 'events.jsonl'), 'utf8')]),
  );
}

describe('agora tournament after kill -9', () => {
  it('repeats no finished debate, killed twice', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'motions.txt'),
      'Tea is better than coffee\nTrains beat planes for trips under 800 km\n',
    );
    const out = path.join(dir, 'cup');
    const args = [
      'tournament',
      '--demo',
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

    // First kill: a debate is in flight (started, not ended) after two have ended.
    const first = startAgora(args, { cwd: dir });
    const atFirst = await whenLog(out, (log) => {
      const ends = endsIn(log);
      const starts = log.filter((entry) => entry.type === 'debate-start').map((entry) => entry.runId);
      return ends.length >= 2 && starts.some((runId) => !ends.includes(runId));
    });
    first.child.kill('SIGKILL');
    await first.result;
    const finishedFirst = endsIn(atFirst);
    const inFlight = atFirst
      .filter((entry) => entry.type === 'debate-start')
      .map((entry) => entry.runId)
      .find((runId) => !finishedFirst.includes(runId)) as string;
    const kept = eventLogs(out, endsIn(entries(out)));

    // Second kill: right after the resumed tournament logs its next ended debate.
    const second = startAgora(args, { cwd: dir });
    const before = endsIn(entries(out)).length;
    await whenLog(out, (log) => endsIn(log).length > before);
    second.child.kill('SIGKILL');
    await second.result;
    for (const runId of endsIn(entries(out)))
      if (!kept.has(runId)) kept.set(runId, readFileSync(path.join(out, runId, 'events.jsonl'), 'utf8'));

    const last = await runAgora(['tournament', '--resume', out], { cwd: dir });
    expect(last.stderr).toContain('already finished');
    expect([0, 9]).toContain(last.code);

    const log = entries(out);
    const planned = log.flatMap((entry) => (entry.type === 'matches-planned' ? entry.matches : []));
    expect(planned).toHaveLength(12);
    // Every debate ended once in the log, and no finished debate's own log grew after it ended.
    const ends = endsIn(log);
    expect(ends.sort()).toEqual(planned.map((match) => match.runId).sort());
    for (const [runId, events] of kept) {
      expect(readFileSync(path.join(out, runId, 'events.jsonl'), 'utf8'), runId).toBe(events);
    }
    for (const match of planned) {
      const events = readFileSync(path.join(out, match.runId, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n');
      // One run each, never started over: exactly one run-start in its log.
      expect(
        events.filter((line) => JSON.parse(line).type === 'run-start'),
        match.runId,
      ).toHaveLength(1);
    }
    // The debate killed mid-flight was resumed from its own log, not begun again.
    expect(
      log.filter((entry) => entry.type === 'debate-start' && entry.runId === inFlight).length,
    ).toBeGreaterThanOrEqual(2);
    expect(ends).toContain(inFlight);
    expect(last.stdout).toMatch(/^\s*m1\b/m);
  });

  it('stops after the steps in flight on Ctrl-C, exit 130, and the same command finishes it', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), 'Tea is better than coffee\n');
    const out = path.join(dir, 'cup');
    const args = [
      'tournament',
      '--demo',
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
    // Once a debate is under way, Ctrl-C.
    await whenLog(
      out,
      (log) => endsIn(log).length >= 1 && log.filter((entry) => entry.type === 'debate-start').length >= 2,
    );
    running.child.kill('SIGINT');
    const stopped = await running.result;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('stopping after the steps in flight');
    expect(stopped.stderr).toContain('--resume');
    const log = entries(out);
    // The debate in flight was stopped, not ended, and no other debate was started after the stop.
    const started = log.filter((entry) => entry.type === 'debate-start').map((entry) => entry.runId);
    expect(endsIn(log).length).toBeLessThan(6);
    expect(new Set(started).size).toBeLessThan(6);
    const done = await runAgora(args, { cwd: dir });
    expect([0, 9]).toContain(done.code);
    expect(endsIn(entries(out)).sort()).toEqual(
      entries(out)
        .flatMap((entry) =>
          entry.type === 'matches-planned' ? entry.matches.map((match) => match.runId) : [],
        )
        .sort(),
    );
  });
});
