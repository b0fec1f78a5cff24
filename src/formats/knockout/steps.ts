/** The steps of a knockout run, as the planner hands them to the executor. */
import type { RoundEndEvent } from '../../core/events.js';
import type { ChatMessage } from '../../llm/provider.js';

export type KnockoutStep =
  | {
      kind: 'speak';
      round: number;
      agent: string;
      position: 'X' | 'Y';
      model: string;
      temperature: number;
      tokenLimit: number;
      messages: ChatMessage[];
    }
  | { kind: 'judge'; round: number; judges: string[] }
  | { kind: 'comment'; round: number; model: string; messages: ChatMessage[] }
  | {
      kind: 'claims';
      round: number;
      agent: string;
      position: 'X' | 'Y';
      mode: 'model' | 'heuristic';
      model: string;
      messages: ChatMessage[];
      /** Ids of the other side's claims that a claim may answer. */
      answerIds: string[];
    }
  | {
      kind: 'summarise';
      /** The first round the summary's new part covers: 1 when it replaces every earlier part. */
      fromRound: number;
      throughRound: number;
      /** The length asked for, in words. */
      words: number;
      model: string;
      messages: ChatMessage[];
      /** The part as written from the claims ledger (`context.summary: ledger`): no model call. */
      text?: string;
    }
  | { kind: 'decide'; event: Omit<RoundEndEvent, 'realMs'> };
