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
import { DEFAULT_LEASE_SECONDS } from '../../session/shared-runs.js';
import { startWorkerSession, sweepSecondsFor, takeoverBound } from '../../session/worker-session.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { HOST, SHARED_DATABASE, TIMEOUT } from '../common-options.js';
import { integerFlag, timeoutFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { ollamaHostFor } from '../ollama-address.js';
import { listenForStopSignals } from '../stop-signals.js';

const seconds = (value: number) => `${Math.round(value * 100) / 100} s`;

/** The worst case of a takeover with these settings, in one sentence. */
function takeoverText(leaseSeconds: number, pollSeconds: number): string {
  return `If a worker dies, its runs are taken over within about ${seconds(takeoverBound(leaseSeconds, pollSeconds))} (a ${seconds(leaseSeconds)} lease, renewed every ${seconds(leaseSeconds / 3)}; a sweep every ${seconds(sweepSecondsFor(leaseSeconds))}; a ${seconds(pollSeconds)} poll) when a live worker has a free slot, later when every one is busy.`;
}

const WORKER_OPTIONS = {
  database: SHARED_DATABASE,
  host: HOST,
  parallel: { value: 'N', help: 'debates (and model calls) at once on this host (default 1)' },
  lease: {
    value: 'SECONDS',
    help: `how long a hold on a run lasts unrenewed (renewed every third of it, also during a model call, so a slow call needs no longer lease): what a dead worker's runs wait for (default ${DEFAULT_LEASE_SECONDS})`,
  },
  poll: { value: 'SECONDS', help: 'how often to look for queued debates (default 1)' },
  out: { value: 'DIR', help: 'where this host keeps its working copies of runs (default transcripts/)' },
  name: { value: 'NAME', help: 'the name the worker goes by in the database (default host-pid-random)' },
  timeout: TIMEOUT,
  'exit-when-idle': { help: 'stop once no debate is queued or running anywhere' },
} as const satisfies OptionSpecs;

export const workerCommand = defineCommand({
  name: 'worker',
  usage: '--database URL [options]',
  listing: {
    term: 'worker --database URL',
    text: ['drive debates queued in the database on this host (--host, --parallel N)'],
  },
  description: `Drives debates queued in the shared database against this host's Ollama, until Ctrl-C.\n${takeoverText(DEFAULT_LEASE_SECONDS, 1)}`,
  options: WORKER_OPTIONS,
  run: runWorker,
});

async function runWorker({ values }: CommandInput<typeof WORKER_OPTIONS>, io: CliIo): Promise<number> {
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
    `Worker ${workerId}: ${parallel} debate${parallel === 1 ? '' : 's'} at a time on ${host}, from ${redactedUrl(url)}. ${takeoverText(leaseSeconds, pollSeconds)} Ctrl-C hands the runs back.\n`,
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
