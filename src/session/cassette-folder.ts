/**
 * `--record DIR`: the folder a run's model calls are recorded into. It must be new or empty, so a
 * cassette never mixes two runs' calls.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { StorageError, UsageError } from '../core/errors.js';
import { CassetteRecorder } from '../mock-ollama/index.js';

/** Creates (or checks) the folder and returns a recorder writing into it. */
export function openCassetteFolder(dir: string): CassetteRecorder {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR')
      throw new UsageError(`--record ${dir}: that is a file; name a new or empty folder`);
    if (code !== 'ENOENT') {
      throw new StorageError(
        `--record ${dir}: cannot read the folder (${code}); name a folder you can write`,
        {
          path: dir,
          ...(code ? { code } : {}),
          cause: error,
        },
      );
    }
  }
  if (entries.length > 0) {
    throw new UsageError(
      `--record ${dir}: the folder is not empty (${entries.length} entries); a cassette holds one run's calls, so name a new or empty folder`,
    );
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StorageError(
      `--record ${dir}: cannot create the folder (${code}); name a folder you can write`,
      {
        path: dir,
        ...(code ? { code } : {}),
        cause: error,
      },
    );
  }
  return new CassetteRecorder(dir);
}
