import { describe, expect, it } from 'vitest';
import { callShare, withCallShare } from '../../src/llm/call-share.js';
import type { ChatRequest, ChatResult, ModelProvider } from '../../src/llm/provider.js';

/** A provider whose chats finish when the test says, counting how many are in flight. */
function heldProvider() {
  let inFlight = 0;
  let peak = 0;
  const waiting: Array<() => void> = [];
  const provider: ModelProvider = {
    host: 'http://127.0.0.1:1',
    async chat(request: ChatRequest): Promise<ChatResult> {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight -= 1;
      return { text: request.model } as unknown as ChatResult;
    },
    listModels: async () => [],
    version: async () => '0.0.0',
    contextWindow: async () => 4096,
  };
  return {
    provider,
    peak: () => peak,
    waiting: () => waiting.length,
    finishOne: () => waiting.shift()?.(),
  };
}

const request = (model: string): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 8,
  contextWindow: 2048,
  temperature: 0,
  seed: 1,
});

describe("a debate's share of the hosts in a batch", () => {
  it('is the calls the hosts take at once divided among the debates running at once', () => {
    expect(callShare(4, 1)).toBe(4);
    expect(callShare(4, 4)).toBe(1);
    expect(callShare(8, 3)).toBe(2);
    expect(callShare(2, 0)).toBe(2);
  });

  it('is no limit when the debates outnumber the calls the hosts take at once', () => {
    expect(callShare(1, 2)).toBeUndefined();
    expect(callShare(2, 4)).toBeUndefined();
  });

  it('holds chats beyond the share until one in flight ends, and serves every one', async () => {
    const held = heldProvider();
    const shared = withCallShare(held.provider, 1);
    const answers = ['a', 'b', 'c'].map((model) => shared.chat(request(model)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.waiting()).toBe(1);
    for (let i = 0; i < 3; i += 1) {
      held.finishOne();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.all(answers);
    expect(results.map((result) => (result as unknown as { text: string }).text)).toEqual(['a', 'b', 'c']);
    expect(held.peak()).toBe(1);
  });

  it('passes what the provider offers besides chats straight through', async () => {
    const held = heldProvider();
    const shared = withCallShare(held.provider, 2);
    expect(shared.host).toBe(held.provider.host);
    expect(await shared.contextWindow?.('llama3')).toBe(4096);
    expect(shared.countTokens).toBeUndefined();
    expect(await shared.version()).toBe('0.0.0');
  });
});
