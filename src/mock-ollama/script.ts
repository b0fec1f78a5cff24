/**
 * Scripted answers and faults. Rules are tried in order; the first one that matches (and still
 * has uses left) decides the answer. Counters live in a `ScriptBook`, one per server.
 */
import { z } from 'zod';
import { normalizeModelName } from './catalog.js';

/** The faults a rule can inject. */
export const SCRIPT_FAULTS = [
  'error-500',
  'busy-503',
  'hang',
  'cut-stream',
  'error-in-stream',
  'malformed-json',
  'empty',
  'not-found-404',
  'bad-request-400',
  'reset-connection',
  'endless',
] as const;

/** One fault name. */
export type ScriptFault = (typeof SCRIPT_FAULTS)[number];

/** Which requests a rule applies to; every given field must match. */
export interface ScriptMatch {
  /** Model name, with or without `:latest`. */
  model?: string;
  /** Substring of the last message's content (chat) or of the prompt (generate). */
  text?: string;
  /** JavaScript regular expression tested on the same text; `/body/flags` form is accepted. */
  regex?: string;
  /** Substring anywhere in the whole rendered prompt. */
  prompt?: string;
  endpoint?: 'chat' | 'generate';
}

/** A scripted answer or fault. */
export interface ScriptRule {
  match?: ScriptMatch;
  /** Use this rule only for its first N matching requests. */
  times?: number;
  /** Content to return (still streamed and still cut by num_predict). */
  reply?: string;
  /** Content is `JSON.stringify(json)`. */
  json?: unknown;
  /**
   * Thinking before the answer: sent as thinking when the request asks a model to think, and
   * otherwise inline in front of the content between `<think>` tags, as a thinking model that
   * ignores `think: false` does. It counts against num_predict like the content.
   */
  thinking?: string;
  fault?: ScriptFault;
  /** Real delay in milliseconds before answering, on top of the profile's simulated time. */
  latencyMs?: number;
  /** Status for error faults, overriding the default. */
  status?: number;
  /** Message for error faults, overriding the default. */
  error?: string;
}

/** Builds a RegExp from `body` or `/body/flags`. */
export function compileRegex(source: string): RegExp {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
  return literal === null ? new RegExp(source) : new RegExp(literal[1] ?? '', literal[2]);
}

const matchSchema = z.strictObject({
  model: z.string().min(1).optional(),
  text: z.string().optional(),
  regex: z
    .string()
    .refine(
      (value) => {
        try {
          compileRegex(value);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'not a valid regular expression' },
    )
    .optional(),
  prompt: z.string().optional(),
  endpoint: z.enum(['chat', 'generate']).optional(),
});

/** Zod schema for one rule. */
export const scriptRuleSchema = z
  .strictObject({
    match: matchSchema.optional(),
    times: z.int().positive().optional(),
    reply: z.string().optional(),
    json: z.unknown().optional(),
    thinking: z.string().optional(),
    fault: z.enum(SCRIPT_FAULTS).optional(),
    latencyMs: z.number().nonnegative().optional(),
    status: z.int().min(100).max(599).optional(),
    error: z.string().optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.reply !== undefined && rule.json !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['json'], message: 'use either reply or json, not both' });
    }
  });

/** What a request looks like to the rule matcher. */
export interface ScriptRequest {
  endpoint: 'chat' | 'generate';
  model: string;
  /** Last message's content (chat) or the prompt (generate). */
  text: string;
  /** The whole rendered prompt. */
  prompt: string;
}

/** A script with its per-rule use counters; create one per server. */
export class ScriptBook {
  private readonly uses: number[];
  private readonly regexes: (RegExp | undefined)[];

  constructor(private readonly rules: readonly ScriptRule[]) {
    this.uses = rules.map(() => 0);
    this.regexes = rules.map((r) => (r.match?.regex === undefined ? undefined : compileRegex(r.match.regex)));
  }

  /** The first rule that matches and has uses left, counting this use; undefined if none. */
  take(request: ScriptRequest): ScriptRule | undefined {
    for (const [index, rule] of this.rules.entries()) {
      if (!this.matches(index, rule, request)) continue;
      const used = this.uses[index] ?? 0;
      if (rule.times !== undefined && used >= rule.times) continue;
      this.uses[index] = used + 1;
      return rule;
    }
    return undefined;
  }

  private matches(index: number, rule: ScriptRule, request: ScriptRequest): boolean {
    const match = rule.match;
    if (match === undefined) return true;
    if (match.endpoint !== undefined && match.endpoint !== request.endpoint) return false;
    if (match.model !== undefined && normalizeModelName(match.model) !== normalizeModelName(request.model)) {
      return false;
    }
    if (match.text !== undefined && !request.text.includes(match.text)) return false;
    if (match.prompt !== undefined && !request.prompt.includes(match.prompt)) return false;
    const regex = this.regexes[index];
    if (regex !== undefined) {
      // A global or sticky regex keeps state between tests; reset it so matching is repeatable.
      regex.lastIndex = 0;
      if (!regex.test(request.text)) return false;
    }
    return true;
  }
}
