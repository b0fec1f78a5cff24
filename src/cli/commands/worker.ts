/**
 * `agora worker --database URL [--host OLLAMA] [--parallel N] [--lease SECONDS] [--out DIR]`: drives
 * debates queued in the shared database against this host's model server, until Ctrl-C. The first
 * Ctrl-C finishes the steps in flight and hands the runs back to the other workers; a second one
 * cuts the steps in flight.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { startWorkerSession } from '../../session/worker-session.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { DATABASE_FLAG } from '../database-option.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { integerFlag, parseCommand, timeoutFlag } from '../parse.js';
import { listenForStopSignals } from '../stop-signals.js';

/** How long a worker's hold on a run lasts without renewal: the bound on taking over a dead worker's run. */
export const DEFAULT_LEASE_SECONDS = 45;

export async function workerCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand('worker', argv, {
    ...DATABASE_FLAG,
    host: { type: 'string' },
    parallel: { type: 'string' },
    lease: { type: 'string' },
    poll: { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string' },
    timeout: { type: 'string' },
    'exit-when-idle': { type: 'boolean' },
  });
  const url = databaseUrl(values.database, io.env);
  if (url === undefined) {
    throw new UsageError(
      'name the shared database: `agora worker --database postgres://...` (or set AGORA_DATABASE_URL)',
    );
  }
  const parallel = integerFlag('parallel', values.parallel, 1, 64) ?? 1;
  const leaseSeconds = integerFlag('lease', values.lease, 2, 3600) ?? DEFAULT_LEASE_SECONDS;
  const pollSeconds = values.poll === undefined ? 1 : Math.max(0.05, Number(values.poll) || 1);
  const requestTimeoutMs = timeoutFlag(values.timeout);
  const host = ollamaHostFor({ flag: values.host, env: io.env.OLLAMA_HOST }, io);
  const workerId = values.name ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const abort = new AbortController();
  const worker = await startWorkerSession({
    url,
    host,
    env: io.env,
    workerId,
    parallel,
    leaseSeconds,
    pollSeconds,
    workDir: path.resolve(io.cwd, values.out ?? 'transcripts'),
    ...(requestTimeoutMs ? { requestTimeoutMs } : {}),
    exitWhenIdle: values['exit-when-idle'] === true,
    signal: abort.signal,
    report: (message) => io.stderr.write(`[${workerId}] ${message}\n`),
  });
  io.stderr.write(
    `Worker ${workerId}: ${parallel} debate${parallel === 1 ? '' : 's'} at a time on ${host}, from ${redactedUrl(url)}; a dead worker's runs are taken over after ${leaseSeconds} s. Ctrl-C hands the runs back.\n`,
  );
  const stopListening = listenForStopSignals({
    stop(signal) {
      io.stderr.write(
        `${signal}: finishing the steps in flight, then handing the runs back to the other workers.\n`,
      );
      worker.handOver();
    },
    abort(signal) {
      io.stderr.write(
        `${signal} again: cutting the steps in flight; other workers take the runs over once their leases run out.\n`,
      );
      abort.abort();
    },
  });
  try {
    const summary = await worker.done;
    const outcomes = Object.entries(summary.outcomes)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ');
    io.stderr.write(
      `Worker ${workerId} stopped after ${summary.driven} debate${summary.driven === 1 ? '' : 's'}${outcomes ? ` (${outcomes})` : ''}.\n`,
    );
  } finally {
    stopListening();
  }
  return 0;
}
