/** Where text for the terminal is shown: how many columns it may use, and whether to draw borders. */
export interface TextLayout {
  width: number;
  /** Box-drawing borders (a terminal) or plain aligned columns (pipes, files). */
  borders: boolean;
}

/** The layout of callers that know nothing of a screen: a bordered table as wide as it needs. */
export const WIDE_LAYOUT: TextLayout = { width: Number.POSITIVE_INFINITY, borders: true };

/**
 * `text` on one line in at most `max` characters. Longer text is cut at the last word boundary
 * that leaves room for an ellipsis, and the ellipsis marks the cut; only a first word longer than
 * a third of `max` is cut inside itself (still marked). Never splits a character in two.
 */
export function clipText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(flat);
  if (characters.length <= max) return flat;
  const room = characters.slice(0, Math.max(1, max - 1)).join('');
  const boundary = room.lastIndexOf(' ');
  const kept = boundary >= max / 3 ? room.slice(0, boundary) : room;
  return `${kept.replace(/[\s,;:–—-]+$/u, '')}…`;
}
