/**
 * A round's real time covers everything between the previous round's end and its own: the summary
 * folded before it, the claims extractions and the commentary on the round before count in the
 * round they delay, and the model loads before round 1 in none. The run is driven with a clock that
 * moves a fixed step each time it is read, so the figures do not depend on the machine's load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadScenario, parseScenario } from '../../src/config/load-scenario.js';
import type { Clock } from '../../src/core/clock.js';
import { ConfigError } from '../../src/core/errors.js';
import type { RunEvent } from '../../src/core/events.js';
import type { AnyFormat } from '../../src/formats/format-definition.js';
import { knockoutFormat } from '../../src/formats/knockout/index.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../../src/manager/debate-manager.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { readEventLog } from '../../src/store/event-log.js';
import { projectRoot, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A clock that moves `stepMs` every time it is read. */
function steppingClock(stepMs: number): Clock {
  let ms = 0;
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  return {
    now: () => {
      ms += stepMs;
      return new Date(start + ms);
    },
    monotonicMs: () => {
      ms += stepMs;
      return ms;
    },
  };
}

type Timed = RunEvent & { realMs: number };
const timed = (event: RunEvent): event is Timed =>
  'realMs' in event && typeof (event as { realMs?: unknown }).realMs === 'number';

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  options?: { num_predict?: number };
}

/** A knockout with statements of 350-650 words on a clock that moves 250 ms a read; the chat requests it made. */
async function timedRun(limit: { seconds: number; mode: 'report' | 'keep' }) {
  const scenario = await parseScenario(
    stringify(testScenario({ rounds: 4, extra: { round_time_limit: limit } })),
    path.join(projectRoot, 'virtual.yaml'),
  );
  const server = await startMockOllama({
    models: ['llama3', 'mistral'],
    profile: 'instant',
    speechLength: { minWords: 350, maxWords: 650 },
  });
  servers.push(server);
  const { runId, paths } = createRunDir(tempDir(), scenario);
  await driveDebate({
    format: knockoutFormat as unknown as AnyFormat,
    paths,
    start: { runId, scenario },
    provider: new OllamaProvider({ host: server.url }),
    logger: pino({ enabled: false }),
    clock: steppingClock(250),
  });
  const events = readEventLog(paths.events).events;
  const statements = server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => request.body as ChatBody)
    .filter((body) => /## Your task: round \d+ of/.test(body.messages.at(-1)?.content ?? ''))
    .map((body) => ({
      round: Number(/## Your task: round (\d+) of/.exec(body.messages.at(-1)?.content ?? '')?.[1]),
      cap: body.options?.num_predict ?? 0,
    }));
  const transcript = JSON.parse(readFileSync(path.join(paths.runDir, 'transcript.json'), 'utf8')) as {
    rounds: Array<{ number: number; realMs: number; slow: boolean }>;
    stats: { slowRounds: number[]; roundTimeLimitSeconds: number };
  };
  return { events, statements, transcript };
}

describe('the round clock', () => {
  it('counts the summary, the claims and the commentary in the round they delay, and the loads in none', async () => {
    const scenario = await loadScenario('scenarios/abortion.yaml');
    const server = await startMockOllama({
      models: ['llama3', 'mistral'],
      profile: 'instant',
      speechLength: { minWords: 350, maxWords: 650 },
    });
    servers.push(server);
    const { runId, paths } = createRunDir(tempDir(), scenario);
    await driveDebate({
      format: knockoutFormat as unknown as AnyFormat,
      paths,
      start: { runId, scenario },
      provider: new OllamaProvider({ host: server.url }),
      logger: pino({ enabled: false }),
      clock: steppingClock(250),
    });
    const events = readEventLog(paths.events).events;
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const ends = events.filter((event) => event.type === 'round-end');
    expect(ends).toHaveLength(6);
    const summaries = events.filter((event) => event.type === 'summary');
    expect(summaries.length).toBeGreaterThan(0);

    let previous = events.findIndex((event) => event.type !== 'run-start' && timed(event));
    const firstStep = events[previous] as Timed;
    // Round 1 starts with its first step: the models loaded before it are in no round.
    let clockStart = Date.parse(firstStep.at) - firstStep.realMs;
    previous -= 1;
    for (const end of ends) {
      const index = events.indexOf(end);
      const between = events.slice(previous + 1, index);
      const work = between
        .filter(timed)
        .filter((event) => event.type !== 'vote-cast')
        .reduce((sum, event) => sum + event.realMs, 0);
      const votes = between.filter((event): event is Timed => event.type === 'vote-cast' && timed(event));
      const judging =
        votes.length > 0
          ? Math.max(...votes.map((vote) => Date.parse(vote.at))) -
            Math.min(...votes.map((vote) => Date.parse(vote.at) - vote.realMs))
          : 0;
      const realMs = (end as Timed).realMs;
      // Every statement, extraction, summary and commentary since the last round's end is in it...
      expect(realMs).toBeGreaterThanOrEqual(work + judging);
      // ...and nothing else than the time between that end and this one.
      expect(realMs).toBeLessThanOrEqual(Date.parse(end.at) - clockStart);
      expect(realMs).toBeGreaterThan(Date.parse(end.at) - clockStart - 1000);
      clockStart = Date.parse(end.at);
      previous = index;
    }
    // A round with a summary before it counts that summary.
    for (const summary of summaries) {
      const end = events.slice(events.indexOf(summary)).find((event) => event.type === 'round-end') as Timed;
      expect(end.realMs).toBeGreaterThan((summary as Timed).realMs);
    }
    // transcript.json reports the same round times.
    const transcript = JSON.parse(readFileSync(path.join(paths.runDir, 'transcript.json'), 'utf8')) as {
      rounds: Array<{ realMs: number | null }>;
    };
    expect(transcript.rounds.map((round) => round.realMs)).toEqual(ends.map((end) => (end as Timed).realMs));
  });

  it('keeps a round time limit by shortening the speeches of a round running late, and still reports the rounds over it', async () => {
    const limit = 6;
    const reported = await timedRun({ seconds: limit, mode: 'report' });
    const kept = await timedRun({ seconds: limit, mode: 'keep' });
    for (const run of [reported, kept]) {
      expect(run.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
      expect(run.transcript.stats.roundTimeLimitSeconds).toBe(limit);
      // The report names exactly the rounds over the limit.
      expect(run.transcript.stats.slowRounds).toEqual(
        run.transcript.rounds.filter((round) => round.realMs > limit * 1000).map((round) => round.number),
      );
      for (const round of run.transcript.rounds) expect(round.slow).toBe(round.realMs > limit * 1000);
    }
    const normal = Math.max(...reported.statements.map((statement) => statement.cap));
    // Reported only: every statement keeps its usual cap.
    expect(new Set(reported.statements.map((statement) => statement.cap))).toEqual(new Set([normal]));
    // Kept: round 1 has nothing measured yet; later rounds ask for less, but never less than the floor.
    const later = kept.statements.filter((statement) => statement.round > 1);
    expect(kept.statements.filter((statement) => statement.round === 1).map((s) => s.cap)).toEqual([
      normal,
      normal,
    ]);
    expect(later.length).toBeGreaterThan(0);
    expect(later.some((statement) => statement.cap < normal)).toBe(true);
    for (const statement of later) expect(statement.cap).toBeGreaterThanOrEqual(120);
    // The speeches of those rounds are shorter: they are what the time of a round is made of.
    const written = (run: typeof kept) =>
      run.events
        .filter((event) => event.type === 'turn-end' && event.round > 1)
        .reduce((sum, event) => sum + (event as { outputTokens: number }).outputTokens, 0);
    expect(written(kept)).toBeLessThan(written(reported));
  });

  it('holds round 1 too: its second statement is asked for less once the first has used the time', async () => {
    // A limit of one second: round 1 is late by the time its first statement is written.
    const kept = await timedRun({ seconds: 1, mode: 'keep' });
    expect(kept.events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const reported = await timedRun({ seconds: 1, mode: 'report' });
    const normal = Math.max(...reported.statements.map((statement) => statement.cap));
    const first = kept.statements.filter((statement) => statement.round === 1).map((s) => s.cap);
    // Nothing is measured before the first statement; the second is held at the rate it was written at.
    expect(first).toEqual([normal, 120]);
    // No model loaded during a call here: the transcript reports no load time in any round.
    for (const round of kept.transcript.rounds as Array<{ loadMs?: number }>) expect(round.loadMs).toBe(0);
  });

  it('refuses a round time limit mode it does not know, naming the field', async () => {
    const error = await parseScenario(
      stringify(testScenario({ extra: { round_time_limit: { seconds: 30, mode: 'fast' } } })),
      path.join(projectRoot, 'virtual.yaml'),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.path)).toContain('round_time_limit.mode');
    expect((error as ConfigError).exitCode).toBe(3);
  });
});
