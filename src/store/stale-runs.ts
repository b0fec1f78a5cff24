/**
 * The runs of a runs folder whose derived files or index row are behind their logs. A run whose
 * process was killed after its last event was written, but before its transcripts or its index
 * row were rewritten, still reads as it was (often "running"); every reader of a runs folder (the
 * list, the leaderboard, the viewer) brings these up to date first. Runs another live process is
 * writing are left to it.
 */
import path from 'node:path';
import { derivedFilesStale } from './derived-files.js';
import { INDEX_FILE, RunIndex, runFolders } from './run-index.js';
import { lockOwner } from './run-lock.js';

/** The runs the index records as running, or not at all, whose writer is gone. */
function behindIndex(outDir: string, runDirs: readonly string[]): string[] {
  let index: RunIndex;
  try {
    index = RunIndex.open(path.join(outDir, INDEX_FILE), { readonly: true });
  } catch {
    return [];
  }
  try {
    const status = new Map(
      index
        .query('SELECT run_dir, status FROM runs')
        .rows.map(([runDir, state]) => [path.resolve(String(runDir)), String(state)]),
    );
    return runDirs.filter((runDir) => {
      const recorded = status.get(path.resolve(runDir));
      return (recorded === undefined || recorded === 'running') && lockOwner(runDir) === null;
    });
  } finally {
    index.close();
  }
}

/** The run folders in `outDir` (and `more` folders) to read again before the folder is listed. */
export function staleRuns(outDir: string, more: readonly string[] = []): string[] {
  const runDirs = [...new Set([outDir, ...more])].flatMap((folder) => runFolders(folder));
  return [...new Set([...runDirs.filter(derivedFilesStale), ...behindIndex(outDir, runDirs)])];
}
