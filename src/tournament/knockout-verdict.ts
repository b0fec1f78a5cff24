/**
 * The tournament's verdict on a finished knockout. A knockout's own judges are its Position Y
 * agents, who score each exchange to decide when the Y on the floor rotates: that is the format's
 * mechanism and stays. They are one of the two models of the pairing, so their scores never decide
 * the match: the match's judge (a model outside the match, and outside both debaters' families
 * where the models allow; judge-rule.ts) reads the finished debate and names the position that
 * argued better. It is asked twice, the second time with the other position's statements first
 * (side swap); when its two answers disagree, the match is a tie.
 *
 * The verdict is kept in the run's folder (`tournament-verdict.json`), written once both answers
 * are in: a tournament that resumes reads it back and never asks again, and one killed while asking
 * asks again, since nothing was kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { answerJsonSchema, boundedText } from '../judging/answer-fields.js';
import { readStructuredAnswer } from '../judging/structured-answer.js';
import type { ChatMessage, ModelProvider } from '../llm/provider.js';
import { safeChat } from '../llm/safe-call.js';
import { derivedSeed } from '../rotation/seeded-random.js';
import { writeFileAtomic } from '../store/write-files.js';

/** The file in a run's folder that holds the tournament's verdict on it. */
export const VERDICT_FILE = 'tournament-verdict.json';

/** A knockout's positions, as the verdict names them. */
export type KnockoutSide = 'x' | 'y';

/** The tournament's verdict on one knockout, as kept in its run folder. */
export interface KnockoutVerdict {
  judge: string;
  /** The side each reading listed first: `x` in the first, `y` in the swapped one. */
  presentedFirst: [KnockoutSide, KnockoutSide];
  /** The position each reading picked; null where the answer was unusable. */
  picks: [KnockoutSide | null, KnockoutSide | null];
  /** Each reading's reasons, as the judge wrote them. */
  reasons: [string | null, string | null];
  /** Both readings agreed: that side; they disagreed: `tie`; one was unusable: the other's pick. */
  winner: KnockoutSide | 'tie';
}

/** Tokens of the answer, the window, and the share of it the debate's statements may fill. */
const ANSWER_TOKENS = 300;
const CONTEXT_WINDOW = 8192;
const PROMPT_OVERHEAD_TOKENS = 600;
/** Characters a token at worst (English), so the statements fit the window whatever the model. */
const CHARS_PER_TOKEN = 3;
const TEMPERATURE = 0.2;
/** Tries of one reading whose answer is unusable: the first and one more with another seed. */
const READING_TRIES = 2;
const POLICY = { attempts: 3, backoffMs: 1000, maxBackoffMs: 15000 };

const answerSchema = (first: KnockoutSide) =>
  z.object({
    reasons: boundedText(600),
    winner: z.enum(first === 'x' ? ['x', 'y'] : ['y', 'x']),
  });

interface Statement {
  position?: string;
  text?: string;
}

interface KnockoutRecord {
  topic?: string;
  positions?: { x?: string; y?: string };
  rounds?: Array<{ number?: number; statements?: Statement[] }>;
}

/** The debate as spoken, every statement headed by its round and side, each held to `cap` characters. */
function debateRecord(record: KnockoutRecord, cap: number): string {
  const lines = (record.rounds ?? []).flatMap((round, at) =>
    (round.statements ?? []).map((statement) => {
      const text = (statement.text ?? '').trim();
      const shown = text.length > cap ? `${text.slice(0, cap).trimEnd()} […]` : text;
      const side = statement.position === 'X' ? 'x' : 'y';
      return `### Round ${round.number ?? at + 1}, side ${side}\n${shown}`;
    }),
  );
  return lines.length > 0 ? lines.join('\n\n') : '(no statement was made)';
}

/**
 * The judge's messages. Both readings share the record, in the order spoken, so a server's prompt
 * cache serves the second from the first; the side swap changes only the task after it: the list of
 * the sides and the answer's order name `first` first (as the formal verdict does).
 */
export function verdictMessages(record: KnockoutRecord, first: KnockoutSide): ChatMessage[] {
  const label = (side: KnockoutSide) =>
    `${side} — ${(side === 'x' ? record.positions?.x : record.positions?.y) ?? side.toUpperCase()}`;
  const second: KnockoutSide = first === 'x' ? 'y' : 'x';
  const count = (record.rounds ?? []).reduce((sum, round) => sum + (round.statements?.length ?? 0), 0);
  const room = (CONTEXT_WINDOW - ANSWER_TOKENS - PROMPT_OVERHEAD_TOKENS) * CHARS_PER_TOKEN;
  const cap = Math.max(200, Math.floor(room / Math.max(1, count)));
  return [
    {
      role: 'system',
      content:
        "You judge a finished debate between two sides. Decide which side argued its position better: stronger evidence, sounder reasoning, and direct answers to the other side. Length and confidence are not merits. Answer in JSON with your reasons, then the winner: the side's letter.",
    },
    {
      role: 'user',
      content: [
        `Motion: ${record.topic ?? ''}`,
        `## The debate\n\n${debateRecord(record, cap)}`,
        `## Your task\n\nSides: ${label(first)}; ${label(second)}.\nWhich side argued its position better? Give your reasons in two or three sentences, then the winner: "${first}" or "${second}".`,
      ].join('\n\n'),
    },
  ];
}

async function oneReading(
  provider: ModelProvider,
  judge: string,
  record: KnockoutRecord,
  first: KnockoutSide,
  seed: number,
  signal: AbortSignal,
): Promise<{ pick: KnockoutSide; reasons: string } | null> {
  const schema = answerSchema(first);
  for (let attempt = 0; attempt < READING_TRIES; attempt += 1) {
    const { result } = await safeChat(
      provider,
      {
        model: judge,
        messages: verdictMessages(record, first),
        maxTokens: ANSWER_TOKENS,
        contextWindow: CONTEXT_WINDOW,
        temperature: TEMPERATURE,
        seed: derivedSeed(seed, `verdict:${first}:${attempt}`),
        jsonSchema: answerJsonSchema(schema),
      },
      { policy: POLICY, signal },
    );
    const answer = readStructuredAnswer(result.text, schema, result.stopReason);
    if (answer.ok) return { pick: answer.value.winner, reasons: answer.value.reasons };
  }
  return null;
}

/** The verdict kept in `runDir`, if the tournament asked for it before. */
export function readKnockoutVerdict(runDir: string): KnockoutVerdict | null {
  const file = path.join(runDir, VERDICT_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as KnockoutVerdict) : null;
}

/** Thrown when neither reading gave a usable answer: nothing is kept, and the next run asks again. */
export class VerdictUnusable extends Error {
  override name = 'VerdictUnusable';
}

/**
 * The verdict on the knockout whose run folder is `runDir`: the one kept there, or the judge's two
 * readings now, kept before it is returned.
 */
export async function knockoutVerdict(options: {
  provider: ModelProvider;
  judge: string;
  runDir: string;
  seed: number;
  signal: AbortSignal;
}): Promise<KnockoutVerdict> {
  const kept = readKnockoutVerdict(options.runDir);
  if (kept) return kept;
  const record = JSON.parse(
    readFileSync(path.join(options.runDir, 'transcript.json'), 'utf8'),
  ) as KnockoutRecord;
  const [inOrder, swapped] = await Promise.all(
    (['x', 'y'] as const).map((first) =>
      oneReading(options.provider, options.judge, record, first, options.seed, options.signal),
    ),
  );
  if (!inOrder && !swapped)
    throw new VerdictUnusable(
      `the judge ${options.judge} gave no usable verdict in either side order; the next run asks again`,
    );
  const picks: KnockoutVerdict['picks'] = [inOrder?.pick ?? null, swapped?.pick ?? null];
  const winner =
    picks[0] && picks[1]
      ? picks[0] === picks[1]
        ? picks[0]
        : 'tie'
      : ((picks[0] ?? picks[1]) as KnockoutSide);
  const verdict: KnockoutVerdict = {
    judge: options.judge,
    presentedFirst: ['x', 'y'],
    picks,
    reasons: [inOrder?.reasons ?? null, swapped?.reasons ?? null],
    winner,
  };
  writeFileAtomic(path.join(options.runDir, VERDICT_FILE), `${JSON.stringify(verdict, null, 2)}\n`);
  return verdict;
}
