/** YAML parsing that remembers where every value came from, so errors can name a line and column. */
import { type Document, isMap, isScalar, LineCounter, type Node, parseDocument, visit } from 'yaml';
import { MAX_NESTING, type NestingFinding, tooDeepNesting } from './yaml-nesting.js';

export interface SourcePosition {
  line: number;
  column: number;
}

export interface YamlSource {
  data: unknown;
  /** Position of the value at `path`, falling back to its nearest parent that exists. */
  positionOf(path: ReadonlyArray<PropertyKey>, options?: { key?: string }): SourcePosition | undefined;
  syntaxErrors: Array<{ message: string; line?: number; column?: number }>;
  /** Set when aliases (`*name`) would expand the document beyond what a scenario can need. */
  expansionError?: { message: string; line?: number; column?: number };
  /** Set when lists and mappings nest deeper than a scenario can need; the text is then not parsed. */
  nestingError?: { message: string; line?: number; column?: number };
}

/** What a text nested too deeply is told, at the place it first goes too deep. */
function nestingError(at: Partial<NestingFinding>): NonNullable<YamlSource['nestingError']> {
  return {
    message: `lists and mappings are nested more than ${MAX_NESTING} levels deep here, too deep to read; a scenario needs only a few levels: look for "[" or "{" that are never closed, or indentation that keeps growing`,
    ...at,
  };
}

/**
 * Alias expansions allowed, as the `yaml` package counts them (an alias of an alias counts as
 * the product of both). Shared settings for a dozen agents need far fewer; a "billion laughs"
 * document needs far more.
 */
const MAX_ALIAS_COUNT = 50;
/**
 * Largest a scenario may be, in characters, once its aliases are expanded: twice the file limit.
 * An alias copies its anchor into the event log and into every prompt that holds it.
 */
export const MAX_EXPANDED_CHARS = 2 * 1024 * 1024;

/** Whether `value` written out as JSON would be longer than `limit`; stops counting once it is. */
function expandsBeyond(value: unknown, limit: number): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (Array.isArray(item)) {
      size += item.length + 2;
      if (size <= limit) pending.push(...item);
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (const [key, entry] of entries) {
        size += key.length + 4;
        if (size > limit) break;
        pending.push(entry);
      }
    } else size += String(item).length;
    if (size > limit) return true;
  }
  return false;
}

export function parseYamlSource(text: string): YamlSource {
  // Checked before parsing: the parser recurses once per level and would overflow its stack.
  const deep = tooDeepNesting(text);
  if (deep) {
    return {
      data: undefined,
      syntaxErrors: [],
      nestingError: nestingError(deep),
      positionOf: () => undefined,
    };
  }
  const lineCounter = new LineCounter();
  const document: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  // One tab used for indentation throws the rest of the document out of line, and every later
  // error is a consequence of it: report the first tab, and only the errors before it.
  const firstTab = document.errors.find((error) => error.code === 'TAB_AS_INDENT');
  const reported = firstTab
    ? [...document.errors.filter((error) => error.pos[0] < firstTab.pos[0]), firstTab]
    : document.errors;
  // A stack overflow inside the parser is nesting the check above did not see: one plain message,
  // without the errors that follow from it.
  const overflow = document.errors.find((error) => /maximum call stack/i.test(error.message));
  if (overflow) {
    const at = lineCounter.linePos(overflow.pos[0]);
    return {
      data: undefined,
      syntaxErrors: [],
      nestingError: nestingError({ line: at.line, column: at.col }),
      positionOf: () => undefined,
    };
  }
  const syntaxErrors = reported.map((error) => {
    const at = lineCounter.linePos(error.pos[0]);
    const firstLine =
      error === firstTab
        ? 'a tab indents this line; YAML does not allow tabs for indentation; use spaces'
        : (error.message.split('\n')[0] ?? error.message);
    return { message: firstLine, line: at.line, column: at.col };
  });
  const toPosition = (offset: number): SourcePosition => {
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  let data: unknown;
  let expansionError: YamlSource['expansionError'];
  if (syntaxErrors.length === 0) {
    let firstAlias: SourcePosition | undefined;
    visit(document, {
      Alias(_, node) {
        if (node.range) firstAlias = toPosition(node.range[0]);
        return visit.BREAK;
      },
    });
    try {
      data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
      if (expandsBeyond(data, MAX_EXPANDED_CHARS)) {
        data = undefined;
        expansionError = {
          message: `with its YAML aliases expanded the scenario is over ${MAX_EXPANDED_CHARS} characters, the limit; write long text once instead of repeating it through aliases (*name)`,
          ...firstAlias,
        };
      }
    } catch (error) {
      // The yaml package throws a ReferenceError when aliases multiply past maxAliasCount.
      if (!(error instanceof ReferenceError)) throw error;
      const message = /excessive alias/i.test(error.message)
        ? `YAML aliases expand too much; a scenario may use at most ${MAX_ALIAS_COUNT} alias expansions (*name), counting nested ones`
        : `YAML alias error: ${error.message}`;
      expansionError = { message, ...firstAlias };
    }
  }
  return {
    data,
    syntaxErrors,
    ...(expansionError ? { expansionError } : {}),
    positionOf(path, options = {}) {
      for (let length = path.length; length >= 0; length -= 1) {
        const node = document.getIn(path.slice(0, length) as unknown[], true) as Node | undefined;
        if (!node || typeof node !== 'object' || !('range' in node) || !node.range) continue;
        if (options.key !== undefined && length === path.length && isMap(node)) {
          const pair = node.items.find(
            (item) => isScalar(item.key) && String(item.key.value) === options.key,
          );
          const keyNode = pair?.key as Node | undefined;
          if (keyNode?.range) return toPosition(keyNode.range[0]);
        }
        return toPosition(node.range[0]);
      }
      return undefined;
    },
  };
}
