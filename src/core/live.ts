/** Notices for live views while a step runs. They are not persisted: only completed steps are events. */
export type LiveNotice =
  | {
      type: 'turn-start';
      round: number;
      agent: string;
      /** How the speaker's side is shown, e.g. "Position X, Pro-Choice" or "Affirmative". */
      label: string;
      /** The round's or phase's heading, e.g. "Round 2" or "Rebuttals". */
      heading: string;
      model: string;
      tokenLimit: number;
    }
  | { type: 'turn-delta'; round: number; agent: string; text: string }
  | { type: 'judging-start'; round: number; judges: string[]; subject: string }
  /**
   * Several contributions are generated side by side (`who`: "Ada", or "Ada on Per"): views show
   * each one whole as it is recorded, instead of streams that interleave, until `parallel-end`.
   */
  | { type: 'parallel-start'; round: number; heading: string; who: string[] }
  | { type: 'parallel-end'; round: number }
  | { type: 'judge-retry'; round: number; judge: string; reason: string }
  | { type: 'summary-start'; throughRound: number; model: string }
  | { type: 'moderation'; agent: string; passed: boolean; reason: string }
  | { type: 'retry'; what: string; attempt: number; delayMs: number; reason: string };
