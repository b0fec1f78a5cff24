/** A batch the leaderboard can be narrowed to. */
export interface BatchChoice {
  batchId: string;
  /** When its plan was made; null for a batch known only from its runs. */
  createdAt: string | null;
  debates: number | null;
}
