/**
 * An `--output FILE` checked before anything runs: a debate that ends by failing to write its
 * result, after every model call has been paid for, has lost the user's time for a typo.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';

/** The absolute path of `given`, or a usage error (exit 2) when no file can be written there. */
export function checkedOutputFile(given: string, cwd: string, flag = '--output'): string {
  const file = path.resolve(cwd, given);
  const folder = path.dirname(file);
  const kind = (target: string) => {
    try {
      return statSync(target).isDirectory() ? 'folder' : 'file';
    } catch {
      return 'missing';
    }
  };
  const folderKind = kind(folder);
  if (folderKind === 'missing') {
    throw new UsageError(
      `${flag} ${given}: the folder ${folder} does not exist; create it first (mkdir -p ${folder}) or name a file in a folder that exists`,
    );
  }
  if (folderKind === 'file') {
    throw new UsageError(`${flag} ${given}: ${folder} is a file, not a folder; name a file in a folder`);
  }
  if (kind(file) === 'folder') {
    throw new UsageError(
      `${flag} ${given}: ${file} is a folder; name a file to write, e.g. ${path.join(given, 'result.md')}`,
    );
  }
  return file;
}
