/**
 * `npm run bench:format-cache`: the share of prompt tokens the simulator's prefix cache serves in the
 * shipped duel, formal, critique and council scenarios, with one slot per model (llama-server's
 * default), and the prompt tokens it still had to prefill. Measured three times: with the scenario's
 * own models (two resident at once, the desktop profile), with its own models all resident (as a GPU
 * that holds them, e.g. the duel's two debaters and its judge: OLLAMA_MAX_LOADED_MODELS=3), and with
 * every model the scenario names set to one (llama3), as one llama-server process serves them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadScenario } from '../src/config/load-scenario.js';
import { formatNamed } from '../src/formats/index.js';
import { scenarioModels } from '../src/formats/scenario-models.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import { PROFILES, startMockOllama } from '../src/mock-ollama/index.js';

const SPEED = 0.0005;
const PROFILE = PROFILES['desktop-gpu'];
const SCENARIOS = [
  'scenarios/duel-god-exists.yaml',
  'scenarios/formal-car-free-cities.yaml',
  'scenarios/critique-rate-limiter.yaml',
  'scenarios/council-billing-database.yaml',
];

/**
 * The scenario with every model it names set to `model` (and no fallbacks): one model serves every
 * call, as a single llama-server process would, and the prompts are laid out for that model.
 */
function onOneModel<T>(value: T, model: string): T {
  if (Array.isArray(value)) return value.map((item) => onOneModel(item, model)) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => {
    if (key === 'fallback_models') return [key, []];
    if ((key === 'model' || key.endsWith('_model')) && typeof item === 'string') return [key, model];
    return [key, onOneModel(item, model)];
  });
  return Object.fromEntries(entries) as T;
}

async function share(
  file: string,
  oneModel: boolean,
  allResident = false,
): Promise<{ share: number; prefilled: number }> {
  const loaded = await loadScenario(file);
  const scenario = oneModel ? onOneModel(loaded, 'llama3') : loaded;
  const format = formatNamed(scenario.format);
  if (!format) throw new Error(`${file}: unknown format ${scenario.format}`);
  const models = oneModel ? ['llama3'] : scenarioModels(scenario).required;
  const profile = allResident
    ? { ...PROFILE, maxLoadedModels: Math.max(PROFILE.maxLoadedModels, models.length) }
    : PROFILE;
  const server = await startMockOllama({ models, profile, speed: SPEED });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-'));
  try {
    const { runId, paths } = createRunDir(out, scenario);
    const base = new OllamaProvider({ host: server.url });
    await driveDebate({
      format,
      paths,
      start: { runId, scenario },
      provider: base,
      logger: pino({ enabled: false }),
    });
    const stats = server.stats();
    return {
      share: stats.cachedPromptTokens / stats.promptTokens,
      prefilled: stats.promptTokens - stats.cachedPromptTokens,
    };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const lines: string[] = [];
for (const file of SCENARIOS) {
  const own = await share(file, false);
  const resident = await share(file, false, true);
  const one = await share(file, true);
  lines.push(
    `${path.basename(file)}: cache share ${own.share.toFixed(2)} (own models), ${resident.share.toFixed(2)} (own models, all resident), ${one.share.toFixed(2)} (one model); prompt tokens prefilled ${own.prefilled} / ${resident.prefilled} / ${one.prefilled}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
