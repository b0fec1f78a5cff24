/**
 * `agora serve [--port 4747]`: the live web viewer on http://127.0.0.1:4747. Runs, one run live,
 * the leaderboard; debates started there run in their own processes. `--demo` points it at the
 * built-in Ollama simulator: the debates it starts are recorded as simulated, and the new-debate form
 * says so.
 */
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { startLiveMirror } from '../../manager/database-mirror.js';
import { closeRunLogger, createRunLogger } from '../../manager/logger.js';
import { DEFAULT_MODELS, startMockOllama } from '../../mock-ollama/index.js';
import { DATABASE_ENV, databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { isLoopback } from '../../web/host-header.js';
import { startViewer } from '../../web/server.js';
import { listScenarioChoices } from '../../web/start-form.js';
import { SERVE_FOLDER } from '../../web/start-record.js';
import { processLauncher } from '../../web/workers.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { HOST, OUT } from '../common-options.js';
import { mirrorFolder } from '../database-copy.js';
import { integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { listenOnPort } from '../port-in-use.js';

const SERVE_OPTIONS = {
  port: { value: 'N', help: 'the port (default 4747; 0 picks a free one)' },
  out: OUT,
  host: HOST,
  scenarios: { value: 'DIR', help: 'the scenarios offered by the start form (default scenarios/)' },
  demo: { help: 'debates started there run on the built-in simulator' },
  bind: { value: 'ADDR', help: 'listen on another address; needs --token' },
  token: { value: 'SECRET', help: 'access token for a non-loopback --bind (or AGORA_TOKEN)' },
  verbose: { help: 'debug logs' },
  database: {
    value: 'URL',
    help: 'show the runs of the shared Postgres store, live (default: AGORA_DATABASE_URL)',
  },
} as const satisfies OptionSpecs;

export const serveCommand = defineCommand({
  name: 'serve',
  usage: '[options]',
  listing: {
    term: 'serve',
    text: [
      'the live web viewer on http://127.0.0.1:4747 (--port N, --out DIR, --host URL,',
      '--demo for the built-in simulator, --bind ADDR with --token SECRET)',
    ],
  },
  description: 'The live web viewer on http://127.0.0.1:4747.',
  options: SERVE_OPTIONS,
  run: serve,
});

async function serve(
  { values, positionals }: CommandInput<typeof SERVE_OPTIONS>,
  io: CliIo,
): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`serve takes no file; got "${positionals.join(' ')}"`);
  const port = integerFlag('port', values.port, 0) ?? 4747;
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const bind = values.bind ?? '127.0.0.1';
  const accessToken = values.token ?? io.env.AGORA_TOKEN;
  if (!isLoopback(bind) && (!accessToken || accessToken.length < 16)) {
    throw new UsageError(
      `--bind ${bind} makes the viewer reachable from other machines: also give --token SECRET (at least 16 characters, or set AGORA_TOKEN), and open it with ?access=SECRET`,
    );
  }
  const url = databaseUrl(values.database, io.env);
  const runsDir = path.resolve(io.cwd, values.out ?? 'transcripts');
  // With a database, the viewer shows a copy of its runs kept current by the database's notices.
  const outDir = url === undefined ? runsDir : mirrorFolder(runsDir, url);
  const database = url === undefined ? undefined : await RunDatabase.open(url);
  const scenariosDir = path.resolve(io.cwd, values.scenarios ?? 'scenarios');
  const simulator = values.demo
    ? await startMockOllama({
        models: [...new Set([...DEFAULT_MODELS, ...(await scenarioModelNames(scenariosDir))])],
        profile: 'gpu',
        speed: 0.05,
      })
    : undefined;
  const ollamaHost = simulator?.url ?? ollamaHostFor({ flag: values.host, env: io.env.OLLAMA_HOST }, io);
  const logger = createRunLogger(path.join(outDir, SERVE_FOLDER, 'serve.log'), {
    verbose: values.verbose ?? false,
  });
  let mirror: { close(): Promise<void> } | undefined;
  try {
    if (database && url) {
      mirror = await startLiveMirror(database, outDir, (error) =>
        logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'database copy not updated',
        ),
      );
      // Debates started or resumed from the page are kept in the database too.
      process.env[DATABASE_ENV] = url;
    }
    const viewer = await listenOnPort(bind, port, () =>
      startViewer({
        outDir,
        cwd: io.cwd,
        scenariosDir,
        ollamaHost,
        bind,
        port,
        ...(accessToken && !isLoopback(bind) ? { accessToken } : {}),
        launcher: processLauncher({ cwd: io.cwd }),
        env: io.env,
        logger,
        ...(simulator
          ? {
              simulator: {
                banner:
                  "Demo: debates started here run on Agora's built-in Ollama simulator; the text is generated, not a model's.",
              },
            }
          : {}),
      }),
    );
    io.stdout.write(`Agora viewer at ${viewer.url}${isLoopback(bind) ? '' : '/?access=<your token>'}\n`);
    io.stdout.write(
      `${database && url ? `Runs from ${redactedUrl(url)}, kept current in ` : 'Runs folder: '}${outDir}\nOllama: ${ollamaHost}${simulator ? ' (built-in simulator)' : ''}\n`,
    );
    io.stdout.write(
      'Debates started here keep running if the viewer stops. Press Ctrl-C to stop the viewer.\n',
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await viewer.close();
    return 0;
  } finally {
    await mirror?.close();
    await database?.close();
    await simulator?.close();
    closeRunLogger(logger);
  }
}

async function scenarioModelNames(folder: string): Promise<string[]> {
  return (await listScenarioChoices(folder)).flatMap((choice) => choice.models);
}
