import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadScenario } from '../src/config/load-scenario.js';
import type { KnockoutScenario } from '../src/config/scenario.js';
import type { AnyFormat } from '../src/formats/format-definition.js';
import { knockoutFormat } from '../src/formats/knockout/index.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import { PROFILES, startMockOllama } from '../src/mock-ollama/index.js';
import { debateFigures } from './round-figures.js';
import { RoundRecorder } from './round-recorder.js';
import { roundsTable } from './round-report.js';
const base = (await loadScenario('scenarios/abortion.yaml')) as KnockoutScenario;
for (const model of process.argv.slice(2)) {
  const scenario = model === 'none' ? base : { ...base, agents: base.agents.map((a) => ({ ...a, model })) };
  const models = [...new Set(scenario.agents.map((a) => a.model))];
  const server = await startMockOllama({ models, profile: 'desktop-gpu', speed: 0.0005, speechLength: { minWords: 350, maxWords: 650 } });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-x-'));
  const { runId, paths } = createRunDir(out, scenario);
  const rec = new RoundRecorder(new OllamaProvider({ host: server.url }), PROFILES['desktop-gpu'], () => server.stats().modelLoads);
  await driveDebate({ format: knockoutFormat as unknown as AnyFormat, paths, start: { runId, scenario }, provider: rec, logger: pino({ enabled: false }), onEvent: rec.onEvent });
  const f = debateFigures(rec.calls, PROFILES['desktop-gpu'], scenario.judging.concurrency);
  console.log(`## ${model} cache ${f.cacheShare.toFixed(3)} slowest ${f.slowest.totalSeconds.toFixed(1)}`);
  console.log(roundsTable(f));
  if (process.env.DUMP) for (const c of rec.calls) console.log(c.round, c.kind, c.model, c.promptTokens, c.cachedTokens, c.outputTokens, (c.prefillSeconds+c.decodeSeconds).toFixed(2));
  await server.close(); rmSync(out, { recursive: true, force: true });
}
