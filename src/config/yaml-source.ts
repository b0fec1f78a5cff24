/** YAML parsing that remembers where every value came from, so errors can name a line and column. */
import { type Document, isMap, isScalar, LineCounter, type Node, parseDocument } from 'yaml';

export interface SourcePosition {
  line: number;
  column: number;
}

export interface YamlSource {
  data: unknown;
  /** Position of the value at `path`, falling back to its nearest parent that exists. */
  positionOf(path: ReadonlyArray<PropertyKey>, options?: { key?: string }): SourcePosition | undefined;
  syntaxErrors: Array<{ message: string; line?: number; column?: number }>;
}

export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const document: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntaxErrors = document.errors.map((error) => {
    const at = lineCounter.linePos(error.pos[0]);
    const firstLine = error.message.split('\n')[0] ?? error.message;
    return { message: firstLine, line: at.line, column: at.col };
  });
  const toPosition = (offset: number): SourcePosition => {
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  return {
    data: syntaxErrors.length > 0 ? undefined : document.toJS({ maxAliasCount: 100 }),
    syntaxErrors,
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
