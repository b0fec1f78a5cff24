/**
 * The chat templates Ollama applies before a prompt reaches the model, reproduced for the model
 * families the scenarios use. What matters for the prompt cache is where each template puts the
 * system message and its turn markers: llama3 and chatml (qwen2.5) put the system message first,
 * mistral puts it into the last user turn, and gemma2, which has no system role, renders it as a
 * user turn of its own. Like Ollama, every template sees the conversation collated first.
 */
import type { PromptMessage } from './prompt-text.js';

/** The templates the simulator knows; `generic` is its own neutral format for unknown models. */
export const TEMPLATE_NAMES = ['llama3', 'mistral', 'chatml', 'gemma2', 'generic'] as const;

/** One template's name. */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** A chat template: how a collated conversation becomes the text a model reads. */
export interface ChatTemplate {
  name: TemplateName;
  /** The system prompt a model's Modelfile adds when the conversation has none (qwen2.5 has one). */
  defaultSystem?: string;
  /**
   * What the template writes between a user turn and the assistant's answer after it, when the
   * prompt itself ends before it (mistral: a space). The model writes it as part of its first
   * token (`▁word`), so it is in what the model's slot holds after answering.
   */
  answerLead?: string;
  /** Renders a collated conversation, ending with the generation prompt. */
  render(conversation: CollatedConversation): string;
}

/** A conversation as Ollama hands it to a template. */
export interface CollatedConversation {
  /** Every system message, joined by a blank line (Ollama's `.System`). */
  system: string;
  /** The messages with consecutive same-role messages merged; system messages stay in place. */
  messages: PromptMessage[];
}

/**
 * Ollama's collation: consecutive messages of one role become one message (joined by a blank
 * line), and all system messages are also gathered into `system`. So an engine that sends two
 * user messages in a row gets one user turn, whatever the template.
 */
export function collate(messages: readonly PromptMessage[]): CollatedConversation {
  const system: string[] = [];
  const merged: PromptMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') system.push(message.content);
    const last = merged.at(-1);
    if (last !== undefined && last.role === message.role && message.role !== 'tool') {
      last.content = `${last.content}\n\n${message.content}`;
    } else {
      merged.push({ role: message.role, content: message.content });
    }
  }
  return { system: system.join('\n\n'), messages: merged };
}

const isLast = (index: number, list: readonly unknown[]): boolean => index === list.length - 1;

/**
 * llama3 (Meta's header markers). Its Modelfile template is the older prompt/response kind, which
 * Ollama runs once per exchange; the result is the same as rendering each message with its header.
 */
const llama3: ChatTemplate = {
  name: 'llama3',
  render({ messages }) {
    const header = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;
    const turns = messages
      .filter((m) => m.role === 'system' || m.role === 'user' || m.role === 'assistant')
      .map((m) => `${header(m.role)}${m.content}<|eot_id|>`);
    return `${turns.join('')}${header('assistant')}`;
  },
};

/**
 * Mistral's [INST] turns: the system message goes into the last user turn, not the first. A
 * prompt ends with `[/INST]`; an answer in the history follows it after a space (Ollama's own
 * rendering of this template: `[INST] question[/INST] answer</s>[INST] next[/INST]`).
 */
const mistral: ChatTemplate = {
  name: 'mistral',
  answerLead: ' ',
  render({ system, messages }) {
    let text = '';
    messages.forEach((m, index) => {
      if (m.role === 'user') {
        const withSystem = system !== '' && isLast(index, messages) ? `${system}\n\n` : '';
        text += `[INST] ${withSystem}${m.content}[/INST]`;
      } else if (m.role === 'assistant') {
        text += `${m.content === '' ? '' : ` ${m.content}`}</s>`;
      }
    });
    return text;
  },
};

/** ChatML as qwen2.5 ships it: the system block first, then im_start/im_end turns. */
const chatml: ChatTemplate = {
  name: 'chatml',
  defaultSystem: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.',
  render({ system, messages }) {
    let text = system === '' ? '' : `<|im_start|>system\n${system}<|im_end|>\n`;
    messages.forEach((m, index) => {
      const last = isLast(index, messages);
      if (m.role === 'user') text += `<|im_start|>user\n${m.content}<|im_end|>\n`;
      if (m.role === 'assistant') text += `<|im_start|>assistant\n${m.content}${last ? '' : '<|im_end|>\n'}`;
      if (m.role !== 'assistant' && last) text += '<|im_start|>assistant\n';
    });
    return text;
  },
};

/** gemma2 has no system role: a system message is rendered as a user turn of its own, in place. */
const gemma2: ChatTemplate = {
  name: 'gemma2',
  render({ messages }) {
    let text = '';
    messages.forEach((m, index) => {
      const last = isLast(index, messages);
      if (m.role === 'user' || m.role === 'system') {
        text += `<start_of_turn>user\n${m.content}<end_of_turn>\n${last ? '<start_of_turn>model\n' : ''}`;
      } else if (m.role === 'assistant') {
        text += `<start_of_turn>model\n${m.content}${last ? '' : '<end_of_turn>\n'}`;
      }
    });
    return text;
  },
};

/** The simulator's neutral format, for models whose family it does not know: every message in order. */
const generic: ChatTemplate = {
  name: 'generic',
  render({ messages }) {
    return `${messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join('')}<|assistant|>\n`;
  },
};

const TEMPLATES: Readonly<Record<TemplateName, ChatTemplate>> = { llama3, mistral, chatml, gemma2, generic };

/** The template of a given name. */
export function chatTemplate(name: TemplateName): ChatTemplate {
  return TEMPLATES[name];
}

/**
 * The prompt text a model reads for a conversation under `template`: the Modelfile's default
 * system prompt when the conversation starts without one, then collation, then the template.
 */
export function applyTemplate(template: ChatTemplate, messages: readonly PromptMessage[]): string {
  const withSystem =
    template.defaultSystem !== undefined && messages[0]?.role !== 'system'
      ? [{ role: 'system', content: template.defaultSystem }, ...messages]
      : messages;
  return template.render(collate(withSystem));
}
