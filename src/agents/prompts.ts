/**
 * Prompt layout. Every prompt is [shared system message, shared transcript message, own task].
 * The first two are byte-identical for every agent at the same point of the debate, and the
 * transcript only grows at its end, so Ollama's prompt cache reuses them across agents and rounds
 * on the same model. Only the last message differs per agent: persona, memory and task.
 */
import type { Scenario } from '../config/scenario.js';
import type { ChatMessage } from '../llm/provider.js';

export interface TranscriptRound {
  number: number;
  debater: string;
  statements: Array<{ agent: string; position: 'X' | 'Y'; text: string }>;
  transition?: { summary: string; focus: string } | undefined;
}

export interface TranscriptView {
  summary: { throughRound: number; text: string } | null;
  rounds: TranscriptRound[];
}

function knowledgeText(scenario: Scenario): string {
  const entries = Object.entries(scenario.background.knowledge);
  const lines = entries.map(([key, value]) => {
    const title = key.replace(/_/g, ' ');
    return Array.isArray(value) ? `- ${title}: ${value.join('; ')}` : `- ${title}: ${value}`;
  });
  const files = scenario.contextFiles.map((file) => `\n### ${file.path}\n${file.content.trim()}`);
  if (lines.length === 0 && files.length === 0) return '';
  return `\n## Background (shared by every participant)\n${lines.join('\n')}${files.join('\n')}\n`;
}

/** The system message: rules, motion, positions and background. Identical for every agent. */
export function sharedSystemPrompt(scenario: Scenario): string {
  const { positions, debate, rotation } = scenario;
  return [
    'You are taking part in a knockout debate between AI agents.',
    `Motion: ${scenario.topic.trim()}`,
    `Position X: ${positions.x}`,
    `Position Y: ${positions.y}`,
    '',
    '## Rules',
    `- One Position X agent debates one Position Y agent at a time, for up to ${debate.rounds} rounds.`,
    `- In each round Position ${debate.starting_position} speaks first, then the other side answers.`,
    '- After each round the Position Y agents who are not debating judge the debating Position Y agent on argument strength, relevance, persuasiveness and clarity, and vote to keep or replace it.',
    `- When ${rotation.threshold} or more judges vote to replace it, a Position Y agent who has not debated yet takes over (at most ${rotation.limit} times).`,
    '- Speak as a debater: address the motion and your opponent directly, in plain prose without headings.',
    knowledgeText(scenario),
  ].join('\n');
}

/** The transcript message: the running summary, then the recent rounds verbatim. */
export function transcriptText(view: TranscriptView, positions: { x: string; y: string }): string {
  const parts: string[] = ['## Debate so far'];
  if (view.summary)
    parts.push(`### Summary of rounds 1-${view.summary.throughRound}\n${view.summary.text.trim()}`);
  for (const round of view.rounds) {
    const lines = [`### Round ${round.number}`];
    for (const statement of round.statements) {
      const label = statement.position === 'X' ? positions.x : positions.y;
      lines.push(
        `**${statement.agent}** (Position ${statement.position}, ${label}):\n${statement.text.trim()}`,
      );
    }
    if (round.transition) {
      lines.push(`Moderator: ${round.transition.summary} ${round.transition.focus}`);
    }
    parts.push(lines.join('\n\n'));
  }
  if (!view.summary && view.rounds.length === 0) parts.push('The debate has not started yet.');
  return parts.join('\n\n');
}

export function buildMessages(scenario: Scenario, view: TranscriptView, task: string): ChatMessage[] {
  return [
    { role: 'system', content: sharedSystemPrompt(scenario) },
    { role: 'user', content: transcriptText(view, scenario.positions) },
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
