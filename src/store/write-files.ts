/** Writes a file atomically (temp file, then rename), so a reader never sees half a transcript. */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { storageFailure } from './storage-failure.js';

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
