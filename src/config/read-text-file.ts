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
  reason: 'missing' | 'folder' | 'not-regular' | 'too-large' | 'unreadable' | 'binary' | 'encoding';
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
    if (isUtf16(content)) {
      return refuse(
        'encoding',
        'is saved as UTF-16; save the file as UTF-8 (most editors offer it in "Save as")',
      );
    }
    if (content.includes(0)) return refuse('binary', 'is not a text file (it contains binary data)');
    const invalidAt = firstInvalidUtf8(content);
    if (invalidAt >= 0) {
      const line = content.subarray(0, invalidAt).filter((byte) => byte === 0x0a).length + 1;
      return refuse(
        'encoding',
        `is not valid UTF-8 (line ${line} has a byte that is not UTF-8, as in a file saved as Latin-1 or Windows-1252); save the file as UTF-8`,
      );
    }
    return { text: content.toString('utf8') };
  } catch (error) {
    return refuse('unreadable', `cannot be read (${codeOf(error)}); check its permissions`);
  } finally {
    await handle.close();
  }
}

/**
 * UTF-16 text, as some Windows editors save it: a byte-order mark, or (without one) zero bytes
 * that all fall on the same side of each two-byte unit, as the high bytes of ASCII text do.
 */
function isUtf16(content: Buffer): boolean {
  if (content.length >= 2) {
    const [first, second] = [content[0], content[1]];
    if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff)) return true;
  }
  let even = 0;
  let odd = 0;
  for (let at = 0; at < content.length; at += 1) {
    if (content[at] !== 0) continue;
    if (at % 2 === 0) even += 1;
    else odd += 1;
  }
  const zeros = even + odd;
  // An empty file (no zero bytes at all) is not UTF-16, just empty.
  return zeros > 0 && zeros >= content.length / 4 && (even === 0 || odd === 0);
}

/** Offset of the first byte that breaks UTF-8, or -1 when the whole buffer is valid UTF-8. */
function firstInvalidUtf8(content: Buffer): number {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return -1;
  } catch {
    // Find where: the slow walk only runs for a file about to be refused.
  }
  let at = 0;
  while (at < content.length) {
    const lead = content[at] as number;
    if (lead < 0x80) {
      at += 1;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
    if (length === 0) return at;
    const second = content[at + 1] ?? 0;
    // Overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f)) return at;
    if ((lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return at;
    for (let next = 1; next < length; next += 1) {
      if (((content[at + next] ?? 0) & 0xc0) !== 0x80) return at;
    }
    at += length;
  }
  return -1;
}
