/**
 * `npm run bench:layout`: what the model has to do for one knockout debate, with Agora's prompt layout
 * against a naive one (each agent's persona in the system prompt, then the transcript), and with
 * judges concurrent or one at a time, under the mock Ollama's cost profiles. Each figure is shown
 * beside its lower bound. The engine's own CPU time per model call is measured in a second pass,
 * with the mock Ollama in a process of its own (median of three debates, after one to warm up). Results go to
 * bench/results.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import pino from 'pino';
import { loadScenario } from '../src/config/load-scenario.js';
import type { KnockoutScenario } from '../src/config/scenario.js';
import type { AnyFormat } from '../src/formats/format-definition.js';
import { knockoutFormat } from '../src/formats/knockout/index.js';
import type { KnockoutState } from '../src/formats/knockout/state.js';
import { knockoutStats } from '../src/formats/knockout/stats.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import type { ChatMessage, ChatOptions, ChatRequest, ModelProvider } from '../src/llm/provider.js';
import { createRunDir, driveDebate } from '../src/manager/debate-manager.js';
import {
  applyTemplate,
  PROFILES,
  type ProfileName,
  startMockOllama,
  TemplateChoice,
  tokenize,
} from '../src/mock-ollama/index.js';
import { startMockProcess } from './mock-process.js';

/** Real seconds waited per simulated second: small, but enough for slots and queues to matter. */
const SPEED = 0.0005;
/** The chat templates the simulator renders each model's prompts with. */
const templates = new TemplateChoice();

/** The round a request belongs to, from its task line. */
function roundOf(messages: ChatMessage[]): number | null {
  for (const message of [...messages].reverse()) {
    const found = /## Your task: (?:evaluate )?round (\d+)/.exec(message.content);
    if (found) return Number(found[1]);
  }
  return null;
}

function kindOf(messages: ChatMessage[]): 'turn' | 'vote' | 'summary' {
  const text = messages.map((message) => message.content).join('\n');
  if (/## Your task: evaluate round/.test(text)) return 'vote';
  if (/## Your task: the summary of rounds/.test(text)) return 'summary';
  return 'turn';
}

/** Finishing time of jobs on `slots` parallel slots, each job to the slot that frees first. */
function makespan(durations: number[], slots: number): number {
  const free = new Array<number>(Math.max(1, slots)).fill(0);
  for (const duration of durations) {
    const slot = free.indexOf(Math.min(...free));
    free[slot] = (free[slot] as number) + duration;
  }
  return Math.max(...free);
}

/** Records the server's own durations (load + prefill + decode) of every call, by round and kind. */
class TimingRecorder implements ModelProvider {
  readonly calls: Array<{ round: number | null; kind: ReturnType<typeof kindOf>; seconds: number }> = [];
  constructor(private readonly inner: ModelProvider) {}
  get host() {
    return this.inner.host;
  }
  async chat(request: ChatRequest, options?: ChatOptions) {
    const result = await this.inner.chat(request, options);
    this.calls.push({
      round: roundOf(request.messages),
      kind: kindOf(request.messages),
      seconds: result.timings.totalMs / 1000,
    });
    return result;
  }
  listModels(options?: { signal?: AbortSignal }) {
    return this.inner.listModels(options);
  }
  version(options?: { signal?: AbortSignal }) {
    return this.inner.version(options);
  }
}

/** The layout typical debate tools send: persona first (system), then the transcript and the task. */
class NaiveLayout implements ModelProvider {
  constructor(private readonly inner: ModelProvider) {}
  get host() {
    return this.inner.host;
  }
  chat(request: ChatRequest, options?: ChatOptions) {
    const [system, transcript, task] = request.messages as [ChatMessage, ChatMessage, ChatMessage?];
    const messages: ChatMessage[] = task
      ? [
          { role: 'system', content: `${task.content}\n\n${system.content}` },
          { role: 'user', content: transcript.content },
        ]
      : request.messages;
    return this.inner.chat({ ...request, messages }, options);
  }
  listModels(options?: { signal?: AbortSignal }) {
    return this.inner.listModels(options);
  }
  version(options?: { signal?: AbortSignal }) {
    return this.inner.version(options);
  }
}

function commonPrefix(a: string[], b: string[]): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index += 1;
  return index;
}

/** Tokens an ideal cache would still have to prefill: per model, what no earlier prompt started with. */
function prefillBound(prompts: Array<{ model: string; tokens: string[] }>): number {
  const seen = new Map<string, string[][]>();
  let total = 0;
  for (const prompt of prompts) {
    const earlier = seen.get(prompt.model) ?? [];
    const best = earlier.reduce((max, tokens) => Math.max(max, commonPrefix(tokens, prompt.tokens)), 0);
    total += prompt.tokens.length - Math.min(best, prompt.tokens.length - 1);
    seen.set(prompt.model, [...earlier, prompt.tokens]);
  }
  return total;
}

/**
 * The same bound for a server that holds `maxLoaded` models (least recently used unloaded first):
 * a model that was unloaded starts again with an empty cache, so after a reload nothing counts as
 * seen. This is the best any prompt layout can do on that machine with the rules' call order.
 */
function prefillBoundWithReloads(
  prompts: Array<{ model: string; tokens: string[] }>,
  maxLoaded: number,
): number {
  const loaded: string[] = [];
  const seen = new Map<string, string[][]>();
  let total = 0;
  for (const prompt of prompts) {
    const at = loaded.indexOf(prompt.model);
    if (at === -1) {
      if (loaded.length >= maxLoaded) seen.delete(loaded.shift() as string);
      seen.set(prompt.model, []);
    } else {
      loaded.splice(at, 1);
    }
    loaded.push(prompt.model);
    const earlier = seen.get(prompt.model) ?? [];
    const best = earlier.reduce((max, tokens) => Math.max(max, commonPrefix(tokens, prompt.tokens)), 0);
    total += prompt.tokens.length - Math.min(best, prompt.tokens.length - 1);
    seen.set(prompt.model, [...earlier, prompt.tokens]);
  }
  return total;
}

interface Row {
  profile: ProfileName;
  layout: 'agora' | 'naive';
  judges: 'concurrent' | 'sequential';
  promptTokens: number;
  prefilled: number;
  cached: number;
  prefillBound: number;
  /** The bound when unloading a model empties its cache (one model at a time on cpu and gpu-small). */
  prefillBoundWithReloads: number;
  modelLoads: number;
  loadBound: number;
  simulatedSeconds: number;
  timeBound: number;
  slowestRoundSeconds: number;
  modelCalls: number;
  /** CPU milliseconds this process spent per model call, with the mock in another process. */
  engineCpuMsPerCall: number;
}

function debateRun(scenario: KnockoutScenario, judges: Row['judges']): KnockoutScenario {
  return { ...scenario, judging: { ...scenario.judging, concurrency: judges === 'concurrent' ? 3 : 1 } };
}

/** The engine's CPU per model call: the median of three debates against the mock in its own process. */
async function engineCpu(
  scenario: KnockoutScenario,
  profileName: ProfileName,
  layout: Row['layout'],
  judges: Row['judges'],
): Promise<number> {
  const { url, process: mock } = await startMockProcess(['--profile', profileName, '--speed', String(SPEED)]);
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-'));
  const perCall: number[] = [];
  try {
    // The first debate warms up the JIT and the connection; it is not counted.
    for (let debate = 0; debate < 4; debate += 1) {
      const run = debateRun(scenario, judges);
      const { runId, paths } = createRunDir(out, run);
      const provider = new OllamaProvider({ host: url });
      const before = process.cpuUsage();
      const { state } = await driveDebate({
        format: knockoutFormat as unknown as AnyFormat,
        paths,
        start: { runId, scenario: run },
        provider: layout === 'naive' ? new NaiveLayout(provider) : provider,
        logger: pino({ enabled: false }),
      });
      const cpu = process.cpuUsage(before);
      if (debate > 0)
        perCall.push((cpu.user + cpu.system) / 1000 / knockoutStats(state as KnockoutState).modelCalls);
    }
  } finally {
    mock.kill('SIGINT');
    rmSync(out, { recursive: true, force: true });
  }
  return Math.round((perCall.sort((a, b) => a - b)[1] as number) * 100) / 100;
}

async function measure(
  scenario: KnockoutScenario,
  profileName: ProfileName,
  layout: Row['layout'],
  judges: Row['judges'],
): Promise<Row> {
  const profile = PROFILES[profileName];
  const models = [...new Set(scenario.agents.map((agent) => agent.model))];
  const server = await startMockOllama({ models, profile: profileName, speed: SPEED });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-'));
  try {
    const run = debateRun(scenario, judges);
    const { runId, paths } = createRunDir(out, run);
    const recorder = new TimingRecorder(new OllamaProvider({ host: server.url }));
    const base = recorder;
    const { state } = await driveDebate({
      format: knockoutFormat as unknown as AnyFormat,
      paths,
      start: { runId, scenario: run },
      provider: layout === 'naive' ? new NaiveLayout(base) : base,
      logger: pino({ enabled: false }),
    });
    const stats = server.stats();
    const chats = server.requests.filter((request) => request.path === '/api/chat');
    const prompts = chats.map((request) => {
      const body = request.body as { model: string; messages: ChatMessage[] };
      return { model: body.model, tokens: tokenize(applyTemplate(templates.for(body.model), body.messages)) };
    });
    const knockout = state as KnockoutState;
    // Time bound: output tokens on the critical path at the decode rate, plus the loads the rules force.
    const decode = profile.decodeTokensPerSecond;
    let critical = 0;
    const order: string[] = [];
    for (const round of knockout.rounds) {
      for (const statement of round.statements) {
        critical += statement.outputTokens / decode;
        order.push(statement.model);
      }
      const outputs = round.votes.map((vote) => vote.outputTokens).sort((a, b) => b - a);
      const slots = Math.max(1, profile.parallel);
      for (let index = 0; index < outputs.length; index += slots)
        critical += (outputs[index] as number) / decode;
      for (const vote of round.votes) order.push(vote.model);
    }
    for (const summary of knockout.summaries) critical += summary.outputTokens / decode;
    const distinct = new Set(order).size;
    const switches = order.filter((model, index) => index > 0 && model !== order[index - 1]).length;
    const loadBound = profile.maxLoadedModels >= distinct ? distinct : 1 + switches;
    // Simulated time from the server's own durations: statements and summaries one after another,
    // each round's judges spread over the slots they may use.
    const judgeSlots = judges === 'concurrent' ? Math.min(3, profile.parallel) : 1;
    const roundSeconds = new Map<number, number>();
    let simulated = 0;
    const rounds = [
      ...new Set(recorder.calls.map((call) => call.round).filter((round) => round !== null)),
    ] as number[];
    for (const round of rounds) {
      const calls = recorder.calls.filter((call) => call.round === round);
      const seconds =
        calls.filter((call) => call.kind === 'turn').reduce((sum, call) => sum + call.seconds, 0) +
        makespan(
          calls.filter((call) => call.kind === 'vote').map((call) => call.seconds),
          judgeSlots,
        );
      roundSeconds.set(round, seconds);
      simulated += seconds;
    }
    simulated += recorder.calls
      .filter((call) => call.kind === 'summary')
      .reduce((sum, call) => sum + call.seconds, 0);
    const slowest = Math.max(...roundSeconds.values());
    return {
      profile: profileName,
      layout,
      judges,
      promptTokens: stats.promptTokens,
      prefilled: stats.prefilledPromptTokens,
      cached: stats.cachedPromptTokens,
      prefillBound: prefillBound(prompts),
      prefillBoundWithReloads: prefillBoundWithReloads(prompts, profile.maxLoadedModels),
      modelLoads: stats.modelLoads,
      loadBound,
      simulatedSeconds: Math.round(simulated),
      timeBound: Math.round(critical + loadBound * profile.loadSeconds),
      slowestRoundSeconds: Math.round(slowest),
      modelCalls: chats.length,
      engineCpuMsPerCall: await engineCpu(scenario, profileName, layout, judges),
    };
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const scenario = (await loadScenario('scenarios/abortion.yaml')) as KnockoutScenario;
const rows: Row[] = [];
for (const profile of ['cpu', 'gpu', 'gpu-small'] as ProfileName[]) {
  for (const [layout, judges] of [
    ['agora', 'concurrent'],
    ['agora', 'sequential'],
    ['naive', 'concurrent'],
  ] as const) {
    rows.push(await measure(scenario, profile, layout, judges));
  }
}

const table = new Table({
  head: [
    'Profile',
    'Layout',
    'Judges',
    'Prefilled (ideal cache; cache lost on reload)',
    'Cached',
    'Loads (bound)',
    'Simulated s (bound)',
    'Slowest round s',
    'Calls',
    'Engine CPU ms/call',
  ],
  style: { head: [], border: [] },
});
for (const row of rows) {
  table.push([
    row.profile,
    row.layout,
    row.judges,
    `${row.prefilled} (${row.prefillBound}, ×${(row.prefilled / row.prefillBound).toFixed(2)}; ${row.prefillBoundWithReloads}, ×${(row.prefilled / row.prefillBoundWithReloads).toFixed(2)})`,
    row.cached,
    `${row.modelLoads} (${row.loadBound})`,
    `${row.simulatedSeconds} (${row.timeBound})`,
    row.slowestRoundSeconds,
    row.modelCalls,
    row.engineCpuMsPerCall,
  ]);
}
console.log(table.toString());
// Ollama reports no cached count, so the share is the simulator's own (what its prompt cache served).
console.log(
  `Cache share (prompt tokens served from the simulator's prompt cache; Ollama itself reports none): ${rows
    .map(
      (row) =>
        `${row.profile} ${row.layout} ${row.judges} ${Math.round((row.cached / row.promptTokens) * 100)}%`,
    )
    .join(', ')}.`,
);
const cpu = (layout: string) =>
  rows.find((row) => row.profile === 'cpu' && row.layout === layout && row.judges === 'concurrent');
const agoraCpu = cpu('agora');
const naiveCpu = cpu('naive');
if (agoraCpu && naiveCpu) {
  console.log(
    `cpu profile: Agora prefills ${agoraCpu.prefilled} tokens, ${(agoraCpu.prefilled / agoraCpu.prefillBound).toFixed(2)}× the ideal-cache bound (${(agoraCpu.prefilled / agoraCpu.prefillBoundWithReloads).toFixed(2)}× the bound when a reload empties the cache), and ${(naiveCpu.prefilled / agoraCpu.prefilled).toFixed(1)}× fewer than the naive layout (${naiveCpu.prefilled}).`,
  );
}
writeFileSync(
  new URL('./results.json', import.meta.url),
  `${JSON.stringify({ speed: SPEED, rows }, null, 2)}\n`,
);
