/** Finds a run folder from what the user typed: a path, or a run id under the runs folder. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';

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
  if (!found) {
    throw new UsageError(`no run "${reference}" (looked in ${outDir}); \`agora runs\` lists the runs`);
  }
  return found;
}
