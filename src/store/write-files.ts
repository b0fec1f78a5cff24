/** Writes a file atomically (temp file, then rename), so a reader never sees half a transcript. */
import { renameSync, writeFileSync } from 'node:fs';

export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}
