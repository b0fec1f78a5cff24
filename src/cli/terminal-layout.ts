/** How wide the CLI's text may be, and whether tables get borders, from the stream it goes to. */
import type { Writable } from 'node:stream';
import type { TextLayout } from '../render/text-table.js';

// A pipe or a file has no width of its own: text stays within a classic terminal unless COLUMNS says.
const DEFAULT_WIDTH = 80;
// Narrower than this, nothing is legible anyway; a bogus COLUMNS=1 must not fold every word.
const NARROWEST = 30;

/**
 * The terminal's own width for a terminal, else `COLUMNS`, else 80. Borders are drawn only on a
 * terminal: a pipe or a file gets plain text.
 */
export function terminalLayout(
  stream: Writable & { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv,
): TextLayout {
  const tty = Boolean(stream.isTTY);
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  const width =
    tty && stream.columns && stream.columns > 0
      ? stream.columns
      : Number.isFinite(fromEnv) && fromEnv > 0
        ? fromEnv
        : DEFAULT_WIDTH;
  return { width: Math.max(NARROWEST, width), borders: tty };
}
