/**
 * Markdown elements in a statement, a style feature beside its length: headings, list items, and
 * bold or italic spans. A judge may favour a side that looks organised rather than one that argues
 * better; counting them lets the standings hold that apart (Chatbot Arena's style control).
 */
const HEADING = /^\s{0,3}#{1,6}\s+\S/gm;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\S/gm;
const EMPHASIS =
  /(\*\*|__)(?=\S)[^\n]*?\S\1|(?<![*\w])\*(?=[^\s*])[^*\n]*?[^\s*]\*(?!\*)|(?<![_\w])_(?=[^\s_])[^_\n]*?[^\s_]_(?![_\w])/g;

export function markdownElements(text: string): number {
  return (
    (text.match(HEADING)?.length ?? 0) +
    (text.match(LIST_ITEM)?.length ?? 0) +
    (text.match(EMPHASIS)?.length ?? 0)
  );
}
