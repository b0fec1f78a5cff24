/** Finds a run folder from what the user typed: a path, or a run id under the runs folder. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';

export function findRunDir(reference: string | undefined, outDir: string, command: string): string {
  if (!reference)
    throw new UsageError(`${command}: name a run, by its id or its folder (see \`agora runs\`)`);
  const candidates = [path.resolve(reference), path.join(outDir, reference)];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isDirectory());
  if (!found) {
    throw new UsageError(
      `${command}: no run "${reference}" (looked in ${outDir}); \`agora runs\` lists the runs`,
    );
  }
  return found;
}
