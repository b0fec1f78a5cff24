/**
 * `agora demo [scenario]` (`npm run demo`): the same debate as `run`, against Agora's built-in
 * Ollama simulator started on a free local port. Says clearly that the text is simulated.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scenario } from '../../config/scenario.js';
import { formatConfigIssue, UsageError } from '../../core/errors.js';
import { whoWon } from '../../formats/outcome-line.js';
import { scenarioModels } from '../../formats/scenario-models.js';
import { DEFAULT_MODELS, startMockOllama } from '../../mock-ollama/index.js';
import { fitLines } from '../../render/wrap-text.js';
import type { SessionOutcome } from '../../session/debate-session.js';
import { baseUrlVariable } from '../../session/model-providers.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { DEBATE_OPTIONS } from '../common-options.js';
import { debateOnTerminal } from '../debate-on-terminal.js';
import { numberFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { terminalLayout } from '../terminal-layout.js';
import { debateServers, recording, scenarioFromArguments, storeFolders, terminalFlags } from './run.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PROFILES = ['instant', 'gpu', 'gpu-small', 'cpu'] as const;

/**
 * Sends the scenario's other servers to the simulator too, which speaks their API: base URLs
 * (and any override variables) point at it, and no API key is needed.
 */
export function onSimulator(scenario: Scenario, url: string, io: CliIo): { scenario: Scenario; io: CliIo } {
  const entries = Object.entries(scenario.providers);
  if (entries.length === 0) return { scenario, io };
  const env = { ...io.env };
  const providers = Object.fromEntries(
    entries.map(([name, entry]) => {
      const baseUrl = entry.type === 'openai' ? `${url}/v1` : url;
      env[baseUrlVariable(name)] = baseUrl;
      return [name, { type: entry.type, base_url: baseUrl, models: entry.models }];
    }),
  );
  return { scenario: { ...scenario, providers }, io: { ...io, env } };
}

/** The simulator, serving every model the scenario may call. */
export function startDemoServer(
  scenario: Scenario | Scenario[],
  profile: (typeof PROFILES)[number] = 'gpu',
  speed = 0.05,
) {
  const named = (Array.isArray(scenario) ? scenario : [scenario]).flatMap((each) => {
    const { required, fallbacks } = scenarioModels(each);
    return [...required, ...fallbacks];
  });
  const models = [...new Set([...named, ...DEFAULT_MODELS])];
  // Nothing reads the demo server's request record: kept, it would grow by every prompt answered.
  return startMockOllama({ models, profile, speed, keepRequests: 0 });
}

const DEMO_OPTIONS = {
  ...DEBATE_OPTIONS,
  profile: { value: 'NAME', help: 'instant, gpu (default), gpu-small or cpu' },
  speed: { value: 'X', help: 'real waiting per simulated second (default 0.05; 0 answers at once)' },
} as const satisfies OptionSpecs;

export const demoCommand = defineCommand({
  name: 'demo',
  usage: '[scenario.yaml] [options]     (npm run demo -- [options])',
  listing: {
    term: 'demo [scenario.yaml]',
    text: ['the same debate on the built-in Ollama simulator (npm run demo)'],
  },
  description:
    "The same debate as `run`, on Agora's built-in Ollama simulator (simulated text, no model needed).",
  options: DEMO_OPTIONS,
  run: runDemo,
});

async function runDemo(
  { values, positionals }: CommandInput<typeof DEMO_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const profile = values.profile ?? 'gpu';
  if (!(PROFILES as readonly string[]).includes(profile)) {
    throw new UsageError(`--profile must be one of ${PROFILES.join(', ')}, got "${profile}"`);
  }
  const speed = numberFlag('speed', values.speed, 0) ?? 0.05;
  const scenario = await scenarioFromArguments(
    positionals,
    values,
    io,
    path.join(projectRoot, 'scenarios', 'abortion.yaml'),
  );
  const flags = terminalFlags(values, io);
  for (const warning of scenario.warnings) io.stderr.write(`warning: ${formatConfigIssue(warning)}\n`);
  const server = await startDemoServer(scenario, profile as (typeof PROFILES)[number], speed);
  try {
    if (!values.json) {
      io.stdout.write(
        fitLines(
          `Demo: Agora's built-in Ollama simulator is answering at ${server.url} (profile ${profile}). The statements are generated text, not a language model's.\n`,
          terminalLayout(io.stdout, io.env).width,
        ),
      );
    }
    const simulated = onSimulator(scenario, server.url, io);
    return await debateOnTerminal(
      {
        scenario: simulated.scenario,
        servers: debateServers(server.url, values, simulated.io),
        store: storeFolders(values, io),
        simulated: true,
        ...recording(values, io),
      },
      { ...flags, closing: (outcome) => demoClosing(outcome, values.out) },
      simulated.io,
    );
  } finally {
    await server.close();
  }
}

/**
 * The demo's last screen: who won, once more under the tables, and what to try next on this run
 * (npm run's spelling, since that is how the demo is started).
 */
export function demoClosing(outcome: SessionOutcome, out: string | undefined): string {
  const sentence = whoWon(outcome.format.name, {
    ...outcome.transcript,
    failedSteps: outcome.failures.length,
  });
  const folder = out ? ` --out ${/^[\w./:@=+-]+$/.test(out) ? out : `'${out.replace(/'/g, `'\\''`)}'`}` : '';
  const commands: Array<[string, string]> = [
    [`npm run agora -- show latest${folder}`, 'this debate again, as text'],
    [`npm run agora -- serve${folder}`, 'the viewer, on http://127.0.0.1:4747'],
    [`npm run agora -- runs${folder}`, 'every run so far, with its outcome'],
    ['npm run demo -- scenarios/duel-remote-work.yaml', 'another format (a judged duel)'],
  ];
  return `\n${sentence}\nNext:\n${commands.map(([command, what]) => `  ${command}\n      ${what}\n`).join('')}`;
}
