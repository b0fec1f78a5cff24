/**
 * What the viewer knows of a debate it started: the accepted topic, the notices about replaced
 * parameters, and the worker process. Kept in `<runs folder>/.serve/<run id>.json` so the run page
 * can show them after the viewer restarts.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/write-files.js';

export interface StartRecord {
  runId: string;
  topic: string;
  notices: string[];
  /** The `agora` arguments the worker was started with. */
  args: string[];
  pid: number | null;
  /** The worker's output. */
  logFile: string;
  startedAt: string;
}

export const SERVE_FOLDER = '.serve';

export function workerLogFile(outDir: string, runId: string, action: 'run' | 'resume'): string {
  const folder = path.join(outDir, SERVE_FOLDER);
  mkdirSync(folder, { recursive: true });
  return path.join(folder, `${runId}.${action}.log`);
}

export function writeStartRecord(outDir: string, record: StartRecord): void {
  const folder = path.join(outDir, SERVE_FOLDER);
  mkdirSync(folder, { recursive: true });
  writeFileAtomic(path.join(folder, `${record.runId}.json`), `${JSON.stringify(record, null, 2)}\n`);
}

export function readStartRecord(outDir: string, runId: string): StartRecord | null {
  const file = path.join(outDir, SERVE_FOLDER, `${runId}.json`);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StartRecord;
  } catch {
    return null;
  }
}

/** The last lines of a worker's output, for a debate that could not start. */
export function logTail(file: string, lines = 8): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
