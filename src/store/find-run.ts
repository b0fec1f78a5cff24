/**
 * Finds a run folder from what a user typed: a folder, a council's decision record, a council's
 * packet id, or a run id under any of the places runs are kept.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { type RunPlaces, runSearchFolders } from './run-places.js';

/**
 * The packet id of a council recorded before its packet took the run's own id: `debate_`, the
 * date, the time and three hex characters of the run id's hash (debate_20261123_142530_3fa), as
 * `legacyPacketRunId` in council-artifacts.ts still names it when such a run is resumed.
 */
const PACKET_ID = /^debate_\d{8}_\d{6}_[a-z0-9]{3}$/;

export function findRunFolder(reference: string | undefined, places: RunPlaces): string {
  if (!reference) throw new UsageError(`name a run, by its id or its folder (see \`agora runs\`)`);
  // A council's decision record names its run folder in its front matter.
  const record = path.resolve(reference);
  if (existsSync(record) && statSync(record).isFile()) {
    const runDir = /^run_dir: (.+)$/m.exec(readFileSync(record, 'utf8'))?.[1]?.trim();
    if (runDir && existsSync(runDir)) return runDir;
    throw new UsageError(`${reference} is a file but names no run folder (no run_dir: line)`);
  }
  const folders = runSearchFolders(places);
  // A packet id names its decision record in notes/ beside the council's run folders.
  if (PACKET_ID.test(reference)) {
    for (const folder of folders) {
      const note = path.join(folder, 'notes', `${reference}.md`);
      if (existsSync(note)) return findRunFolder(note, places);
    }
  }
  const candidates = [path.resolve(reference), ...folders.map((folder) => path.join(folder, reference))];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isDirectory());
  if (!found) {
    throw new UsageError(
      `no run "${reference}" (looked in ${folders.join(' and ')}); \`agora runs\` lists the runs`,
    );
  }
  return found;
}
