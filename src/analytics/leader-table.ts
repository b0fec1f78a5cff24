/** One table of a leaderboard: what every ranking, count and agreement figure is handed out as. */
type Cell = string | number | null;

export interface LeaderTable {
  title: string;
  columns: string[];
  rows: Cell[][];
  note?: string;
}
