/**
 * `agora tournament --models A,B,C --motions FILE [options]`: every pairing of the models debates
 * every motion twice, sides swapped, judged by a model outside the match; the standings at the end.
 * Resumable: the same command, or `--resume DIR`, continues without repeating a finished debate.
 */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { plural } from '../../core/plural.js';
import { normalizeOllamaHost } from '../../llm/ollama-host.js';
import { derivedSeed } from '../../rotation/seeded-random.js';
import { openHostPool } from '../../session/host-pool.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { knockoutVerdict } from '../../tournament/knockout-verdict.js';
import { isLineupFile, readLineupFile } from '../../tournament/lineup-file.js';
import { matchScenario } from '../../tournament/match-scenario.js';
import { readMotionsFile } from '../../tournament/motions-file.js';
import { rollingChoice, schedulingLag } from '../../tournament/rolling-schedule.js';
import { roundRobinSize } from '../../tournament/round-robin.js';
import { runTournament, type TournamentRunResult } from '../../tournament/run-tournament.js';
import { claimTournamentFolder } from '../../tournament/tournament-folder.js';
import { holdsTournament } from '../../tournament/tournament-log.js';
import {
  adaptiveMatches,
  checkJudges,
  checkSpec,
  modelPairs,
  type PlannedMatch,
  pairingMatches,
  roundRobinMatches,
  SCHEDULES,
  type Schedule,
  TOURNAMENT_FORMATS,
  type TournamentFormat,
  type TournamentSpec,
  tournamentId,
} from '../../tournament/tournament-plan.js';
import { newCounts, tournamentReporter } from '../../tournament/tournament-progress.js';
import { loadTournament, openTournament } from '../../tournament/tournament-setup.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { TIMEOUT } from '../common-options.js';
import { integerFlag, ROUNDS_RANGE, timeoutFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor, withoutApiSuffix } from '../ollama-address.js';
import { stopAfterStepsInFlight } from '../stop-signals.js';
import { startDemoServer } from './demo.js';
import { checkQueueFlags, followQueue, queueFor, type TournamentRun } from './tournament-queued.js';
import { printStandings } from './tournament-standings.js';

const RESUME_HINT = 'Run the same command again, or `agora tournament --resume DIR`, to continue it.';
const DEFAULT_ROUNDS = 3;
const DEFAULT_SEED = 42;

const TOURNAMENT_OPTIONS = {
  models: {
    value: 'A,B,C|FILE',
    help: 'the models to compare (at least two), comma-separated, or a line-up file (.yaml, .yml, .json)',
  },
  motions: { value: 'FILE', help: 'the motions: a text file, one a line, or a YAML list' },
  format: { value: 'NAME', help: 'duel (default), formal or knockout' },
  rounds: { value: 'N', help: `rounds of each duel or knockout (default ${DEFAULT_ROUNDS})` },
  schedule: {
    value: 'NAME',
    help: 'round-robin, or adaptive (the default when --budget is below the round-robin)',
  },
  budget: { value: 'N', help: 'most debates to run (default: the whole round-robin)' },
  judges: { value: 'A,B', help: 'the models judges are drawn from (default: the tournament’s own models)' },
  host: {
    value: 'URL',
    help: 'an Ollama address (repeatable: calls are spread over the hosts)',
    multiple: true,
  },
  concurrency: { value: 'K', help: 'debates at a time (default 2)' },
  parallel: { value: 'N', help: 'model calls at once per host, as OLLAMA_NUM_PARALLEL (default 1)' },
  seed: { value: 'N', help: `the seed of every debate (default ${DEFAULT_SEED})` },
  timeout: TIMEOUT,
  out: { value: 'DIR', help: 'the tournament’s folder (default transcripts/tournament-<id>)' },
  resume: { value: 'DIR', help: 'continue the tournament in DIR' },
  demo: { help: 'every debate on the built-in simulator (simulated text, no model needed)' },
  database: {
    value: 'URL',
    help: 'queue the debates in the shared Postgres store for `agora worker`s, and follow them there',
  },
  json: { help: 'the standings as JSON' },
  csv: { help: 'the standings as CSV' },
} as const satisfies OptionSpecs;

type Values = CommandInput<typeof TOURNAMENT_OPTIONS>['values'];

export const tournamentCommand = defineCommand({
  name: 'tournament',
  usage: '--models A,B,C --motions FILE [options]',
  listing: {
    term: 'tournament',
    text: [
      'models against each other over many motions, sides swapped: --models A,B,C',
      '--motions FILE, --schedule, --budget N, --judges, --resume DIR, standings at the end',
    ],
  },
  description:
    'Every pairing of the models debates every motion twice with the sides swapped, judged by a model outside the match; Ctrl-C stops after the steps in flight, and the same command resumes.',
  options: TOURNAMENT_OPTIONS,
  run: runTournamentCommand,
});

const SPEC_FLAGS = ['models', 'motions', 'format', 'rounds', 'schedule', 'budget', 'judges', 'seed'] as const;

function listFlag(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((each) => each.trim())
    .filter((each) => each !== '');
}

/** The tournament asked for on the command line, checked; the motions file read. */
async function specFromFlags(values: Values, io: CliIo): Promise<TournamentSpec> {
  const lineup =
    values.models !== undefined && isLineupFile(values.models)
      ? await readLineupFile(values.models, io.cwd)
      : null;
  const models = lineup ? lineup.models : listFlag(values.models);
  if (!values.motions)
    throw new UsageError('name the motions with --motions FILE (a text file, one motion a line)');
  const format = (values.format ?? 'duel') as TournamentFormat;
  if (!(TOURNAMENT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${TOURNAMENT_FORMATS.join(', ')}, got "${values.format}"`);
  if (format === 'formal' && values.rounds !== undefined)
    throw new UsageError(
      '--rounds sets the rounds of a duel or a knockout; a formal debate has its fixed speeches: leave it out',
    );
  if (values.schedule !== undefined && !(SCHEDULES as readonly string[]).includes(values.schedule))
    throw new UsageError(`--schedule must be one of ${SCHEDULES.join(', ')}, got "${values.schedule}"`);
  const rounds = integerFlag('rounds', values.rounds, ROUNDS_RANGE.min, ROUNDS_RANGE.max) ?? DEFAULT_ROUNDS;
  const seed = integerFlag('seed', values.seed) ?? DEFAULT_SEED;
  const budgetFlag = integerFlag('budget', values.budget, 1);
  const judges = values.judges === undefined ? null : listFlag(values.judges);
  if (judges && judges.length === 0) throw new UsageError('--judges names no model; e.g. --judges qwen2.5');
  // The model count is checked before the motions file is read: the first mistake named is the flag's.
  if (models.length < 2)
    checkSpec({ models, motions: [], format, rounds, seed, schedule: 'round-robin', budget: 2, judges });
  const motions = await readMotionsFile(values.motions, io.cwd);
  const full = roundRobinSize(models.length, motions.length);
  const budget = budgetFlag ?? full;
  const schedule = (values.schedule as Schedule | undefined) ?? (budget < full ? 'adaptive' : 'round-robin');
  const spec: TournamentSpec = {
    models,
    motions,
    format,
    rounds: format === 'formal' ? 1 : rounds,
    seed,
    schedule,
    budget,
    judges,
    ...(lineup && Object.keys(lineup.options).length > 0 ? { modelOptions: lineup.options } : {}),
  };
  checkSpec(spec);
  return spec;
}

export async function runTournamentCommand(
  { values }: CommandInput<typeof TOURNAMENT_OPTIONS>,
  io: CliIo,
): Promise<number> {
  // AGORA_DATABASE_URL alone sends no demo, nor a tournament given its hosts, to the database.
  const flagged = values.database !== undefined;
  const url =
    flagged || !(values.demo || values.host?.length) ? databaseUrl(values.database, io.env) : undefined;
  integerFlag('concurrency', values.concurrency, 1);
  integerFlag('parallel', values.parallel, 1);
  timeoutFlag(values.timeout);
  if (values.demo && values.host?.length)
    throw new UsageError('--demo runs the tournament on the built-in simulator: leave out --host');
  checkQueueFlags(url, values);

  let folder: string;
  let request: Parameters<typeof openTournament>[1];
  if (values.resume !== undefined) {
    const given = SPEC_FLAGS.filter((flag) => values[flag] !== undefined);
    if (given.length > 0)
      throw new UsageError(
        `--resume continues the tournament as it was planned: leave out ${given.map((flag) => `--${flag}`).join(', ')}`,
      );
    folder = path.resolve(io.cwd, values.resume);
    if (!holdsTournament(folder))
      throw new UsageError(
        `${values.resume} holds no tournament (no tournament.jsonl there); name the folder a tournament was started in`,
      );
    request = null;
  } else {
    const spec = await specFromFlags(values, io);
    const notices = checkJudges(spec);
    const id = tournamentId(spec);
    folder = path.resolve(io.cwd, values.out ?? path.join('transcripts', id));
    request = {
      id,
      spec,
      motionsFile: values.motions as string,
      simulated: values.demo === true,
      notices,
      ...(url ? { database: redactedUrl(url) } : {}),
      firstMatches: (planned, plannedId) =>
        planned.schedule === 'round-robin'
          ? roundRobinMatches(planned, plannedId)
          : adaptiveMatches(planned, plannedId, [], [], 0),
    };
  }
  const known = request ?? loadTournament(folder).start;
  if (values.resume !== undefined && known.simulated && values.host?.length)
    throw new UsageError(`${values.resume} is a tournament on the built-in simulator: leave out --host`);
  const queue = queueFor(folder, known, url, flagged);
  if (queue)
    return followQueue(queue, folder, io, (where, drive) =>
      play(folder, request, known.spec, where, values, io, drive),
    );
  return onServers(folder, request, known, values, io);
}

async function onServers(
  folder: string,
  request: Parameters<typeof openTournament>[1],
  known: { spec: TournamentSpec; simulated: boolean; motionsFile: string },
  values: Values,
  io: CliIo,
): Promise<number> {
  const { spec } = known;
  // One debate per pairing is enough to check that the hosts have every model before anything
  // starts. A knockout seats no judge (the tournament's reads it afterwards): the pairing's duel,
  // which seats the same judge, is checked beside it.
  const probeSpecs: TournamentSpec[] =
    spec.format === 'knockout' ? [spec, { ...spec, format: 'duel' }] : [spec];
  const probes = await Promise.all(
    probeSpecs.flatMap((probeSpec) =>
      modelPairs(spec.models).flatMap((pair) => {
        const motion = spec.motions[0];
        if (!motion) return [];
        return pairingMatches(probeSpec, 'check', motion.id, pair, 1).map((match) =>
          matchScenario(probeSpec, match, known.motionsFile),
        );
      }),
    ),
  );
  const simulator = known.simulated ? await startDemoServer(probes, 'instant', 0) : undefined;
  try {
    if (simulator)
      io.stderr.write(
        `Demo: every debate runs on Agora's built-in Ollama simulator at ${simulator.url}. The statements are generated text, not a language model's.\n`,
      );
    const hosts = simulator
      ? [simulator.url]
      : values.host?.length
        ? values.host.map((host) => withoutApiSuffix(normalizeOllamaHost(host), io))
        : [ollamaHostFor({ env: io.env.OLLAMA_HOST }, io)];
    const requestTimeoutMs = timeoutFlag(values.timeout);
    const given = [...spec.models, ...(spec.judges ?? [])];
    const pool = await openHostPool({
      hosts,
      perHost: integerFlag('parallel', values.parallel, 1) ?? 1,
      env: io.env,
      ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
      scenarios: probes.map((scenario) => ({
        scenario,
        file: known.motionsFile,
        givenModels: {
          by: `--models ${spec.models.join(',')}${spec.judges ? ` --judges ${spec.judges.join(',')}` : ''}`,
          models: given,
        },
      })),
    });
    return await play(folder, request, spec, `on ${hosts.join(', ')}`, values, io, (run) =>
      runTournament({
        ...run,
        folder,
        pool: pool.provider,
        env: io.env,
        ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
        ...(spec.format === 'knockout'
          ? {
              verdictFor: (match: PlannedMatch, runDir: string) =>
                knockoutVerdict({
                  provider: pool.provider,
                  judge: match.judge,
                  runDir,
                  seed: derivedSeed(spec.seed, match.runId),
                  signal: run.signal,
                }),
            }
          : {}),
      }),
    );
  } finally {
    await simulator?.close();
  }
}

async function play(
  folder: string,
  request: Parameters<typeof openTournament>[1],
  spec: TournamentSpec,
  where: string,
  values: Values,
  io: CliIo,
  drive: (run: TournamentRun) => Promise<TournamentRunResult>,
): Promise<number> {
  const release = claimTournamentFolder(folder);
  try {
    const { state, log, resumed } = openTournament(folder, request);
    try {
      for (const notice of resumed ? [] : state.start.notices) io.stderr.write(`${notice}\n`);
      const concurrency = integerFlag('concurrency', values.concurrency, 1) ?? 2;
      const planned = spec.schedule === 'round-robin' ? state.planned.length : spec.budget;
      const clock = () => performance.now();
      const counts = newCounts(
        planned,
        [...state.ended.values()].filter((end) => end.status !== 'failed').length,
        clock(),
      );
      const reporter = tournamentReporter(io.stderr, clock);
      io.stderr.write(
        `Tournament ${state.start.id} in ${folder}: ${spec.models.join(', ')} on ${plural(spec.motions.length, 'motion')}, ${spec.format}, ${spec.schedule} (${plural(planned, 'debate')}${resumed ? `, ${counts.done} already finished` : ''}), ${concurrency} at a time ${where}\n`,
      );
      const stops = stopAfterStepsInFlight(reporter, RESUME_HINT);
      reporter.start(counts);
      let result: Awaited<ReturnType<typeof runTournament>>;
      try {
        result = await drive({
          state,
          log,
          concurrency,
          scenarioFor: (match) => matchScenario(spec, match, state.start.motionsFile),
          ...(spec.schedule === 'adaptive' ? { nextMatches: rollingChoice(schedulingLag(concurrency)) } : {}),
          counts,
          onEvent: (message) => reporter.event(message),
          stopRequested: stops.stopRequested,
          signal: stops.signal,
        });
      } finally {
        reporter.stop();
        stops.close();
      }
      printStandings(state, folder, values, io);
      if (result.stopped) {
        io.stderr.write(`Stopped. ${RESUME_HINT.replace('DIR', folder)}\n`);
        return ExitCode.interrupted;
      }
      if (result.failed > 0) {
        io.stderr.write(`${plural(result.failed, 'debate')} failed; ${RESUME_HINT.replace('DIR', folder)}\n`);
        return ExitCode.runFailed;
      }
      return result.degraded > 0 ? ExitCode.degraded : ExitCode.ok;
    } finally {
      log.close();
    }
  } finally {
    release();
  }
}
