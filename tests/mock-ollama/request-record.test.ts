/**
 * The simulator's record of the requests it answered: whole by default (tests read it), the latest
 * N when bounded, and none on the servers whose record nobody reads (the demo's), so a long demo
 * tournament's memory does not grow with every prompt answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer } from '../../src/cli/commands/demo.js';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { debateMessages, post } from './helpers.js';

const chat = (server: MockOllama, ask: string) =>
  post(`${server.url}/api/chat`, {
    model: 'llama3',
    stream: false,
    messages: debateMessages({ ask }),
    options: { num_predict: 40 },
  }).then((response) => response.json());

const asks = (server: MockOllama) =>
  server.requests.map((request) => {
    const messages = (request.body as { messages: Array<{ content: string }> }).messages;
    return messages.at(-1)?.content.split('\n').at(-1);
  });

describe('the simulator’s request record', () => {
  const servers: MockOllama[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('keeps every request by default', async () => {
    const server = await startMockOllama({ models: ['llama3'] });
    servers.push(server);
    for (const turn of [1, 2, 3, 4, 5]) await chat(server, `Speech ${turn}.`);
    expect(asks(server)).toEqual(['Speech 1.', 'Speech 2.', 'Speech 3.', 'Speech 4.', 'Speech 5.']);
  });

  it('keeps only the latest N when bounded', async () => {
    const server = await startMockOllama({ models: ['llama3'], keepRequests: 2 });
    servers.push(server);
    for (const turn of [1, 2, 3, 4, 5]) await chat(server, `Speech ${turn}.`);
    expect(asks(server)).toEqual(['Speech 4.', 'Speech 5.']);
    // The totals still count every request.
    expect(server.stats().requests).toBe(5);
  });

  it('keeps none on the demo’s server, which answers a whole tournament', async () => {
    const server = await startDemoServer([], 'instant', 0);
    servers.push(server);
    for (const turn of [1, 2, 3]) {
      const answer = (await chat(server, `Speech ${turn}.`)) as { message?: { content?: string } };
      expect(answer.message?.content?.length).toBeGreaterThan(0);
    }
    expect(server.requests).toHaveLength(0);
    expect(server.stats().requests).toBe(3);
  });
});
