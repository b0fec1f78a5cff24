/**
 * A log saved by an editor: Windows line endings (CRLF) or a byte-order mark (BOM) at its start.
 * Agora writes neither (a raw carriage return cannot even occur inside a line: JSON escapes it), so
 * either one is the editor's doing, not a change to the record. Every line then fails at line 1;
 * this names what was found instead, checks the events with it undone, and gives the fix.
 */
import { checkLines } from './event-chain.js';

const BOM = '\uFEFF';

export interface EditorDamage {
  /** What was found, in words. */
  found: string[];
  /** The text with it undone: the mark taken off, the line endings made Unix ones again. */
  undone: string;
  /** With it undone, the first line that still does not fit, in words (null: the events are intact). */
  beyond: string | null;
  /** The plain command line that undoes it in `file`. */
  command: (file: string) => string;
}

/** The lines of a log's text as every reader takes them: a torn last line (never written whole) left out. */
export function logLines(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop();
  if (last !== undefined && last !== '') {
    try {
      JSON.parse(last);
      lines.push(last);
    } catch {
      // Torn: never written whole.
    }
  }
  return lines;
}

/** What an editor did to a log's text, if anything. */
export function editorDamage(text: string): EditorDamage | null {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(BOM.length) : text;
  const crlf = /\r(\n|$)/.test(body);
  if (!bom && !crlf) return null;
  const undone = crlf ? body.replace(/\r\n/g, '\n').replace(/\r$/, '') : body;
  const check = checkLines(logLines(undone));
  const found = [
    ...(crlf ? ['Windows line endings (CRLF)'] : []),
    ...(bom ? ['a byte-order mark (BOM) at its start'] : []),
  ];
  const sed = [...(bom ? ['1s/^\\xEF\\xBB\\xBF//'] : []), ...(crlf ? ['s/\\r$//'] : [])].join('; ');
  return {
    found,
    undone,
    beyond: check.problem === null ? null : `line ${check.problem.line}: ${check.problem.message}`,
    command: (file) => `sed -i '${sed}' ${file}`,
  };
}

/** One paragraph: what was found in the log of the run in `runDir`, whether the events are intact, and the fix. */
export function editorDamageText(damage: EditorDamage, file: string, runDir: string): string {
  const what = `the log has ${damage.found.join(' and ')}: it was saved by an editor, which Agora never does`;
  if (damage.beyond !== null) {
    return `${what}; with that undone, it is still damaged at ${damage.beyond}. \`agora verify\` checks the whole log`;
  }
  return `${what}. The events themselves are intact (each line matches its hash once that is undone); \`agora verify --repair ${runDir}\` undoes it, or: ${damage.command(file)}`;
}
