/**
 * The shared database's address: `--database URL` or `AGORA_DATABASE_URL`. Its password is never
 * printed: every message shows the address with the password replaced by `***`.
 */
import { UsageError } from '../../core/errors.js';

export const DATABASE_ENV = 'AGORA_DATABASE_URL';

/** The address given on the command line or in the environment, or undefined when neither is set. */
export function databaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const value = flag ?? env[DATABASE_ENV];
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(
      `--database (or ${DATABASE_ENV}) is not a database address; write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new UsageError(
      `--database (or ${DATABASE_ENV}) must be a postgres:// address, not ${url.protocol}//...; write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE`,
    );
  }
  return value.trim();
}

/** The address as it may be shown: without its password. */
export function redactedUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password !== '') url.password = '***';
    for (const key of [...url.searchParams.keys()]) {
      if (/pass|secret|key|token/i.test(key)) url.searchParams.set(key, '***');
    }
    return url.toString();
  } catch {
    return 'the database';
  }
}

/** Removes the password, as given and as URL-decoded, from any text about the database. */
export function withoutPassword(text: string, value: string): string {
  let password = '';
  try {
    password = new URL(value).password;
  } catch {
    return text;
  }
  if (password === '') return text;
  let out = text.split(value).join(redactedUrl(value));
  for (const form of new Set([password, decodeURIComponent(password)])) out = out.split(form).join('***');
  return out;
}
