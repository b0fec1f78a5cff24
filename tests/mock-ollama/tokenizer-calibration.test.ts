/**
 * The simulator counts tokens as a real 7-8B vocabulary does: the answers a little above it, never
 * below, and the prompts within a few per cent. Its token counts are what the benchmarks' seconds
 * and the prompt-cache figures are made of, so a tokenizer that undercounts would flatter the
 * engine, and one that overcounts JSON (a token for every quote mark and colon, where real
 * vocabularies have `{"`, `":"` and `","` as single tokens) makes every structured answer look
 * dearer than it is.
 *
 * The reference is Mistral 7B's own vocabulary (mistral-tokenizer-js, its 32,000 pieces and
 * merges); llama3's larger vocabulary counts fewer tokens still, so a count at or above Mistral's
 * is at or above both. The texts are those of a whole simulated knockout, read at the HTTP
 * boundary: what each call sent, and what the simulator answered and said it decoded.
 */
import path from 'node:path';
import mistralTokenizer from 'mistral-tokenizer-js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/config/load-scenario.js';
import { OllamaProvider } from '../../src/llm/ollama-provider.js';
import type { ChatOptions, ChatRequest, ChatResult, ModelProvider } from '../../src/llm/provider.js';
import { countTokens, type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { projectRoot } from '../helpers/cli.js';
import { inProcessRun } from '../helpers/in-process-run.js';

const servers: MockOllama[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Kind = 'prose' | 'json';

interface Counted {
  kind: Kind;
  /** Tokens the simulator said it decoded (`eval_count`). */
  simulated: number;
  /** Mistral's count of the same text. */
  mistral: number;
  /** The prompt's messages: the simulator's count and Mistral's. */
  promptSimulated: number;
  promptMistral: number;
}

const mistralCount = (text: string): number => mistralTokenizer.encode(text, false, false).length;

/** Every call of a simulated run of the shipped abortion knockout, counted both ways. */
async function countedKnockout(): Promise<Counted[]> {
  const scenario = await loadScenario(path.join(projectRoot, 'scenarios', 'abortion.yaml'));
  const server = await startMockOllama({
    models: ['llama3', 'mistral'],
    profile: 'instant',
    speechLength: { minWords: 350, maxWords: 650 },
  });
  servers.push(server);
  const inner = new OllamaProvider({ host: server.url });
  const counted: Counted[] = [];
  const provider: ModelProvider = {
    host: inner.host,
    listModels: (options) => inner.listModels(options),
    version: (options) => inner.version(options),
    async chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
      const result = await inner.chat(request, options);
      const prompt = request.messages.map((message) => message.content);
      counted.push({
        kind: request.jsonSchema === undefined ? 'prose' : 'json',
        simulated: result.outputTokens,
        mistral: mistralCount(result.text),
        promptSimulated: prompt.reduce((sum, text) => sum + countTokens(text), 0),
        promptMistral: prompt.reduce((sum, text) => sum + mistralCount(text), 0),
      });
      return result;
    },
  };
  await inProcessRun(scenario, provider);
  return counted;
}

const total = (calls: Counted[], field: keyof Omit<Counted, 'kind'>) =>
  calls.reduce((sum, call) => sum + call[field], 0);

describe("the simulator's tokenizer against Mistral 7B's", () => {
  it('counts answers, prose and JSON, and prompts at or a little above the real vocabulary', async () => {
    const calls = await countedKnockout();
    const prose = calls.filter((call) => call.kind === 'prose');
    const json = calls.filter((call) => call.kind === 'json');
    // Statements, and the judges' and note-taker's structured answers.
    expect(prose.length).toBeGreaterThanOrEqual(12);
    expect(json.length).toBeGreaterThanOrEqual(20);
    const ratio = (
      part: Counted[],
      simulated: 'simulated' | 'promptSimulated',
      real: 'mistral' | 'promptMistral',
    ) => total(part, simulated) / total(part, real);
    // Prose: about 4 characters a token in both.
    expect(ratio(prose, 'simulated', 'mistral')).toBeGreaterThanOrEqual(1);
    expect(ratio(prose, 'simulated', 'mistral')).toBeLessThanOrEqual(1.1);
    // JSON: punctuation runs such as `":"` and `"},` are one or two tokens, not one per mark.
    expect(ratio(json, 'simulated', 'mistral')).toBeGreaterThanOrEqual(1);
    expect(ratio(json, 'simulated', 'mistral')).toBeLessThanOrEqual(1.2);
    // Prompts: rules, background, transcript, tasks and the lists in them.
    expect(ratio(calls, 'promptSimulated', 'promptMistral')).toBeGreaterThanOrEqual(0.97);
    expect(ratio(calls, 'promptSimulated', 'promptMistral')).toBeLessThanOrEqual(1.1);
  });
});
