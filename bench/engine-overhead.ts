/**
 * Measures what the engine itself costs per model call: CPU time of this process (prompt building,
 * folding, event log appends with fsync, transcript writes, HTTP client work) while the mock Ollama
 * answers instantly from a separate process. `npm run bench:engine [-- scenario.yaml runs]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadScenario } from '../src/config/load-scenario.js';
import type { AnyFormat } from '../src/formats/format-definition.js';
import { knockoutFormat } from '../src/formats/knockout/index.js';
import type { KnockoutState } from '../src/formats/knockout/state.js';
import { knockoutStats } from '../src/formats/knockout/stats.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import { closeRunLogger, createRunLogger } from '../src/manager/logger.js';
import { startMockProcess } from './mock-process.js';

const scenarioFile = process.argv[2] ?? 'scenarios/abortion.yaml';
const runs = Number(process.argv[3] ?? 5);

const { url, process: mock } = await startMockProcess();

const scenario = await loadScenario(scenarioFile);
const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-'));
const rows: Array<{ run: number; calls: number; wallMs: number; cpuMs: number; sysMs: number }> = [];
try {
  for (let run = 0; run < runs + 1; run += 1) {
    const { runId, paths } = createRunDir(out, { ...scenario, seed: scenario.seed + run });
    const logger = createRunLogger(paths.log, { verbose: false });
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const { state } = await driveDebate({
      format: knockoutFormat as unknown as AnyFormat,
      start: { runId, scenario: { ...scenario, seed: scenario.seed + run } },
      paths,
      provider: new OllamaProvider({ host: url }),
      logger,
    });
    const cpu = process.cpuUsage(cpuBefore);
    closeRunLogger(logger);
    // The first run warms up the JIT and module caches; it is not reported.
    if (run > 0) {
      rows.push({
        run,
        calls: knockoutStats(state as KnockoutState).modelCalls,
        wallMs: performance.now() - wallBefore,
        cpuMs: (cpu.user + cpu.system) / 1000,
        sysMs: cpu.system / 1000,
      });
    }
  }
} finally {
  mock.kill('SIGINT');
  rmSync(out, { recursive: true, force: true });
}

const calls = rows.reduce((sum, row) => sum + row.calls, 0);
const cpuMs = rows.reduce((sum, row) => sum + row.cpuMs, 0);
const wallMs = rows.reduce((sum, row) => sum + row.wallMs, 0);
console.table(rows.map((row) => ({ ...row, wallMs: Math.round(row.wallMs), cpuMs: Math.round(row.cpuMs) })));
console.log(
  `${rows.length} debates, ${calls} model calls: engine CPU ${(cpuMs / calls).toFixed(2)} ms per call, wall ${(wallMs / calls).toFixed(2)} ms per call (mock answering instantly), ${(wallMs / rows.length / 1000).toFixed(2)} s per debate`,
);
