/**
 * Sends a normal answer, streamed or whole, paced by `pace` (the shared GPU clock): load and
 * prompt evaluation happen before the first piece; each piece then waits for its tokens.
 */
import type { ServerResponse } from 'node:http';
import { type FinalNumbers, finalChunk, type Piece, pieceChunk, wholeResponse } from './chunks.js';
import type { Answer, Endpoint } from './completion.js';
import { sendJson } from './http.js';
import type { Pace } from './pace.js';

/** Everything needed to send one answer. */
export interface DeliveryPlan {
  endpoint: Endpoint;
  model: string;
  stream: boolean;
  answer: Answer;
  pieces: Piece[];
  numbers: FinalNumbers;
  pace: Pace;
}

/** Sends the answer; resolves true when it was sent completely, false if the client left or the server closed. */
export async function deliver(
  res: ServerResponse,
  plan: DeliveryPlan,
  signal: AbortSignal,
): Promise<boolean> {
  const { pace } = plan;
  if (!(await pace.begin(signal))) return false;

  if (!plan.stream) {
    if (!(await pace.reach(plan.answer.evalCount, signal))) return false;
    sendJson(res, 200, wholeResponse(plan.endpoint, plan.model, plan.answer, plan.numbers));
    return true;
  }

  // Like Ollama, nothing is sent until prompt evaluation is over and the first piece is ready.
  if (!(await pace.reach(0, signal))) return false;
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  let emitted = 0;
  for (const piece of plan.pieces) {
    emitted += piece.tokens;
    // Only wait when pacing is on; with speed 0 the whole stream is written at once.
    if (pace.paced && !(await pace.reach(emitted, signal))) return false;
    if (res.destroyed) return false;
    res.write(`${JSON.stringify(pieceChunk(plan.endpoint, plan.model, piece))}\n`);
  }
  if (!(await pace.reach(plan.answer.evalCount, signal))) return false;
  res.end(`${JSON.stringify(finalChunk(plan.endpoint, plan.model, plan.answer, plan.numbers))}\n`);
  return true;
}
