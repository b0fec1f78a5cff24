/**
 * Taking a run folder for this process before driving it (`resume`, a batch's runs): its lock
 * first, then its log read with a torn last line cut off (only the lock's holder may cut it). A run
 * that has ended is handed back unlocked, with its progress: there is nothing to drive.
 */
import path from 'node:path';
import type { RunProgress } from '../core/run-progress.js';
import { formatNamed } from '../formats/index.js';
import { type LoadedRun, loadRun, namedRunDir } from '../manager/debate-manager.js';
import { lastLineRepair } from '../manager/last-line-repair.js';
import { closeRunLogger, createRunLogger } from '../manager/logger.js';
import { inspectRunFolder } from '../store/run-folder.js';
import { acquireRunLock } from '../store/run-lock.js';
import type { ResumeTarget } from './debate-session.js';

/** A started run's folder, taken: ended (and left unlocked), or locked for this process to drive on. */
export type FolderClaim =
  | {
      kind: 'ended';
      loaded: LoadedRun;
      progress: RunProgress;
      /** What was done to the log's last line on the way (see lastLineRepair), for the user. */
      repair: string | null;
    }
  | { kind: 'resume'; resume: ResumeTarget; release: () => void };

/** A folder a batch cannot use: its log is lost, or it holds something else. */
export class UnusableRunFolder extends Error {}

/** The folder of a run named in advance (a batch's): made when missing, started in when it holds no run yet. */
export function claimNamedRunFolder(runDir: string): FolderClaim | { kind: 'new'; release: () => void } {
  const folder = inspectRunFolder(runDir);
  // A damaged folder (its log lost) is reported, never run over; a run that never started begins again.
  if (folder.kind === 'damaged' || folder.kind === 'other') {
    throw new UnusableRunFolder(
      `${runDir} ${folder.kind === 'damaged' ? `is damaged: ${folder.reason}` : 'holds files that are not a run; move them away'}`,
    );
  }
  if (folder.kind === 'started') return claimRunFolder(runDir);
  namedRunDir(path.dirname(runDir), path.basename(runDir));
  return { kind: 'new', release: acquireRunLock(runDir) };
}

/** A started run's folder: its lock, then its log read (a torn last line cut off). */
export function claimRunFolder(runDir: string): FolderClaim {
  const release = acquireRunLock(runDir);
  try {
    const loaded = loadRun(runDir, formatNamed, { repair: true });
    const progress = loaded.format.progress(loaded.state);
    if (progress.status === 'completed' || progress.status === 'degraded') {
      const repair = lastLineRepair(loaded);
      // No segment runs to log it: the run's log is told here.
      if (repair !== null) {
        const logger = createRunLogger(loaded.paths.log, { verbose: false });
        logger.warn({ file: loaded.paths.events }, repair);
        closeRunLogger(logger);
      }
      release();
      return { kind: 'ended', loaded, progress, repair };
    }
    return { kind: 'resume', resume: { loaded, lockHeld: true }, release };
  } catch (error) {
    release();
    throw error;
  }
}
