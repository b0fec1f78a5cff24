/**
 * Thinking models: asked to think briefly, and after an answer that was all thinking (the model
 * thought until its cap and wrote nothing) retried once with a larger budget, within the window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIEF_THINKING, fittedChat } from '../../src/context/fitted-call.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import type { ChatRequest } from '../../src/llm/provider.js';
import { ModelCallFailed } from '../../src/llm/safe-call.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';

const request = (task: string, think = true): ChatRequest => ({
  model: 'qwen3',
  messages: [
    { role: 'system', content: 'You debate whether cities should ban cars.' },
    { role: 'user', content: 'The debate has not started yet.' },
    { role: 'user', content: `Your task: ${task}` },
  ],
  maxTokens: 60,
  contextWindow: 4096,
  temperature: 0.7,
  seed: 9,
  think,
});

const policy = { attempts: 3, backoffMs: 0, maxBackoffMs: 0 };

let server: MockOllama;
beforeAll(async () => {
  server = await startMockOllama({
    models: ['qwen3'],
    script: [
      // About 80 tokens of thinking: more than a 60-token cap, less than twice it.
      { match: { text: 'SHORT-THOUGHT' }, thinking: 'Let me weigh this. '.repeat(16), reply: 'Ban them.' },
      // Thinking that no budget holds.
      { match: { text: 'ENDLESS-THOUGHT' }, thinking: 'Let me weigh this. '.repeat(200), reply: 'Ban them.' },
      { match: { text: 'PLAIN' }, reply: 'Ban them.' },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

const chats = (text: string) =>
  server.requests
    .filter((item) => item.path === '/api/chat' && JSON.stringify(item.body).includes(text))
    .map((item) => item.body as { options: { num_predict: number }; messages: Array<{ content: string }> });

describe('a thinking model', () => {
  it('is asked to think briefly, and gets a larger budget after an answer that was all thinking', async () => {
    const provider = new OllamaProvider({ host: server.url });
    const answer = await fittedChat(provider, request('SHORT-THOUGHT'), { what: 'Avery’s opening', policy });
    expect(answer.result.text).toBe('Ban them.');
    const sent = chats('SHORT-THOUGHT');
    expect(sent.map((body) => body.options.num_predict)).toEqual([60, 120]);
    expect(sent[0]?.messages.at(-1)?.content).toContain(BRIEF_THINKING);
    expect(answer.messages.at(-1)?.content).toContain(BRIEF_THINKING);
    expect(answer.usage.thinkingTokens).toBeGreaterThan(0);
  });

  it('gets the larger budget once only', async () => {
    const provider = new OllamaProvider({ host: server.url });
    const failed = await fittedChat(provider, request('ENDLESS-THOUGHT'), {
      what: 'Avery’s opening',
      policy,
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ModelCallFailed);
    expect((failed as ModelCallFailed).last.message).toMatch(/spent all \d+ tokens thinking|empty answer/);
    expect(chats('ENDLESS-THOUGHT').map((body) => body.options.num_predict)).toEqual([60, 120, 120]);
  });

  it('a model not asked to think is not told to think briefly', async () => {
    const provider = new OllamaProvider({ host: server.url });
    await fittedChat(provider, request('PLAIN', false), { what: 'Avery’s opening', policy });
    expect(chats('PLAIN')[0]?.messages.at(-1)?.content).not.toContain(BRIEF_THINKING);
  });
});
