/**
 * Response objects in Ollama's wire format: streamed pieces, the final chunk with its counters
 * and nanosecond durations, and how an answer is split into streamed pieces.
 */
import type { Answer, Endpoint } from './completion.js';
import { type SimulatedTimes, toNanoseconds } from './profiles.js';
import type { Rng } from './random.js';
import { tokenize } from './tokens.js';

/** One streamed piece of output, with the number of tokens it carries. */
export interface Piece {
  kind: 'thinking' | 'content';
  text: string;
  tokens: number;
}

/** Splits thinking and content into small groups of tokens, as a model streams them. */
export function splitPieces(answer: Answer, rng: Rng): Piece[] {
  const pieces: Piece[] = [];
  for (const kind of ['thinking', 'content'] as const) {
    const tokens = tokenize(answer[kind]);
    for (let i = 0; i < tokens.length; ) {
      const size = rng.int(1, 4);
      const group = tokens.slice(i, i + size);
      pieces.push({ kind, text: group.join(''), tokens: group.length });
      i += size;
    }
  }
  return pieces;
}

/** A streamed, not-yet-done chunk. */
export function pieceChunk(endpoint: Endpoint, model: string, piece: Pick<Piece, 'kind' | 'text'>): object {
  const created_at = new Date().toISOString();
  const content = piece.kind === 'content' ? piece.text : '';
  const thinking = piece.kind === 'thinking' ? { thinking: piece.text } : {};
  if (endpoint === 'chat') {
    return { model, created_at, message: { role: 'assistant', content, ...thinking }, done: false };
  }
  return { model, created_at, response: content, ...thinking, done: false };
}

/** Counters and durations of a finished request. */
export interface FinalNumbers {
  promptEvalCount: number;
  times: SimulatedTimes;
  /** Legacy `context` token ids, only for /api/generate. */
  context?: number[];
}

function finalFields(answer: Answer, numbers: FinalNumbers): object {
  return {
    done: true,
    done_reason: answer.doneReason,
    ...(numbers.context === undefined ? {} : { context: numbers.context }),
    total_duration: toNanoseconds(numbers.times.totalSeconds),
    load_duration: toNanoseconds(numbers.times.loadSeconds),
    prompt_eval_count: numbers.promptEvalCount,
    prompt_eval_duration: toNanoseconds(numbers.times.promptSeconds),
    eval_count: answer.evalCount,
    eval_duration: toNanoseconds(numbers.times.evalSeconds),
  };
}

/** The last chunk of a stream: empty content plus the counters. */
export function finalChunk(endpoint: Endpoint, model: string, answer: Answer, numbers: FinalNumbers): object {
  const created_at = new Date().toISOString();
  if (endpoint === 'chat') {
    return {
      model,
      created_at,
      message: { role: 'assistant', content: '' },
      ...finalFields(answer, numbers),
    };
  }
  return { model, created_at, response: '', ...finalFields(answer, numbers) };
}

/** The single object of a non-streamed reply: whole content plus the counters. */
export function wholeResponse(
  endpoint: Endpoint,
  model: string,
  answer: Answer,
  numbers: FinalNumbers,
): object {
  const created_at = new Date().toISOString();
  const thinking = answer.thinking === '' ? {} : { thinking: answer.thinking };
  if (endpoint === 'chat') {
    return {
      model,
      created_at,
      message: { role: 'assistant', content: answer.content, ...thinking },
      ...finalFields(answer, numbers),
    };
  }
  return { model, created_at, response: answer.content, ...thinking, ...finalFields(answer, numbers) };
}
