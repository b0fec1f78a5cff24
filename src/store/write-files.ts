/** Writes a file atomically (temp file, then rename), so a reader never sees half a transcript. */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { guardStorage, storageFailure } from './storage-failure.js';

export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, file);
  } catch (error) {
    // A write cut short by a full disk, or a rename refused, must not leave the temp file behind.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The folder refuses even that (read-only): there is no temp file to leave.
    }
    throw storageFailure(error, file, 'write');
  }
}

/** Writes a file atomically, creating its folder first (a council's notes folder may not exist yet). */
export function writeFileInFolder(file: string, content: string | Uint8Array): void {
  const folder = path.dirname(file);
  guardStorage(folder, 'create', () => mkdirSync(folder, { recursive: true }));
  writeFileAtomic(file, content);
}
