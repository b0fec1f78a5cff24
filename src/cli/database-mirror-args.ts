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

export const MIRRORED_COMMANDS = new Set(['runs', 'show', 'leaderboard', 'query', 'export', 'reindex']);

/** Takes `--database X` (or `--database=X`) out of the flags before a `--`. */
export function takeFlag(argv: string[], name: string): { value: string | undefined; rest: string[] } {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const rest: string[] = [];
  let value: string | undefined;
  for (let at = 0; at < argv.length; at += 1) {
    const token = argv[at] as string;
    if (at < end && token === `--${name}`) {
      value = argv[at + 1];
      at += 1;
    } else if (at < end && token.startsWith(`--${name}=`)) value = token.slice(name.length + 3);
    else rest.push(token);
  }
  return { value, rest };
}

/** Where the copy of the database at `url` is kept under the runs folder `outDir`. */
export function mirrorFolder(outDir: string, url: string): string {
  const parsed = new URL(url);
  const name = `${parsed.hostname}-${parsed.port || '5432'}-${parsed.pathname.replace(/^\//, '') || 'postgres'}`;
  return path.join(outDir, '.database', name.replace(/[^A-Za-z0-9._-]/g, '_'));
}

export interface MirroredArgs {
  argv: string[];
  /** Runs queued in the database that no worker has started (they have nothing to show yet). */
  queued: number;
  folder?: string;
}

export async function databaseMirrorArgs(argv: string[], io: CliIo): Promise<MirroredArgs> {
  const { value, rest } = takeFlag(argv, 'database');
  const url = databaseUrl(value, io.env);
  if (url === undefined) return { argv, queued: 0 };
  const out = takeFlag(rest, 'out');
  const folder = mirrorFolder(path.resolve(io.cwd, out.value ?? 'transcripts'), url);
  const database = await RunDatabase.open(url);
  try {
    const { rows } = await mirrorDatabase(database, folder);
    const { index } = rebuildIndex(folder, formatNamed);
    index.close();
    return {
      argv: [...out.rest.filter((token) => token !== '--'), '--out', folder, ...tail(out.rest)],
      queued: rows.filter((row) => row.status === 'queued').length,
      folder,
    };
  } finally {
    await database.close();
  }
}

function tail(argv: string[]): string[] {
  return argv.includes('--') ? argv.slice(argv.indexOf('--')) : [];
}
