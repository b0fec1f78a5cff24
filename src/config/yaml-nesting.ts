/**
 * How deeply a YAML text nests its lists and mappings, found before it is parsed. The YAML parser
 * recurses once per level: ten thousand `[` overflow its stack, and a text that nests deep enough
 * to do that is no scenario. One pass over the text, no recursion: flow collections (`[`, `{`)
 * outside quotes and comments, and block levels (growing indentation, `- ` items).
 */

/** Deepest a scenario's lists and mappings may nest; the shipped ones need six levels at most. */
export const MAX_NESTING = 64;

/** Where the text first nests deeper than the limit: 1-based line and column. */
export interface NestingFinding {
  line: number;
  column: number;
}

const BLOCK_SCALAR = /^[|>][-+0-9]*\s*(#.*)?$/;

/** The first place where `text` nests deeper than `limit` levels, or null when it never does. */
export function tooDeepNesting(text: string, limit = MAX_NESTING): NestingFinding | null {
  const lines = text.split(/\r?\n/);
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | null = null;
  // Inside a block scalar (`|`, `>`): lines indented deeper than its key are text, not structure.
  let scalarParent: number | null = null;
  for (const [index, line] of lines.entries()) {
    const indent = line.length - line.trimStart().length;
    if (scalarParent !== null) {
      if (line.trim() === '' || indent > scalarParent) continue;
      scalarParent = null;
    }
    let at = 0;
    let valueStart = true;
    if (flow === 0 && quote === null) {
      const content = line.trim();
      if (content === '' || content.startsWith('#') || /^(---|\.\.\.|%)/.test(content)) continue;
      while (indents.length > 0 && (indents.at(-1) as number) > indent) indents.pop();
      if (indents.length === 0 || (indents.at(-1) as number) < indent) indents.push(indent);
      at = indent;
      // Items of a sequence written on one line (`- - x`) each open a level.
      while (line[at] === '-' && (line[at + 1] === ' ' || at + 1 === line.length)) {
        at += 1;
        while (line[at] === ' ') at += 1;
        indents.push(at);
      }
      if (indents.length > limit) return { line: index + 1, column: at + 1 };
    }
    for (; at < line.length; at += 1) {
      const character = line[at] as string;
      if (quote !== null) {
        if (quote === '"' && character === '\\') at += 1;
        else if (character === quote) {
          if (quote === "'" && line[at + 1] === "'") at += 1;
          else quote = null;
        }
        continue;
      }
      if (character === '#' && (at === 0 || /\s/.test(line[at - 1] as string))) break;
      if (flow > 0 || valueStart) {
        if (character === '[' || character === '{') {
          flow += 1;
          if (indents.length + flow > limit) return { line: index + 1, column: at + 1 };
          valueStart = false;
          continue;
        }
        if (character === '"' || character === "'") {
          quote = character;
          valueStart = false;
          continue;
        }
      }
      if (flow > 0) {
        if (character === ']' || character === '}') flow = Math.max(0, flow - 1);
        continue;
      }
      if (character === ' ') continue;
      if (valueStart && BLOCK_SCALAR.test(line.slice(at))) {
        scalarParent = indent;
        break;
      }
      // A key's colon, or an item's dash, starts a value; anything else is plain text.
      valueStart =
        (character === ':' && (line[at + 1] === ' ' || at + 1 === line.length)) ||
        (character === '-' && line[at + 1] === ' ' && /^\s*$/.test(line.slice(0, at)));
    }
  }
  return null;
}
