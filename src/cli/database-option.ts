/** `--database URL` (or AGORA_DATABASE_URL) on the commands that can use the shared store. */

import { databaseUrl } from '../store/postgres/database-url.js';
import { RunDatabase } from '../store/postgres/run-database.js';
import type { CliIo } from './io.js';

export const DATABASE_FLAG = { database: { type: 'string' } } as const;

/** The shared database named on the command line or in the environment, opened; undefined without one. */
export async function openDatabaseOption(
  flag: string | undefined,
  io: CliIo,
): Promise<RunDatabase | undefined> {
  const url = databaseUrl(flag, io.env);
  return url === undefined ? undefined : RunDatabase.open(url);
}
