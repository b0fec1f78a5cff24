/**
 * Prompt layout shared by every format. Every prompt is [shared system message, shared transcript
 * message, own task]. The first two are byte-identical for every agent at the same point of the
 * debate, and the transcript only grows at its end, so Ollama's prompt cache reuses them across
 * agents and rounds on the same model. Only the last message differs per agent.
 */
import type { ChatMessage } from '../llm/provider.js';
import type { RulesPlacement } from './message-layout.js';

export interface TranscriptRound {
  number: number;
  /** Heading of the round, e.g. "Round 2" or "Opening statements". */
  title?: string;
  statements: Array<{ agent: string; label: string; text: string }>;
  transition?: { summary: string; focus: string } | undefined;
}

/** A running summary's part: rounds `fromRound` to `throughRound` in a few paragraphs. */
export interface SummaryPart {
  fromRound: number;
  throughRound: number;
  text: string;
}

export interface TranscriptView {
  /** The running summary of the earlier rounds, in parts that follow on from each other. */
  summaries: SummaryPart[];
  /** Claims made in the summarised rounds and still unanswered there, one line each (from the claims ledger). */
  openClaims?: string[];
  rounds: TranscriptRound[];
}

/** "rounds 1-4", or "round 3" for a single round. */
export function roundsLabel(from: number, through: number): string {
  return from === through ? `round ${from}` : `rounds ${from}-${through}`;
}

/**
 * The transcript message: the running summary's parts, the claims still unanswered in the rounds
 * they cover, then the recent rounds verbatim. A later view of the same debate only adds at its end
 * until the next summary, and a summary part stays as it is when the next one is added after it.
 */
export function transcriptText(view: TranscriptView): string {
  const parts: string[] = ['## Debate so far'];
  for (const summary of view.summaries) {
    parts.push(
      `### Summary of ${roundsLabel(summary.fromRound, summary.throughRound)}\n${summary.text.trim()}`,
    );
  }
  const covered = view.summaries.at(-1)?.throughRound;
  if (covered !== undefined && view.openClaims && view.openClaims.length > 0) {
    parts.push(
      `### Claims from ${roundsLabel(1, covered)} still unanswered there\n${view.openClaims.map((line) => `- ${line}`).join('\n')}`,
    );
  }
  for (const round of view.rounds) {
    const lines = [`### ${round.title ?? `Round ${round.number}`}`];
    for (const statement of round.statements) {
      lines.push(`**${statement.agent}** (${statement.label}):\n${statement.text.trim()}`);
    }
    if (round.transition)
      lines.push(
        `Moderator: ${[round.transition.summary, round.transition.focus].filter((part) => part !== '').join(' ')}`,
      );
    parts.push(lines.join('\n\n'));
  }
  if (view.summaries.length === 0 && view.rounds.length === 0) parts.push('The debate has not started yet.');
  return parts.join('\n\n');
}

/**
 * [rules, transcript, task]. The rules are a system message, or the first user message for models
 * whose template would move a system message after the conversation (see `message-layout.ts`).
 */
export function buildMessages(
  system: string,
  transcript: string,
  task: string,
  placement: RulesPlacement = 'system',
): ChatMessage[] {
  return [
    { role: placement === 'system' ? 'system' : 'user', content: system },
    { role: 'user', content: transcript },
    { role: 'user', content: task },
  ];
}

export function promptChars(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + message.content.length, 0);
}

/** Roughly how many words fit in a token budget (English averages ~1.33 tokens per word). */
export function wordsFor(tokens: number): number {
  return Math.max(20, Math.floor(tokens * 0.75));
}

/** The words a speaker is asked for by default: about 60% of what its token cap allows. */
export function aimWords(tokenLimit: number): number {
  return Math.max(40, Math.round((wordsFor(tokenLimit) * 0.6) / 10) * 10);
}

/**
 * The length a speaker is asked for: about 60% of what its token cap allows, so that an 8B model
 * that runs long still finishes before the cap instead of being cut mid-sentence. A word limit of
 * the scenario's own, when tighter, is the aim instead; `aim` asks for fewer words than the default.
 */
export function lengthRequest(tokenLimit: number, wordLimit?: number, aim = aimWords(tokenLimit)): string {
  const most = wordsFor(tokenLimit);
  const words = Math.min(aim, aimWords(tokenLimit));
  if (wordLimit !== undefined && wordLimit <= words) return `Use at most ${wordLimit} words.`;
  return `Aim for about ${words} words; you are cut off after about ${most}.`;
}
