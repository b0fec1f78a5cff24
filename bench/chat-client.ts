/**
 * What one streamed chat costs this process in CPU, by the way it is read: through the ollama
 * client (web streams, as the adapter did before), through the adapter's own stream reader
 * (undici's request API), and a floor: node:http receiving the same stream without parsing it.
 * The mock Ollama (instant profile) runs in another process. `npm run bench:client [-- calls]`.
 */
import http from 'node:http';
import { Ollama } from 'ollama';
import { createOllamaFetch } from '../src/llm/ollama-fetch.js';
import { OllamaProvider } from '../src/llm/ollama-provider.js';
import { startMockProcess } from './mock-process.js';

const calls = Number(process.argv[2] ?? 400);
const { url, process: mock } = await startMockProcess();

// A prompt of the size a debater sees in mid-debate (about 2,500 tokens).
const background = 'Motion: Should abortion be legal? The debate so far, in full. '.repeat(150);
const messages = (call: number) => [
  { role: 'system' as const, content: background },
  { role: 'user' as const, content: `Give your statement for call ${call}.` },
];
const body = (call: number) => ({
  model: 'llama3',
  messages: messages(call),
  stream: true as const,
  options: { num_predict: 300, num_ctx: 8192, temperature: 0.7, seed: call },
});

const provider = new OllamaProvider({ host: url });
const agent = new http.Agent({ keepAlive: true });
let reads = 0;

const ways: Record<string, (call: number) => Promise<unknown>> = {
  'ollama client (web streams)': async (call) => {
    const client = new Ollama({ host: url, fetch: createOllamaFetch(undefined) });
    let text = '';
    for await (const part of await client.chat(body(call))) text += part.message.content;
    return text;
  },
  'adapter (undici request, own line reader)': (call) =>
    provider.chat({
      model: 'llama3',
      messages: messages(call),
      maxTokens: 300,
      contextWindow: 8192,
      temperature: 0.7,
      seed: call,
    }),
  'floor: node:http, bytes only': (call) =>
    new Promise((resolve, reject) => {
      const outgoing = http.request(
        `${url}/api/chat`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (response) => {
          response.on('data', () => {
            reads += 1;
          });
          response.on('end', resolve);
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(JSON.stringify(body(call)));
    }),
};

const rows = [];
try {
  for (const [way, call] of Object.entries(ways)) {
    for (let index = 0; index < 50; index += 1) await call(index); // warm-up
    reads = 0;
    const before = process.cpuUsage();
    for (let index = 0; index < calls; index += 1) await call(index);
    const cpu = process.cpuUsage(before);
    rows.push({
      way,
      'CPU ms per call': Math.round(((cpu.user + cpu.system) / 1000 / calls) * 100) / 100,
      ...(reads > 0 ? { 'socket reads per call': Math.round((reads / calls) * 10) / 10 } : {}),
    });
  }
} finally {
  mock.kill('SIGINT');
}
console.table(rows);
