/**
 * `npx tsx bench/round-limit.ts`: what keeping a round time limit costs. Runs the 6-round knockout
 * of `scenarios/abortion.yaml` against the simulator (statements of 350-650 words) with
 * `round_time_limit.mode` `report` and `keep`, on the desktop GPU (limit 22 s) and the desktop CPU
 * (limit 300 s), and prints each round's simulated seconds, the words its statements kept and how
 * many were cut at their cap. The engine measures real time, so the simulator runs slower here than
 * in `npm run bench` (its own work per call stays a small share of a round) and the limit is
 * scaled by the same factor.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadScenario } from '../src/config/load-scenario.js';
import type { KnockoutScenario } from '../src/config/scenario.js';
import type { RunEvent } from '../src/core/events.js';
import type { AnyFormat } from '../src/formats/format-definition.js';
import { knockoutFormat } from '../src/formats/knockout/index.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import { PROFILES, type ProfileName, startMockOllama } from '../src/mock-ollama/index.js';
import { debateFigures } from './round-figures.js';
import { RoundRecorder } from './round-recorder.js';

const SPEECH = { minWords: 350, maxWords: 650 };

async function measure(profileName: ProfileName, speed: number, seconds: number, mode: 'report' | 'keep') {
  const base = (await loadScenario('scenarios/abortion.yaml')) as KnockoutScenario;
  const scenario = { ...base, round_time_limit: { seconds: seconds * speed, mode } } as KnockoutScenario;
  const profile = PROFILES[profileName];
  const models = [...new Set(scenario.agents.map((agent) => agent.model))];
  const server = await startMockOllama({ models, profile: profileName, speed, speechLength: SPEECH });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-limit-'));
  const events: RunEvent[] = [];
  try {
    const { runId, paths } = createRunDir(out, scenario);
    const recorder = new RoundRecorder(new OllamaProvider({ host: server.url }), profile);
    await driveDebate({
      format: knockoutFormat as unknown as AnyFormat,
      paths,
      start: { runId, scenario },
      provider: recorder,
      logger: pino({ enabled: false }),
      onEvent: (event) => {
        recorder.onEvent(event);
        events.push(event);
      },
    });
    const figures = debateFigures(recorder.calls, profile, scenario.judging.concurrency);
    return figures.rounds.map((round) => {
      const statements = events.filter(
        (event): event is Extract<RunEvent, { type: 'turn-end' }> =>
          event.type === 'turn-end' && event.round === round.round,
      );
      return {
        round: round.round,
        seconds: round.totalSeconds,
        words: statements.map((statement) => statement.text.split(/\s+/).length),
        cut: statements.filter((statement) => statement.truncated).length,
      };
    });
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const out = (text = '') => process.stdout.write(`${text}\n`);
for (const [profile, speed, seconds] of [
  ['desktop-gpu', 0.05, 22],
  ['desktop-cpu', 0.005, 300],
] as const) {
  const report = await measure(profile, speed, seconds, 'report');
  const keep = await measure(profile, speed, seconds, 'keep');
  out(`### ${profile}, round_time_limit ${seconds} s`);
  out();
  out('| round | report: s | report: words (cut) | keep: s | keep: words (cut) |');
  out('| --- | --- | --- | --- | --- |');
  report.forEach((row, index) => {
    const kept = keep[index];
    out(
      `| ${row.round} | ${row.seconds.toFixed(1)} | ${row.words.join(' + ')} (${row.cut}) | ${kept ? kept.seconds.toFixed(1) : '-'} | ${kept ? `${kept.words.join(' + ')} (${kept.cut})` : '-'} |`,
    );
  });
  out();
}
