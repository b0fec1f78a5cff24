/**
 * Scripted faults: error replies, a request that never answers, a connection reset before any
 * answer, streams that break off, carry an error line, contain invalid JSON, or never end (a
 * server that ignores the token cap). (`empty` is a normal answer and is not handled here.)
 */
import type { ServerResponse } from 'node:http';
import { type Piece, pieceChunk } from './chunks.js';
import type { Endpoint } from './completion.js';
import { sendError, writeFlushed } from './http.js';
import { openAiFirstEvent, openAiPieceEvent, sendOpenAiError } from './openai-api.js';
import type { ScriptFault, ScriptRule } from './script.js';
import { tokenize } from './tokens.js';
import type { RecordedRequest } from './types.js';

/** Default status and message of the faults that are plain error replies. */
const ERROR_REPLIES: Partial<Record<ScriptFault, { status: number; message: (model: string) => string }>> = {
  'error-500': { status: 500, message: () => 'llama runner process has terminated: exit status 2' },
  'busy-503': {
    status: 503,
    message: () => 'server busy, please try again.  maximum pending requests exceeded',
  },
  'not-found-404': { status: 404, message: (model) => `model "${model}" not found, try pulling it first` },
  'bad-request-400': { status: 400, message: () => 'invalid request' },
};

const STREAM_ERROR = 'an error was encountered while running the model';

/** What a fault needs to know about the request it breaks. */
export interface FaultContext {
  endpoint: Endpoint;
  model: string;
  stream: boolean;
  /** The pieces a normal answer would have streamed; some are sent before the fault strikes. */
  pieces: Piece[];
  /** Which wire the request came in on; default Ollama's. */
  api?: 'ollama' | 'openai';
  /** Where an endless stream counts the bytes it wrote. */
  record?: RecordedRequest;
}

/**
 * An endless stream stops by itself only after this many bytes, so that a client that never stops
 * reading fails its test instead of running for ever.
 */
const ENDLESS_CEILING_BYTES = 64 * 1024 * 1024;

/**
 * A server that ignores the token cap and never says it is done: the answer's tokens, one per
 * event as real servers send them, over and over, until the client closes the connection.
 */
async function playEndless(res: ServerResponse, ctx: FaultContext): Promise<void> {
  const text = ctx.pieces
    .filter((piece) => piece.kind === 'content')
    .map((piece) => piece.text)
    .join('');
  const tokens = tokenize(text === '' ? 'The debate goes on and on. ' : `${text} `);
  const event =
    ctx.api === 'openai'
      ? (token: string) => openAiPieceEvent(ctx.model, token)
      : (token: string) =>
          `${JSON.stringify(pieceChunk(ctx.endpoint, ctx.model, { kind: 'content', text: token }))}\n`;
  res.writeHead(200, { 'Content-Type': ctx.api === 'openai' ? 'text/event-stream' : 'application/x-ndjson' });
  let sent = 0;
  const count = (bytes: number) => {
    sent += bytes;
    if (ctx.record) ctx.record.bytesSent = sent;
  };
  if (ctx.api === 'openai') {
    const first = openAiFirstEvent(ctx.model);
    res.write(first);
    count(Buffer.byteLength(first));
  }
  for (let index = 0; sent < ENDLESS_CEILING_BYTES; index += 1) {
    if (res.destroyed || res.writableEnded) return;
    const line = event(tokens[index % tokens.length] ?? ' ');
    count(Buffer.byteLength(line));
    // Waits for the socket to take what it has before writing more, as a server does.
    if (!res.write(line)) {
      const drained = await new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => () => {
          res.off('drain', onDrain);
          res.off('close', onClose);
          resolve(ok);
        };
        const onDrain = done(true);
        const onClose = done(false);
        res.once('drain', onDrain);
        res.once('close', onClose);
      });
      if (!drained) return;
    } else if (index % 256 === 255) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  res.end();
}

/** Plays `rule.fault` on `res`. Resolves once the fault is delivered (a hang resolves at once). */
export async function playFault(res: ServerResponse, rule: ScriptRule, ctx: FaultContext): Promise<void> {
  const fault = rule.fault;
  if (fault === undefined || fault === 'empty') return;
  const reply = ERROR_REPLIES[fault];
  if (reply !== undefined) {
    const send = ctx.api === 'openai' ? sendOpenAiError : sendError;
    send(res, rule.status ?? reply.status, rule.error ?? reply.message(ctx.model));
    return;
  }
  // A hang leaves the response open; the socket ends when the client gives up or the server closes.
  if (fault === 'hang') return;
  // The server took the connection and drops it (TCP reset) without a byte of answer.
  if (fault === 'reset-connection') {
    res.socket?.resetAndDestroy();
    return;
  }
  if (fault === 'endless') {
    if (ctx.stream) return playEndless(res, ctx);
    // Without streaming an endless answer is one that never arrives.
    return;
  }
  if (ctx.api === 'openai') return playOpenAiStreamFault(res, rule, ctx);
  const line = (piece: Piece): string => `${JSON.stringify(pieceChunk(ctx.endpoint, ctx.model, piece))}\n`;
  const lead = ctx.pieces.slice(0, 3);
  const fallback: Piece = { kind: 'content', text: 'The', tokens: 1 };
  if (lead.length === 0) lead.push(fallback);

  if (fault === 'error-in-stream') {
    if (!ctx.stream) {
      // Without streaming, Ollama reports a failure during generation as a plain error reply.
      sendError(res, rule.status ?? 500, rule.error ?? STREAM_ERROR);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.end(`${lead.map(line).join('')}${JSON.stringify({ error: rule.error ?? STREAM_ERROR })}\n`);
    return;
  }

  if (fault === 'malformed-json') {
    const broken = `{"model":${JSON.stringify(ctx.model)},"created_at":"${new Date().toISOString()}","message":{"role":"assistant","content":"unterminated`;
    if (!ctx.stream) {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(broken);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.end(`${line(lead[0] ?? fallback)}${broken}\n`);
    return;
  }

  // cut-stream: send part of the body, then drop the connection without finishing it.
  if (!ctx.stream) {
    const partial = `{"model":${JSON.stringify(ctx.model)},"created_at":"${new Date().toISOString()}",`;
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': 4096 });
    await writeFlushed(res, partial);
  } else {
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    await writeFlushed(res, lead.map(line).join(''));
  }
  res.socket?.destroy();
  res.destroy();
}

/** The stream faults on the OpenAI-compatible wire: an error event, a broken event, a cut. */
async function playOpenAiStreamFault(
  res: ServerResponse,
  rule: ScriptRule,
  ctx: FaultContext,
): Promise<void> {
  const lead = ctx.pieces.filter((piece) => piece.kind === 'content').slice(0, 3);
  const events = (lead.length === 0 ? [{ text: 'The' }] : lead)
    .map((piece) => openAiPieceEvent(ctx.model, piece.text))
    .join('');
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  if (rule.fault === 'error-in-stream') {
    // As llama-server sends it when its output parser rejects the text: no finish_reason, no [DONE].
    const error = { error: { code: 500, message: rule.error ?? STREAM_ERROR, type: 'server_error' } };
    res.end(`${openAiFirstEvent(ctx.model)}${events}data: ${JSON.stringify(error)}\n\n`);
    return;
  }
  if (rule.fault === 'malformed-json') {
    res.end(`${events}data: {"id":"chatcmpl-mock","choices":[{"delta":{"content":"unterminated\n\n`);
    return;
  }
  await writeFlushed(res, events);
  res.socket?.destroy();
  res.destroy();
}
