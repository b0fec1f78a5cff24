/**
 * Finds a run folder from what the user typed: a path, a run id under the runs folder, a unique
 * prefix of one, `latest`, or a council's decision record or packet id.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { runFolders } from '../store/run-index.js';
import { type KnownRun, matchRun } from './run-reference.js';

export function findRunDir(reference: string | undefined, outDir: string, command: string): string {
  if (!reference) throw new UsageError(`name a run, by its id or its folder (see \`agora runs\`)`);
  // A council's decision record names its run folder in its front matter.
  const record = path.resolve(reference);
  if (existsSync(record) && statSync(record).isFile()) {
    const runDir = /^run_dir: (.+)$/m.exec(readFileSync(record, 'utf8'))?.[1]?.trim();
    if (runDir && existsSync(runDir)) return runDir;
    throw new UsageError(`${reference} is a file but names no run folder (no run_dir: line)`);
  }
  // A council packet's run id (debate_<date>_<time>_<hex>) names its decision record in notes/.
  if (/^debate_\d{8}_\d{6}_[a-z0-9]{3}$/.test(reference)) {
    const note = path.join(outDir, 'notes', `${reference}.md`);
    if (existsSync(note)) return findRunDir(note, outDir, command);
  }
  const candidates = [path.resolve(reference), path.join(outDir, reference)];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isDirectory());
  if (found) return found;
  // Not a folder of its own: the start of a run id, or `latest`.
  const meant = matchRun(reference, runsIn(outDir), outDir);
  if (meant) return path.join(outDir, meant);
  throw new UsageError(`no run "${reference}" (looked in ${outDir}); \`agora runs\` lists the runs`);
}

/** The runs in a runs folder, each with the time its log says it started. */
function runsIn(outDir: string): KnownRun[] {
  return runFolders(outDir).map((runDir) => ({
    runId: path.basename(runDir),
    startedAt: startTime(path.join(runDir, 'events.jsonl')),
  }));
}

/** The time of a log's first event (its line begins with `seq` and `at`); else when the file was written. */
function startTime(file: string): string {
  try {
    const descriptor = openSync(file, 'r');
    const start = Buffer.alloc(256);
    try {
      readSync(descriptor, start, 0, start.length, 0);
    } finally {
      closeSync(descriptor);
    }
    const at = /^\{"seq":0,"at":"([^"]+)"/.exec(start.toString('utf8'))?.[1];
    return at ?? statSync(file).mtime.toISOString();
  } catch {
    return '';
  }
}
