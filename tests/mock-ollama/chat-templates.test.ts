/**
 * The simulator's chat templates against the renderings of the templates Ollama ships: the same
 * small conversation, rendered exactly as each family's template renders it.
 */
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { applyTemplate, chatTemplate, collate } from '../../src/mock-ollama/chat-templates.js';
import {
  countTokens,
  type MockOllama,
  type MockOllamaOptions,
  startMockOllama,
  TemplateChoice,
  templateNameFor,
} from '../../src/mock-ollama/index.js';

const SYSTEM = 'You are a helpful assistant.';
const FIRST = 'Hello, how are you?';
const ANSWER = "I'm doing great. How can I help you today?";
const SECOND = "I'd like to show off how chat templating works!";

const conversation = [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: FIRST },
  { role: 'assistant', content: ANSWER },
  { role: 'user', content: SECOND },
];

/** The conversation as each template renders it, generation prompt included. */
const RENDERED = {
  llama3:
    `<|start_header_id|>system<|end_header_id|>\n\n${SYSTEM}<|eot_id|>` +
    `<|start_header_id|>user<|end_header_id|>\n\n${FIRST}<|eot_id|>` +
    `<|start_header_id|>assistant<|end_header_id|>\n\n${ANSWER}<|eot_id|>` +
    `<|start_header_id|>user<|end_header_id|>\n\n${SECOND}<|eot_id|>` +
    '<|start_header_id|>assistant<|end_header_id|>\n\n',
  // The system message goes into the last user turn; the prompt ends at `[/INST]`, and an answer
  // in the history follows it after a space.
  mistral: `[INST] ${FIRST}[/INST] ${ANSWER}</s>[INST] ${SYSTEM}\n\n${SECOND}[/INST]`,
  chatml:
    `<|im_start|>system\n${SYSTEM}<|im_end|>\n` +
    `<|im_start|>user\n${FIRST}<|im_end|>\n` +
    `<|im_start|>assistant\n${ANSWER}<|im_end|>\n` +
    `<|im_start|>user\n${SECOND}<|im_end|>\n` +
    '<|im_start|>assistant\n',
  // No system role: the system message is a user turn of its own, where it stands.
  gemma2:
    `<start_of_turn>user\n${SYSTEM}<end_of_turn>\n` +
    `<start_of_turn>user\n${FIRST}<end_of_turn>\n` +
    `<start_of_turn>model\n${ANSWER}<end_of_turn>\n` +
    `<start_of_turn>user\n${SECOND}<end_of_turn>\n` +
    '<start_of_turn>model\n',
  generic:
    `<|system|>\n${SYSTEM}\n<|user|>\n${FIRST}\n<|assistant|>\n${ANSWER}\n<|user|>\n${SECOND}\n` +
    '<|assistant|>\n',
} as const;

describe('chat templates', () => {
  for (const [name, expected] of Object.entries(RENDERED)) {
    it(`renders system, user, assistant, user like the ${name} template`, () => {
      expect(applyTemplate(chatTemplate(name as keyof typeof RENDERED), conversation)).toBe(expected);
    });
  }

  it('renders a single user message with each family’s turn markers', () => {
    const user = [{ role: 'user', content: FIRST }];
    expect(applyTemplate(chatTemplate('llama3'), user)).toBe(
      `<|start_header_id|>user<|end_header_id|>\n\n${FIRST}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n`,
    );
    expect(applyTemplate(chatTemplate('mistral'), user)).toBe(`[INST] ${FIRST}[/INST]`);
    expect(applyTemplate(chatTemplate('gemma2'), user)).toBe(
      `<start_of_turn>user\n${FIRST}<end_of_turn>\n<start_of_turn>model\n`,
    );
    // qwen2.5's Modelfile brings its own system prompt when the conversation has none.
    expect(applyTemplate(chatTemplate('chatml'), user)).toBe(
      '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' +
        `<|im_start|>user\n${FIRST}<|im_end|>\n<|im_start|>assistant\n`,
    );
  });

  it('merges consecutive messages of one role first, as Ollama does', () => {
    const layout = [
      { role: 'system', content: 'Rules.' },
      { role: 'user', content: 'Transcript.' },
      { role: 'user', content: 'Task.' },
    ];
    expect(collate(layout)).toEqual({
      system: 'Rules.',
      messages: [
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'Transcript.\n\nTask.' },
      ],
    });
    // One user turn, so mistral's "last user turn" is the first one too: the rules lead.
    expect(applyTemplate(chatTemplate('mistral'), layout)).toBe(
      '[INST] Rules.\n\nTranscript.\n\nTask.[/INST]',
    );
    expect(applyTemplate(chatTemplate('llama3'), layout)).toBe(
      '<|start_header_id|>system<|end_header_id|>\n\nRules.<|eot_id|>' +
        '<|start_header_id|>user<|end_header_id|>\n\nTranscript.\n\nTask.<|eot_id|>' +
        '<|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });

  it('picks the template by the model family, with overrides', () => {
    expect(templateNameFor('llama3')).toBe('llama3');
    expect(templateNameFor('llama3.1:8b-instruct-q4_K_M')).toBe('llama3');
    expect(templateNameFor('library/mistral:7b')).toBe('mistral');
    expect(templateNameFor('mistral-nemo')).toBe('generic');
    expect(templateNameFor('qwen2.5-7b-instruct')).toBe('chatml');
    expect(templateNameFor('gemma2:9b')).toBe('gemma2');
    expect(templateNameFor('codellama')).toBe('generic');
    const choice = new TemplateChoice({ 'my-model': 'mistral', 'llama3:latest': 'generic' });
    expect(choice.for('my-model:latest').name).toBe('mistral');
    expect(choice.for('llama3').name).toBe('generic');
    expect(choice.for('gemma2').name).toBe('gemma2');
    expect(new TemplateChoice({ '*': 'chatml' }).for('llama3').name).toBe('chatml');
    expect(() => new TemplateChoice({ 'my-model': 'alpaca' })).toThrow(/unknown chat template "alpaca"/);
  });
});

describe('templates on the server', () => {
  const servers: MockOllama[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  async function client(options: MockOllamaOptions = {}): Promise<Ollama> {
    const server = await startMockOllama({ models: ['llama3', 'mistral', 'gemma2', 'qwen2.5'], ...options });
    servers.push(server);
    return new Ollama({ host: server.url });
  }

  it('counts the prompt as the model family renders it', async () => {
    const ollama = await client();
    for (const [model, template] of [
      ['llama3', 'llama3'],
      ['mistral', 'mistral'],
      ['gemma2', 'gemma2'],
      ['qwen2.5', 'chatml'],
    ] as const) {
      const reply = await ollama.chat({ model, messages: conversation, options: { num_predict: 1 } });
      expect(reply.prompt_eval_count).toBe(countTokens(RENDERED[template]));
    }
  });

  it('answers the same whatever the template, and takes an override', async () => {
    const plain = await client();
    const overridden = await client({ templates: { llama3: 'mistral' } });
    const request = { model: 'llama3', messages: conversation, options: { seed: 3, num_predict: 40 } };
    const [a, b] = await Promise.all([plain.chat(request), overridden.chat(request)]);
    expect(b.message.content).toBe(a.message.content);
    expect(b.prompt_eval_count).toBe(countTokens(RENDERED.mistral));
  });

  it('moves mistral’s system message to the newest turn, so a growing conversation misses the cache', async () => {
    const server = await startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu' });
    servers.push(server);
    const ollama = new Ollama({ host: server.url });
    const rules = { role: 'system', content: `${'The rules of the debate, at length. '.repeat(60)}` };
    const opening = [rules, { role: 'user', content: FIRST }];
    const reused: Record<string, number> = {};
    for (const model of ['llama3', 'mistral']) {
      const first = await ollama.chat({ model, messages: opening, options: { num_predict: 20 } });
      server.resetStats();
      await ollama.chat({
        model,
        messages: [
          ...opening,
          { role: 'assistant', content: first.message.content },
          { role: 'user', content: SECOND },
        ],
        options: { num_predict: 20 },
      });
      reused[model] = server.stats().cachedPromptTokens;
    }
    expect(reused.llama3).toBeGreaterThan(400);
    expect(reused.mistral).toBeLessThan(10);
  });

  it('serves a mistral answer from the slot in the next turn: the space before it is part of its first token', async () => {
    const server = await startMockOllama({ models: ['mistral'], profile: 'gpu' });
    servers.push(server);
    const ollama = new Ollama({ host: server.url });
    const opening = [{ role: 'user', content: FIRST }];
    const first = await ollama.chat({ model: 'mistral', messages: opening, options: { num_predict: 60 } });
    const answer = first.message.content;
    expect(answer.startsWith(' ')).toBe(false);
    server.resetStats();
    await ollama.chat({
      model: 'mistral',
      messages: [...opening, { role: 'assistant', content: answer }, { role: 'user', content: SECOND }],
      options: { num_predict: 20 },
    });
    const asked = countTokens(`[INST] ${FIRST}[/INST]`);
    const written = countTokens(` ${answer}`);
    // All of the first prompt and of the answer, but perhaps the answer's last mark, which the
    // next prompt joins to the `</s>` after it.
    expect(written).toBeGreaterThan(20);
    expect(server.stats().cachedPromptTokens).toBeGreaterThanOrEqual(asked + written - 1);
  });
});
