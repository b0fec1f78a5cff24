/**
 * Sends a normal answer, streamed or whole, pacing it in real time: simulated seconds times
 * `speed`. Load and prompt evaluation happen before the first piece; each piece then waits for
 * its share of the decode time. Deadlines are absolute, so timer overhead does not accumulate.
 */
import type { ServerResponse } from 'node:http';
import { type FinalNumbers, finalChunk, type Piece, pieceChunk, wholeResponse } from './chunks.js';
import type { Answer, Endpoint } from './completion.js';
import { sendJson, sleepUntil } from './http.js';

/** Everything needed to send one answer. */
export interface DeliveryPlan {
  endpoint: Endpoint;
  model: string;
  stream: boolean;
  answer: Answer;
  pieces: Piece[];
  numbers: FinalNumbers;
  /** Real time at which the model is loaded (later than now while a load is simulated). */
  readyAt: number;
  /** Real milliseconds per simulated second. */
  msPerSecond: number;
  decodeTokensPerSecond: number;
}

/** Sends the answer; resolves true when it was sent completely, false if the client left or the server closed. */
export async function deliver(
  res: ServerResponse,
  plan: DeliveryPlan,
  signal: AbortSignal,
): Promise<boolean> {
  const { times } = plan.numbers;
  if (!(await sleepUntil(plan.readyAt, signal))) return false;
  const decodeStart = Date.now() + times.promptSeconds * plan.msPerSecond;
  const msPerToken = plan.msPerSecond / plan.decodeTokensPerSecond;

  if (!plan.stream) {
    const end = decodeStart + plan.answer.evalCount * msPerToken;
    if (!(await sleepUntil(end, signal))) return false;
    sendJson(res, 200, wholeResponse(plan.endpoint, plan.model, plan.answer, plan.numbers));
    return true;
  }

  // Like Ollama, nothing is sent until prompt evaluation is over and the first piece is ready.
  if (!(await sleepUntil(decodeStart, signal))) return false;
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  let emitted = 0;
  for (const piece of plan.pieces) {
    emitted += piece.tokens;
    // Only wait when pacing is on; with speed 0 the whole stream is written at once.
    if (plan.msPerSecond > 0 && !(await sleepUntil(decodeStart + emitted * msPerToken, signal))) return false;
    if (res.destroyed) return false;
    res.write(`${JSON.stringify(pieceChunk(plan.endpoint, plan.model, piece))}\n`);
  }
  if (!(await sleepUntil(decodeStart + plan.answer.evalCount * msPerToken, signal))) return false;
  res.end(`${JSON.stringify(finalChunk(plan.endpoint, plan.model, plan.answer, plan.numbers))}\n`);
  return true;
}
