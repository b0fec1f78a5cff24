/** Notices for live views while a step runs. They are not persisted: only completed steps are events. */
export type LiveNotice =
  | {
      type: 'turn-start';
      round: number;
      agent: string;
      position: 'X' | 'Y';
      model: string;
      tokenLimit: number;
    }
  | { type: 'turn-delta'; round: number; agent: string; text: string }
  | { type: 'judging-start'; round: number; judges: string[]; debater: string }
  | { type: 'judge-retry'; round: number; judge: string; reason: string }
  | { type: 'summary-start'; throughRound: number; model: string }
  | { type: 'retry'; what: string; attempt: number; delayMs: number; reason: string };
