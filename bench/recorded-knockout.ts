/**
 * One knockout run against the simulator with every call recorded: its figures by round (see
 * round-figures.ts) and the server's prompt-token counts. Shared by `npm run bench` and
 * `npm run bench:seeds`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { KnockoutScenario } from '../src/config/scenario.js';
import type { AnyFormat } from '../src/formats/format-definition.js';
import { knockoutFormat } from '../src/formats/knockout/index.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import { PROFILES, type ProfileName, startMockOllama } from '../src/mock-ollama/index.js';
import { type DebateFigures, debateFigures } from './round-figures.js';
import { RoundRecorder } from './round-recorder.js';

export interface RecordedKnockout {
  figures: DebateFigures;
  promptTokens: number;
  cachedTokens: number;
}

/** Runs `scenario` to its end on a simulator with `profileName`, waiting `speed` real seconds per simulated one. */
export async function recordedKnockout(
  scenario: KnockoutScenario,
  profileName: ProfileName,
  options: { speed: number; speech: { minWords: number; maxWords: number } },
): Promise<RecordedKnockout> {
  const profile = PROFILES[profileName];
  const models = [...new Set(scenario.agents.map((agent) => agent.model))];
  const server = await startMockOllama({
    models,
    profile: profileName,
    speed: options.speed,
    speechLength: options.speech,
  });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-knockout-'));
  try {
    const { runId, paths } = createRunDir(out, scenario);
    const recorder = new RoundRecorder(
      new OllamaProvider({ host: server.url }),
      profile,
      () => server.stats().modelLoads,
    );
    const { state } = await driveDebate({
      format: knockoutFormat as unknown as AnyFormat,
      paths,
      start: { runId, scenario },
      provider: recorder,
      logger: pino({ enabled: false }),
      onEvent: recorder.onEvent,
    });
    const end = (state as { end?: { status: string; stopReason: string } | null }).end;
    if (end?.status !== 'completed') {
      throw new Error(`the debate did not complete: ${end?.status ?? 'no end'} (${end?.stopReason ?? ''})`);
    }
    const figures = debateFigures(recorder.calls, profile, scenario.judging.concurrency);
    const stats = server.stats();
    if (stats.modelLoads !== figures.loads) {
      throw new Error(`the server loaded models ${stats.modelLoads} times, the calls show ${figures.loads}`);
    }
    return { figures, promptTokens: stats.promptTokens, cachedTokens: stats.cachedPromptTokens };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}
