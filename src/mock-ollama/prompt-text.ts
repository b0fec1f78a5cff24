/**
 * Turns a request into the text a model would see, and reads the debate cues the engine puts in
 * its prompts (motion, positions, speaker name, side, background) so answers can be on topic.
 */
import { keyTerms } from './key-terms.js';

/** One chat message as sent to /api/chat (content may be missing for tool or image turns). */
export interface PromptMessage {
  role: string;
  content: string;
}

/**
 * Renders chat messages with a fixed template ending in the assistant header, like real chat
 * templates. Each message renders on its own, so a shared message prefix gives a shared text prefix.
 */
export function renderChat(messages: readonly PromptMessage[]): string {
  return `${messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join('')}<|assistant|>\n`;
}

/** Renders a /api/generate request; `raw` prompts are used exactly as given. */
export function renderGenerate(prompt: string, system: string | undefined, raw: boolean): string {
  if (raw) return prompt;
  const systemPart = system === undefined || system === '' ? '' : `<|system|>\n${system}\n`;
  return `${systemPart}<|user|>\n${prompt}\n<|assistant|>\n`;
}

/** Debate cues found in a prompt; every field has a usable fallback. */
export interface PromptHints {
  /** The motion as written, if the prompt had a `Motion:` line. */
  motion: string | undefined;
  /** Position labels in order of appearance (`Position X: ...`). */
  positions: string[];
  name: string | undefined;
  /** The label this speaker argues for, if given. */
  side: string | undefined;
  /** The first position that is not `side`. */
  opponent: string | undefined;
  /** Key terms from the background (or the motion and positions), best first. */
  terms: string[];
  /** The final message asks for a summary. */
  summarise: boolean;
  /** The end of the conversation before the last message: what a note-taker quotes from. */
  recent: string;
  /** The last message asks for text copied word for word (a claim or a quote). */
  quote: boolean;
  /** The length the final message asks for ("about 300 words"), if it names one. */
  words: number | undefined;
  /** How many rounds a summary asked for covers ("the summary of rounds 3-5": 3), if it says. */
  summaryRounds: number | undefined;
}

function firstLineValue(text: string, label: RegExp): string | undefined {
  const match = label.exec(text);
  const value = match?.[1]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The text of a `Background` section: from its heading to the first blank line. */
function backgroundOf(text: string): string {
  const match = /^\s*#*\s*Background\s*:?[ \t]*(.*)$/im.exec(text);
  if (match === null) return '';
  const rest = text.slice(match.index + match[0].length);
  const end = rest.search(/\n\s*\n/);
  // A note on the heading's line ("Background (shared by every participant)") is not background.
  const inline = /^\(.*\)$/.test(match[1]?.trim() ?? '') ? '' : (match[1] ?? '');
  return `${inline}\n${end === -1 ? rest : rest.slice(0, end)}`;
}

function uniqueCaseless(items: readonly string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Reads the debate cues from a conversation; name, side and summary requests come from its last message. */
export function extractHints(messages: readonly PromptMessage[]): PromptHints {
  const all = messages.map((m) => m.content).join('\n');
  const last = messages.at(-1)?.content ?? '';
  const systemText = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  const motion =
    firstLineValue(systemText, /^\s*Motion\s*:\s*(.+)$/im) ?? firstLineValue(all, /^\s*Motion\s*:\s*(.+)$/im);
  const positions = uniqueCaseless(
    [...all.matchAll(/^\s*Position\s+[\p{L}\d]+\s*:\s*(.+)$/gimu)].map((m) => (m[1] ?? '').trim()),
  ).filter((p) => p !== '');
  const name =
    firstLineValue(last, /^\s*Your name\s*:\s*(.+)$/im) ?? firstLineValue(all, /^\s*Your name\s*:\s*(.+)$/im);
  const side =
    firstLineValue(last, /^\s*You argue for\s*:\s*(.+)$/im) ??
    firstLineValue(all, /^\s*You argue for\s*:\s*(.+)$/im);
  const opponent = positions.find((p) => side === undefined || p.toLowerCase() !== side.toLowerCase());
  // The background is the richest source of terms; the motion and positions only fill in.
  const background = backgroundOf(all);
  const terms = uniqueCaseless([
    ...keyTerms(background),
    ...keyTerms(`${motion ?? ''}\n${positions.join('\n')}`),
  ]);
  // What was said last: the text after the last speaker heading (a bold name line), if any.
  const before = messages.at(-2)?.content ?? '';
  const heading = before.lastIndexOf('\n**');
  const recent = (heading === -1 ? before : before.slice(heading + 1)).slice(-3000);
  const words = /\babout (\d+) words\b/i.exec(last)?.[1];
  const covered = /\bsummary of rounds? (\d+)(?:\s*[-\u2013]\s*(\d+))?/i.exec(last);
  const summaryRounds =
    covered === null ? undefined : Number(covered[2] ?? covered[1]) - Number(covered[1]) + 1;
  return {
    motion,
    positions,
    name,
    side,
    opponent,
    terms,
    summarise: /\bSummari[sz]e|\bsummary of rounds?\b/i.test(last),
    recent,
    quote: /word for word|verbatim/i.test(last),
    words: words === undefined ? undefined : Number(words),
    summaryRounds: summaryRounds !== undefined && summaryRounds >= 1 ? summaryRounds : undefined,
  };
}
