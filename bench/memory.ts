/**
 * `npm run bench:memory`: what the claims ledger and the summaries cost the model in one knockout
 * debate (`scenarios/abortion.yaml`, 6 rounds, and the same debate over 30 rounds with a 6144-token
 * window), with the ledger kept by a model call (`memory.claims: model`, the default), by key
 * sentences (`heuristic`) and without it (`off`), on the simulator's gpu and cpu profiles. Model
 * calls are counted by kind from the requests the simulator recorded; prefilled and cached prompt
 * tokens come from its prompt cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import pino from 'pino';
import { loadScenario } from '../src/config/load-scenario.js';
import type { KnockoutScenario } from '../src/config/scenario.js';
import type { AnyFormat } from '../src/formats/format-definition.js';
import { knockoutFormat } from '../src/formats/knockout/index.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import type { ChatMessage } from '../src/llm/provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import { type ProfileName, startMockOllama } from '../src/mock-ollama/index.js';

const SPEED = 0.0002;

function kindOf(messages: ChatMessage[]): string {
  const task = messages.at(-1)?.content ?? '';
  if (task.includes('list the claims in')) return 'claims';
  if (task.includes('the summary of rounds')) return 'summary';
  if (task.includes('## Your task: evaluate round')) return 'vote';
  if (task.includes('commentary after round')) return 'commentary';
  return 'statement';
}

interface Row {
  debate: string;
  profile: ProfileName;
  claims: string;
  calls: Record<string, number>;
  promptTokens: number;
  prefilled: number;
  cached: number;
  simulatedSeconds: number;
}

async function measure(
  debate: string,
  scenario: KnockoutScenario,
  profile: ProfileName,
  claims: 'model' | 'heuristic' | 'off',
): Promise<Row> {
  const run: KnockoutScenario = { ...scenario, memory: { ...scenario.memory, claims } };
  const models = [...new Set(run.agents.map((agent) => agent.model))];
  const server = await startMockOllama({ models, profile, speed: SPEED });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-memory-'));
  try {
    const { runId, paths } = createRunDir(out, run);
    await driveDebate({
      format: knockoutFormat as unknown as AnyFormat,
      paths,
      start: { runId, scenario: run },
      provider: new OllamaProvider({ host: server.url }),
      logger: pino({ enabled: false }),
    });
    const calls: Record<string, number> = {};
    for (const request of server.requests.filter((item) => item.path === '/api/chat')) {
      const kind = kindOf((request.body as { messages: ChatMessage[] }).messages);
      calls[kind] = (calls[kind] ?? 0) + 1;
    }
    const stats = server.stats();
    return {
      debate,
      profile,
      claims,
      calls,
      promptTokens: stats.promptTokens,
      prefilled: stats.prefilledPromptTokens,
      cached: stats.cachedPromptTokens,
      simulatedSeconds: Math.round(stats.simulatedSeconds),
    };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const base = (await loadScenario('scenarios/abortion.yaml')) as KnockoutScenario;
const long: KnockoutScenario = {
  ...base,
  debate: { ...base.debate, rounds: 30 },
  model_options: { ...base.model_options, context_window: 6144 },
};
const rows: Row[] = [];
for (const [name, scenario] of [
  ['6 rounds, 8192 window', base],
  ['30 rounds, 6144 window', long],
] as const) {
  for (const profile of ['gpu', 'cpu'] as ProfileName[]) {
    if (name.startsWith('30') && profile === 'cpu') continue;
    for (const claims of ['model', 'heuristic', 'off'] as const)
      rows.push(await measure(name, scenario, profile, claims));
  }
}

const table = new Table({
  head: [
    'Debate',
    'Profile',
    'memory.claims',
    'Calls: statements / claims / votes / summaries',
    'Prompt tokens',
    'Prefilled',
    'Cached',
    'Simulated s',
  ],
  style: { head: [], border: [] },
});
for (const row of rows) {
  table.push([
    row.debate,
    row.profile,
    row.claims,
    `${row.calls.statement ?? 0} / ${row.calls.claims ?? 0} / ${row.calls.vote ?? 0} / ${row.calls.summary ?? 0}`,
    row.promptTokens,
    row.prefilled,
    row.cached,
    row.simulatedSeconds,
  ]);
}
console.log(table.toString());
