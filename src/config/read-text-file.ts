/**
 * Reads a small text file the user named (a scenario, a context file, a problem file) without
 * trusting what the name points at: a device such as /dev/zero would be read forever, a named
 * pipe would block until some writer appears, and a file larger than the cap would only waste
 * memory before being refused.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';

/** Why a file was not read, with a phrase that follows its name ("x.yaml is a folder ..."). */
export interface TextFileRefusal {
  reason: 'missing' | 'folder' | 'not-regular' | 'too-large' | 'unreadable' | 'binary';
  message: string;
}

/** The text of a file, or why it was refused. */
export type TextFileResult = { text: string } | { refusal: TextFileRefusal };

function kindOf(info: Stats): string {
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  return 'not a plain file';
}

const refuse = (reason: TextFileRefusal['reason'], message: string): TextFileResult => ({
  refusal: { reason, message },
});

/** Reads `file` as UTF-8 when it is a regular text file of at most `maxBytes` bytes. */
export async function readTextFile(file: string, maxBytes: number): Promise<TextFileResult> {
  const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';
  const tooLarge = (size: number | null) =>
    refuse('too-large', `is ${size ?? `more than ${maxBytes}`} bytes, above the ${maxBytes}-byte limit`);
  let info: Stats;
  try {
    info = await stat(file);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', 'not found');
    return refuse('unreadable', `cannot be read (${code}); check its permissions`);
  }
  if (info.isDirectory()) return refuse('folder', 'is not a regular file (it is a folder)');
  if (!info.isFile()) return refuse('not-regular', `is not a regular file (it is ${kindOf(info)})`);
  if (info.size > maxBytes) return tooLarge(info.size);

  let handle: FileHandle;
  try {
    // Non-blocking, so a file swapped for a named pipe after the check cannot stall the open.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return refuse('unreadable', `cannot be read (${codeOf(error)}); check its permissions`);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return refuse('not-regular', `is not a regular file (it is ${kindOf(opened)})`);
    // Room for the size seen plus one byte: a file that grew since the check gets room up to one
    // byte over the cap, which tells a file that still fits from one that no longer does.
    let buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length > maxBytes) break;
        buffer = Buffer.concat([buffer, Buffer.alloc(maxBytes + 1 - buffer.length)]);
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return tooLarge(null);
    const content = buffer.subarray(0, length);
    if (content.includes(0)) return refuse('binary', 'is not a text file (it contains binary data)');
    return { text: content.toString('utf8') };
  } catch (error) {
    return refuse('unreadable', `cannot be read (${codeOf(error)}); check its permissions`);
  } finally {
    await handle.close();
  }
}
