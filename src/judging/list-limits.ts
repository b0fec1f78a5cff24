/**
 * The counts a prompt states for a structured answer's lists, taken from the lists' own bounds, so
 * a prompt never asks for more (or fewer) items than the schema sent with it allows.
 */

const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** A small count as a word ("three"), a larger one as digits. */
export function countWord(count: number): string {
  return WORDS[count] ?? String(count);
}

/** "at most three reasons, three risks and four next actions", from each list's bound and noun. */
export function listLimitsText(lists: ReadonlyArray<{ most: number; noun: string }>): string {
  const parts = lists.map(({ most, noun }) => `${countWord(most)} ${noun}`);
  const joined = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
  return `at most ${joined}`;
}
