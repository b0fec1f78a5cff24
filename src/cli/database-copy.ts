/**
 * `--database URL` on the read-side commands (`runs`, `show`, `leaderboard`, `query`, `export`,
 * `reindex`): the database's runs are first copied into a local folder (`<out>/.database/<server>`,
 * kept between calls so only new events are fetched), and the command then reads that folder as
 * it reads any runs folder. Same code, same answers, whichever store the runs are in.
 */
import path from 'node:path';
import { formatNamed } from '../formats/index.js';
import { mirrorDatabase } from '../manager/database-mirror.js';
import { rebuildIndex } from '../manager/indexing.js';
import { databaseUrl } from '../store/postgres/database-url.js';
import { RunDatabase } from '../store/postgres/run-database.js';
import type { CliIo } from './io.js';

/** Where the copy of the database at `url` is kept under the runs folder `outDir`. */
export function mirrorFolder(outDir: string, url: string): string {
  const parsed = new URL(url);
  const name = `${parsed.hostname}-${parsed.port || '5432'}-${parsed.pathname.replace(/^\//, '') || 'postgres'}`;
  return path.join(outDir, '.database', name.replace(/[^A-Za-z0-9._-]/g, '_'));
}

export interface DatabaseCopy {
  /** The folder the command reads instead of its runs folder. */
  folder: string;
  /** Runs queued in the database that no worker has started (they have nothing to show yet). */
  queued: number;
}

/** With `--database` (or AGORA_DATABASE_URL), the database's runs copied into a local folder, current. */
export async function databaseCopy(
  values: { database?: string; out?: string },
  io: CliIo,
): Promise<DatabaseCopy | undefined> {
  const url = databaseUrl(values.database, io.env);
  if (url === undefined) return undefined;
  const folder = mirrorFolder(path.resolve(io.cwd, values.out ?? 'transcripts'), url);
  const database = await RunDatabase.open(url);
  try {
    const { rows } = await mirrorDatabase(database, folder);
    const { index } = rebuildIndex(folder, formatNamed);
    index.close();
    return { folder, queued: rows.filter((row) => row.status === 'queued').length };
  } finally {
    await database.close();
  }
}
