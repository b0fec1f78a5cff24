/**
 * Ollama's load and unload requests: a chat without messages (or a generate without a prompt)
 * loads the model and answers once it is ready; with `keep_alive: 0` it unloads the model.
 */
import type { ServerResponse } from 'node:http';
import type { Endpoint } from './completion.js';
import { sendJson, sleepUntil } from './http.js';
import { QueueAbortedError, type Scheduler } from './scheduler.js';

/** True for Ollama's load and unload requests: a chat without messages, a generate without a prompt. */
export function isLoadRequest(endpoint: Endpoint, body: unknown): boolean {
  const fields = body as Record<string, unknown>;
  if (endpoint === 'chat') return !Array.isArray(fields.messages) || fields.messages.length === 0;
  return typeof fields.prompt !== 'string' || fields.prompt === '';
}

/**
 * Loads (or, with keep_alive 0, unloads) a model without running it, answering as Ollama does:
 * one JSON object with `done_reason` "load" or "unload", once the model is ready.
 */
export async function serveLoad(
  scheduler: Scheduler,
  endpoint: Endpoint,
  request: { model: string; keepAliveMs: number },
  modelName: string,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const unload = request.keepAliveMs === 0;
  if (unload) scheduler.unload(modelName);
  else {
    try {
      const readyAt = await scheduler.preload(modelName, request.keepAliveMs, signal);
      if (!(await sleepUntil(readyAt, signal))) return;
    } catch (error) {
      if (error instanceof QueueAbortedError) return;
      throw error;
    }
  }
  const reply = endpoint === 'chat' ? { message: { role: 'assistant', content: '' } } : { response: '' };
  sendJson(res, 200, {
    model: request.model,
    created_at: new Date().toISOString(),
    ...reply,
    done: true,
    done_reason: unload ? 'unload' : 'load',
  });
}
