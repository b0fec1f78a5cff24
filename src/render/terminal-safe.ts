/**
 * Text from a model or a scenario, made safe to print on a terminal. A model's answer may hold
 * escape sequences (a clipboard write through OSC 52, a window title, a hyperlink, clearing the
 * screen, moving the cursor): printed raw, the terminal would obey them. Every such sequence is
 * removed whole, and every other control character but the newline and the tab; a sequence cut
 * between two streamed pieces is held back until it is whole (`StreamFilter`). JSON keeps the
 * text as it is, with every control character escaped (`safeJson`).
 */

const ST = '(?:\\u0007|\\u001b\\\\|\\u009c)';
/** Whole sequences: OSC, DCS/SOS/PM/APC strings (7- and 8-bit), CSI, and other escapes. */
const SEQUENCES = [
  `(?:\\u001b\\]|\\u009d)[\\s\\S]*?${ST}`,
  `(?:\\u001b[PX^_]|[\\u0090\\u0098\\u009e\\u009f])[\\s\\S]*?${ST}`,
  '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]',
  // Other escapes; not the openers above, which are only whole with their ending.
  '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u004f\\u0051-\\u0057\\u0059\\u005a\\u005c\\u0060-\\u007e]',
];
const SEQUENCE = new RegExp(SEQUENCES.join('|'), 'g');
const SEQUENCE_AT_START = new RegExp(`^(?:${SEQUENCES.join('|')})`);
/** Control characters left once the sequences are gone; the tab and the newline stay. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** What starts a sequence. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const INTRODUCER = /[\u001b\u0090-\u009f]/g;
/** The start of a sequence that may still be completed by the next piece. */
const UNFINISHED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /^(?:\u001b|\u001b[\u0020-\u002f]+|(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[\s\S]*)$/;
/** A sequence held back longer than this is not one a terminal would wait for: it is printed (stripped). */
const HOLD_LIMIT = 4096;

/** `text` without escape sequences or control characters (newlines and tabs kept). */
export function printable(text: string): string {
  return text.replace(SEQUENCE, '').replace(CONTROL, '');
}

/** Every string in `value` (an event, a notice), printable; other values as they are. */
export function printableDeep<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((item) => printableDeep(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, printableDeep(item)]),
    ) as T;
  }
  return value;
}

/** Pieces of a streamed text made printable, a sequence cut between two pieces removed whole. */
export class StreamFilter {
  private pending = '';

  push(piece: string): string {
    let text = this.pending + piece;
    this.pending = '';
    let from = 0;
    for (;;) {
      INTRODUCER.lastIndex = from;
      const found = INTRODUCER.exec(text);
      if (!found) break;
      const rest = text.slice(found.index);
      const whole = SEQUENCE_AT_START.exec(rest);
      if (whole) {
        from = found.index + whole[0].length;
        continue;
      }
      if (rest.length < HOLD_LIMIT && UNFINISHED.test(rest)) {
        this.pending = rest;
        text = text.slice(0, found.index);
        break;
      }
      from = found.index + 1;
    }
    return printable(text);
  }

  /** What is still held back, printable (the stream ended in the middle of a sequence). */
  flush(): string {
    const rest = printable(this.pending);
    this.pending = '';
    return rest;
  }
}

/** JSON with every control character escaped, C1 ones (U+0080 to U+009F) and DEL too. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
