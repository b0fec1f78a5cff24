/** What each council round asks of the roles, as its heading reads in the terminal and the viewer. */
export const COUNCIL_ROUND_TITLES: Record<number, string> = {
  1: 'Round 1 — opening claims',
  2: 'Round 2 — challenges',
  3: 'Round 3 — revisions',
};
