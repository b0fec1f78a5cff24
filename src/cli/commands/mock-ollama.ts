/** `agora mock-ollama`: the Ollama simulator as a standalone server, for users' own tests. */
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import {
  CassetteError,
  type CassetteOptions,
  loadCassette,
  loadMockScriptFile,
  startMockOllama,
} from '../../mock-ollama/index.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { integerFlag, numberFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { listenOnPort } from '../port-in-use.js';

const PROFILES = ['instant', 'gpu', 'gpu-small', 'cpu'] as const;

const MOCK_OLLAMA_OPTIONS = {
  port: { value: 'N', help: 'the port (default 11434; 0 picks a free one)' },
  host: { value: 'ADDR', help: 'the address to listen on (default 127.0.0.1)' },
  profile: { value: 'NAME', help: 'instant (default), gpu, gpu-small or cpu' },
  speed: { value: 'X', help: 'real waiting per simulated second (default 0)' },
  script: { value: 'FILE', help: 'scripted answers and faults (YAML)' },
  models: { value: 'A,B', help: 'the models it serves' },
  'context-length': { value: 'N', help: 'the context window its OpenAI-compatible API reports' },
  cassette: { value: 'DIR', help: 'answer chats from a recorded cassette (agora run --record DIR)' },
  'cassette-order': {
    value: 'O',
    help: 'match (default: a request must match the recording) or any (the next call)',
  },
  'cassette-speed': {
    value: 'S',
    help: 'fast (default: at once) or recorded (each piece at its recorded time)',
  },
} as const satisfies OptionSpecs;

export const mockOllamaCommand = defineCommand({
  name: 'mock-ollama',
  usage: '[options]',
  listing: {
    term: 'mock-ollama',
    text: ['start the Ollama simulator: --port 11434 --profile instant --script rules.yaml'],
  },
  description: 'Starts the Ollama simulator, for your own tests.',
  options: MOCK_OLLAMA_OPTIONS,
  run: serveMockOllama,
});

async function serveMockOllama(
  { values }: CommandInput<typeof MOCK_OLLAMA_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const cassette = cassetteOptions(values, io);
  const profile = values.profile ?? 'instant';
  if (!(PROFILES as readonly string[]).includes(profile)) {
    throw new UsageError(`--profile must be one of ${PROFILES.join(', ')}, got "${profile}"`);
  }
  const script = values.script ? await loadMockScriptFile(values.script) : undefined;
  const port = integerFlag('port', values.port, 0, 65535) ?? 11434;
  const address = values.host ?? '127.0.0.1';
  const server = await listenOnPort(address, port, () =>
    startMockOllama({
      port,
      host: address,
      profile: profile as (typeof PROFILES)[number],
      speed: numberFlag('speed', values.speed, 0) ?? 0,
      // A standalone server's request record is read by no one: kept, it grows by every prompt.
      keepRequests: 0,
      ...(script ? { ...script.settings, script: script.rules } : {}),
      ...(cassette ? { cassette } : {}),
      ...(values['context-length']
        ? { contextLength: integerFlag('context-length', values['context-length'], 1) as number }
        : {}),
      ...(values.models
        ? {
            models: values.models
              .split(',')
              .map((model) => model.trim())
              .filter(Boolean),
          }
        : {}),
    }),
  );
  io.stdout.write(
    `Mock Ollama listening on ${server.url} (${cassette ? `cassette ${cassette.dir}` : `profile ${profile}`}); its OpenAI-compatible API is at ${server.url}/v1. Press Ctrl-C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

/** `--cassette DIR` and its two settings, checked before the server starts. */
function cassetteOptions(
  values: { cassette?: string; 'cassette-order'?: string; 'cassette-speed'?: string },
  io: CliIo,
): CassetteOptions | undefined {
  const order = values['cassette-order'];
  const speed = values['cassette-speed'];
  if (values.cassette === undefined) {
    if (order !== undefined || speed !== undefined) {
      throw new UsageError('--cassette-order and --cassette-speed go with --cassette DIR');
    }
    return undefined;
  }
  if (order !== undefined && order !== 'match' && order !== 'any') {
    throw new UsageError(`--cassette-order must be match or any, got "${order}"`);
  }
  if (speed !== undefined && speed !== 'recorded' && speed !== 'fast') {
    throw new UsageError(`--cassette-speed must be recorded or fast, got "${speed}"`);
  }
  const dir = path.resolve(io.cwd, values.cassette);
  try {
    loadCassette(dir);
  } catch (error) {
    if (error instanceof CassetteError) throw new UsageError(`--cassette: ${error.message}`);
    throw error;
  }
  return { dir, ...(order ? { order } : {}), ...(speed ? { speed } : {}) };
}
