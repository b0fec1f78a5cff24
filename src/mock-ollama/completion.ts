/**
 * Reads a /api/chat or /api/generate body into a normalised request and composes its answer:
 * scripted content, structured JSON, or debate prose, cut at num_predict like a real model.
 */
import { normalizeModelName } from './catalog.js';
import { applyTemplate, type ChatTemplate } from './chat-templates.js';
import { makeCoherent, statedWeights } from './coherent-answer.js';
import { jsonFromSchema } from './json-from-schema.js';
import { levelSource, materialHash } from './judged-level.js';
import { makeKeyedChoices } from './keyed-choice.js';
import { passageQuote } from './passage-reading.js';
import { extractHints, type PromptMessage, renderChat, renderGenerate } from './prompt-text.js';
import { composeProse, composeThinking, fieldText, type SpeechLength } from './prose.js';
import { QUOTE_ERROR_RATE } from './quote-copy.js';
import { createRng, hashOf } from './random.js';
import type { ScriptRule } from './script.js';
import { TemplateChoice } from './template-choice.js';
import { tokenize as defaultTokenize, type Tokenizer } from './tokens.js';
import { truthJudgeAnswer } from './truth-judge.js';

/** The two text-generation endpoints. */
export type Endpoint = 'chat' | 'generate';

/** A validated completion request. */
export interface CompletionRequest {
  endpoint: Endpoint;
  /** The model name exactly as sent (Ollama echoes it back unchanged). */
  model: string;
  /** The conversation; a generate request becomes an optional system message plus one user message. */
  messages: PromptMessage[];
  /** Last message's content (chat) or the prompt (generate), for script matching. */
  lastText: string;
  /** The prompt as the model sees it. */
  rendered: string;
  /** What the model writes before its answer's text, as its template renders an answer (mistral: a space). */
  answerLead?: string;
  /**
   * The conversation in the simulator's neutral format, which seeds the answer, so that the
   * chat template changes what a request costs, not what the model writes; default `rendered`.
   */
  seedText?: string;
  stream: boolean;
  format: unknown;
  options: Record<string, unknown>;
  /** Token cap; undefined means no cap. */
  numPredict: number | undefined;
  numCtx: number | undefined;
  think: boolean;
  /** Keep-alive in ms; negative means forever. */
  keepAliveMs: number;
  /** False asks for an error instead of silent truncation when the prompt exceeds num_ctx. */
  truncate: boolean;
}

/** Options that change how a request runs but not what the model writes, so they stay out of the seed. */
const NON_SEMANTIC_OPTIONS = new Set([
  'num_predict',
  'num_ctx',
  'num_thread',
  'num_gpu',
  'num_batch',
  'main_gpu',
  'use_mmap',
  'use_mlock',
  'numa',
  'low_vram',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses a Go-style duration ("5m", "1h30m", "10s", "-1") or a number of seconds into ms. */
export function parseKeepAlive(value: unknown): number | undefined {
  if (value === undefined || value === null) return 5 * 60_000;
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1000 : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  const sign = text.startsWith('-') ? -1 : 1;
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.replace(/^-/, '')) return undefined;
  return sign * parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? 's'] ?? 1000), 0);
}

const DEFAULT_TEMPLATES = new TemplateChoice();

/**
 * Validates a completion body; returns a message for a 400 reply when it is unusable. The prompt
 * is rendered with the model's chat template (`templates`), as Ollama renders it.
 */
export function parseCompletion(
  endpoint: Endpoint,
  body: unknown,
  templates: { for(model: string): ChatTemplate } = DEFAULT_TEMPLATES,
): CompletionRequest | { error: string } {
  if (!isRecord(body)) return { error: 'request body must be a JSON object' };
  if (typeof body.model !== 'string' || body.model.trim() === '') return { error: 'model is required' };
  const options = body.options ?? {};
  if (!isRecord(options)) return { error: 'options must be an object' };
  const keepAliveMs = parseKeepAlive(body.keep_alive);
  if (keepAliveMs === undefined) return { error: `time: invalid duration "${String(body.keep_alive)}"` };
  const template = templates.for(body.model);
  let messages: PromptMessage[];
  let rendered: string;
  let answerLead: string | undefined;
  let seedText: string;
  let lastText: string;
  if (endpoint === 'chat') {
    const raw = body.messages ?? [];
    if (!Array.isArray(raw)) return { error: 'messages must be an array' };
    if (!raw.every(isRecord)) return { error: 'each message must be an object' };
    messages = raw.map((m) => ({
      role: typeof m.role === 'string' ? m.role : 'user',
      content: typeof m.content === 'string' ? m.content : '',
    }));
    seedText = renderChat(messages);
    rendered = applyTemplate(template, messages);
    answerLead = template.answerLead;
    lastText = messages.at(-1)?.content ?? '';
  } else {
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    const system = typeof body.system === 'string' ? body.system : undefined;
    messages = [
      ...(system === undefined ? [] : [{ role: 'system', content: system }]),
      { role: 'user', content: prompt },
    ];
    seedText = renderGenerate(prompt, system, body.raw === true);
    // Ollama renders a generate request as a conversation of an optional system message and the prompt.
    rendered = body.raw === true ? prompt : applyTemplate(template, messages);
    answerLead = body.raw === true ? undefined : template.answerLead;
    lastText = prompt;
  }
  const numPredict = typeof options.num_predict === 'number' ? options.num_predict : undefined;
  const numCtx = typeof options.num_ctx === 'number' && options.num_ctx > 0 ? options.num_ctx : undefined;
  return {
    endpoint,
    model: body.model,
    messages,
    lastText,
    rendered,
    ...(answerLead === undefined ? {} : { answerLead }),
    seedText,
    stream: body.stream !== false,
    format: body.format === '' ? undefined : body.format,
    options,
    // Negative values (-1 unlimited, -2 fill the context) mean no fixed cap.
    numPredict: numPredict !== undefined && numPredict >= 0 ? Math.floor(numPredict) : undefined,
    numCtx,
    think: body.think === true,
    keepAliveMs,
    truncate: body.truncate !== false,
  };
}

/** The seed of a request: everything that would change a real model's output, and nothing else. */
export function requestSeed(request: CompletionRequest): string {
  const options = Object.fromEntries(
    Object.entries(request.options).filter(([k]) => !NON_SEMANTIC_OPTIONS.has(k)),
  );
  return hashOf({
    model: normalizeModelName(request.model),
    prompt: request.seedText ?? request.rendered,
    format: request.format ?? null,
    think: request.think,
    options,
  });
}

/** A composed answer, already cut at num_predict. */
export interface Answer {
  thinking: string;
  content: string;
  doneReason: 'stop' | 'length';
  /** Generated tokens (thinking plus content), i.e. `eval_count`. */
  evalCount: number;
}

/** How the answer is written beyond the request itself. */
export interface AnswerStyle {
  /** The model's vocabulary: it counts the tokens the cap applies to. */
  tokenize?: Tokenizer;
  /** A string without `maxLength` in a JSON schema is written until the cap (see server-settings). */
  fillUnboundedStrings?: boolean;
  /** Length of debate speeches in words; undefined: short speeches. */
  speech?: SpeechLength;
  /** The share of quotes copied with one small mistake (see server-settings); default QUOTE_ERROR_RATE. */
  quoteErrors?: number;
}

/** The uncut content: scripted, structured, or prose. */
function composeContent(
  request: CompletionRequest,
  rule: ScriptRule | undefined,
  seed: string,
  style: AnswerStyle,
): string {
  if (rule?.fault === 'empty') return '';
  if (rule?.reply !== undefined) return rule.reply;
  if (rule?.json !== undefined) return JSON.stringify(rule.json);
  const rng = createRng(seed, 'content');
  const hints = extractHints(request.messages);
  if (isRecord(request.format)) {
    const verdict = truthJudgeAnswer(request.format, request.messages, rng);
    if (verdict !== null) return verdict;
    const text = (property: string | undefined, r: typeof rng) =>
      fieldText(hints, property, r, style.quoteErrors);
    // Far more than the cap allows, in any vocabulary: the answer is cut inside this string.
    const room = (request.numPredict ?? request.numCtx ?? 4096) * 8;
    const endless = (property: string | undefined, r: typeof rng) => {
      let value = text(property, r);
      while (value.length < room) value = `${value} ${text(property, r)}`;
      return value;
    };
    const value = jsonFromSchema(request.format, rng, text, style.fillUnboundedStrings ? endless : undefined);
    // The material before the task sets how good the judge finds it, and whom it finds stronger
    // (the same debate read again, in another order or under other letters, is judged alike).
    const material = materialHash(request.messages.slice(0, -1).map((message) => message.content));
    const task = request.messages.at(-1)?.content ?? '';
    const weights = statedWeights(request.messages.map((message) => message.content).join('\n'));
    const coherent = makeCoherent(
      value,
      request.format,
      createRng(seed, 'coherence'),
      levelSource(material),
      weights,
    );
    return JSON.stringify(
      makeKeyedChoices(coherent, request.format, material, task, createRng(seed, 'keyed')),
    );
  }
  if (request.format === 'json') return JSON.stringify({ answer: fieldText(hints, 'answer', rng) });
  const prose = composeProse(hints, rng, style.speech);
  // A debater given a passage to quote opens with a quote of it (passage-reading.ts).
  const quoted = passageQuote(
    request.messages,
    createRng(seed, 'passage'),
    style.quoteErrors ?? QUOTE_ERROR_RATE,
  );
  return quoted ? `${quoted}\n\n${prose}` : prose;
}

/**
 * Composes the answer to `request` and applies the num_predict cap to thinking plus content;
 * `style.speech` sets the length of debate speeches in words (default: short speeches).
 */
export function composeAnswer(
  request: CompletionRequest,
  rule: ScriptRule | undefined,
  style: AnswerStyle = {},
): Answer {
  const tokenize = style.tokenize ?? defaultTokenize;
  const seed = requestSeed(request);
  const composed = composeContent(request, rule, seed, style);
  const scripted = rule?.thinking;
  const content =
    scripted !== undefined && !request.think ? `<think>${scripted}</think>${composed}` : composed;
  const thinking =
    request.think && rule?.fault !== 'empty'
      ? (scripted ?? composeThinking(extractHints(request.messages), createRng(seed, 'think')))
      : '';
  const thinkingTokens = tokenize(thinking);
  const contentTokens = tokenize(content);
  const total = thinkingTokens.length + contentTokens.length;
  const cap = request.numPredict;
  if (cap === undefined || total <= cap) return { thinking, content, doneReason: 'stop', evalCount: total };
  // Like a real model, the cut simply stops mid-text (even mid-JSON) at the cap.
  const keptThinking = thinkingTokens.slice(0, cap);
  const keptContent = contentTokens.slice(0, Math.max(0, cap - thinkingTokens.length));
  return {
    thinking: keptThinking.join(''),
    content: keptContent.join(''),
    doneReason: 'length',
    evalCount: cap,
  };
}

/** Prompt tokens after applying num_ctx, or an error message when truncation is refused. */
export function promptTokensFor(
  request: CompletionRequest,
  tokenize: Tokenizer = defaultTokenize,
): string[] | { error: string; tokens: number } {
  const tokens = tokenize(request.rendered);
  if (request.numCtx === undefined || tokens.length <= request.numCtx) return tokens;
  if (!request.truncate)
    return { error: 'the input length exceeds the context length', tokens: tokens.length };
  // Keep the most recent part of the conversation, as a sliding context window would.
  return tokens.slice(tokens.length - request.numCtx);
}
