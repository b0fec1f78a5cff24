/**
 * `agora tournament --database URL`: the debates go to the shared Postgres queue for `agora worker`s
 * on the GPU hosts, and this process follows them there (queued-tournament.ts). The flags that
 * belong to a host (`--host`, `--parallel`, `--timeout`) are the workers' and are refused here.
 */
import { ExitCode, UsageError } from '../../core/errors.js';
import { redactedUrl } from '../../store/postgres/database-url.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { WorkQueue } from '../../store/postgres/work-queue.js';
import { runQueuedTournament } from '../../tournament/queued-tournament.js';
import type { RunTournamentOptions, TournamentRunResult } from '../../tournament/run-tournament.js';
import { holdsTournament } from '../../tournament/tournament-log.js';
import { loadTournament } from '../../tournament/tournament-setup.js';
import type { CliIo } from '../io.js';

/** What a tournament's runner is given whether it drives the debates here or queues them. */
export type TournamentRun = Omit<RunTournamentOptions, 'folder' | 'pool' | 'env' | 'requestTimeoutMs'>;

/** How long the tournament waits between two looks at the database when nothing changed. */
const POLL_MS = 1000;

/** The flags a queued tournament leaves to its workers, refused before anything starts. */
export function checkQueueFlags(
  url: string | undefined,
  values: { demo?: boolean; host?: string[]; parallel?: string; timeout?: string; format?: string },
): void {
  if (url === undefined) return;
  if (values.format === 'knockout')
    throw new UsageError(
      "--format knockout is not available with --database: a knockout's result is the verdict of the match's judge, which this process reads after the debate, not a worker; run a knockout tournament with --host (repeatable) instead",
    );
  if (values.demo)
    throw new UsageError(
      '--demo runs the tournament on the built-in simulator in this process: leave out --database (for simulated debates through the queue, run `agora mock-ollama --models ...` beside each worker and give the worker its address)',
    );
  const given = (['host', 'parallel', 'timeout'] as const).filter((flag) => values[flag] !== undefined);
  if (given.length > 0)
    throw new UsageError(
      `with --database the workers run the debates on their own hosts: leave out ${given.map((flag) => `--${flag}`).join(', ')} here and give it to each \`agora worker\``,
    );
}

/**
 * The database a tournament's debates go through, if any: a tournament folder is continued the way
 * it was started, through the database or here. AGORA_DATABASE_URL alone (no `--database`) does not
 * send a tournament that runs here to a database, nor a `--demo` one.
 */
export function queueFor(
  folder: string,
  known: { database?: string; simulated: boolean },
  url: string | undefined,
  flagged: boolean,
): string | undefined {
  const start = holdsTournament(folder) ? loadTournament(folder).start : known;
  if (start.database && url === undefined)
    throw new UsageError(
      `the tournament in ${folder} queues its debates in the database at ${start.database}: give --database URL again (or set AGORA_DATABASE_URL)`,
    );
  if (!start.database && url !== undefined) {
    if (!flagged) return undefined;
    throw new UsageError(
      `the tournament in ${folder} runs its debates from this process, not through a database: leave out --database, or give this one another --out`,
    );
  }
  return url;
}

/**
 * Plays the tournament in `folder` through the queue of the database at `url`: `play` is the
 * command's own (folder, log, progress, standings), given where the debates run and how.
 */
export async function followQueue(
  url: string,
  folder: string,
  io: CliIo,
  play: (where: string, drive: (run: TournamentRun) => Promise<TournamentRunResult>) => Promise<number>,
): Promise<number> {
  const database = await RunDatabase.open(url);
  try {
    const queue = await WorkQueue.start(url);
    try {
      io.stderr.write(
        `The debates go to the queue in ${redactedUrl(url)}; workers take them: \`agora worker --database URL --host OLLAMA\` on each GPU host.\n`,
      );
      const code = await play(`through the queue in ${redactedUrl(url)}`, (run) =>
        runQueuedTournament({ ...run, folder, database, queue, pollMs: POLL_MS }),
      );
      if (code === ExitCode.interrupted)
        io.stderr.write('The debates already queued stay in the database; the workers go on with them.\n');
      return code;
    } finally {
      await queue.stop();
    }
  } finally {
    await database.close();
  }
}
