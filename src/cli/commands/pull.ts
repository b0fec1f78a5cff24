/**
 * `agora pull [run ...] --database URL [--out DIR]`: copies runs from the shared database into a
 * runs folder (all of them, or those named): their event logs line for line, and transcripts
 * byte-identical to the ones their worker wrote. Runs already there and current are left alone.
 */
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { plural } from '../../core/plural.js';
import { formatNamed } from '../../formats/index.js';
import { mirrorDatabase } from '../../manager/database-mirror.js';
import { indexRuns } from '../../manager/indexing.js';
import { databaseUrl, redactedUrl } from '../../store/postgres/database-url.js';
import { RunDatabase } from '../../store/postgres/run-database.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { OUT, SHARED_DATABASE } from '../common-options.js';
import type { CliIo } from '../io.js';
import { databaseRunId } from '../run-reference.js';

const PULL_OPTIONS = { database: SHARED_DATABASE, out: OUT } as const satisfies OptionSpecs;

export const pullCommand = defineCommand({
  name: 'pull',
  usage: '[run...] --database URL [options]',
  listing: { term: 'pull [run...]', text: ['copy runs out of the database (--database URL, --out DIR)'] },
  description:
    'Copies runs (all, or those named) from the shared database into a runs folder; transcripts are byte-identical.',
  options: PULL_OPTIONS,
  run: pullRuns,
});

async function pullRuns(
  { values, positionals }: CommandInput<typeof PULL_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const url = databaseUrl(values.database, io.env);
  if (url === undefined)
    throw new UsageError('name the database to copy from: `agora pull --database postgres://...`');
  const outDir = path.resolve(io.cwd, values.out ?? 'transcripts');
  const database = await RunDatabase.open(url);
  try {
    const where = `the database at ${redactedUrl(url)}`;
    const named: string[] = [];
    for (const reference of positionals) named.push(await databaseRunId(reference, database, where));
    const known = new Set((await database.runs(named)).map((row) => row.runId));
    const missing = named.filter((runId) => !known.has(runId));
    if (missing.length > 0) {
      throw new UsageError(
        `the database at ${redactedUrl(url)} has no run ${missing.join(', ')}; \`agora runs --database URL\` lists its runs`,
      );
    }
    const { changed, rows } = await mirrorDatabase(database, outDir, {
      ...(named.length > 0 ? { runIds: named } : {}),
      markLive: false,
    });
    const copied = rows.filter((row) => row.nextSeq > 0).map((row) => path.join(outDir, row.runId));
    indexRuns(outDir, copied, formatNamed);
    io.stdout.write(
      `Pulled ${plural(changed.length, 'run')} into ${outDir} (${plural(copied.length - changed.length, 'run')} already current).\n`,
    );
  } finally {
    await database.close();
  }
  return 0;
}
