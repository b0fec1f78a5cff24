/**
 * A run as the blind arena shows it: every model name hidden, and every persona name (which could
 * give the model away) replaced by a neutral label for its seat: "Speaker X", "Speaker Y2",
 * "Affirmative speaker", "Speaker A". The run's events and scenario are rewritten, so every part
 * of the page drawn from them (transcript, argument map, scores) is blind alike. Names are
 * replaced in what the models wrote too: a debater introducing itself by name, naming its model or
 * a model family, or its maker ("trained by Meta AI", "Alibaba Cloud").
 */

import { formalSides } from '../config/formal-sides.js';
import type { Scenario } from '../config/scenario.js';
import type { RunEvent } from '../core/events.js';
import type { FormatLookup } from '../formats/format-definition.js';
import { buildRunView } from './run-view.js';
import type { RunView } from './viewed-run.js';

export const HIDDEN_MODEL = 'hidden model';
export const HIDDEN_MAKER = 'hidden maker';

/**
 * Who made a model, as models say it about themselves ("trained by Meta AI", "developed by Alibaba
 * Cloud"), longest first so "Mistral AI" goes before "Mistral". Matched with their capitals, so
 * "meta-analysis" or "an apple" are left alone.
 */
const MAKERS = [
  'Technology Innovation Institute',
  'Allen Institute for AI',
  'Facebook AI Research',
  'Shanghai AI Laboratory',
  'Microsoft Research',
  'Google DeepMind',
  'Meta Platforms',
  'Alibaba Cloud',
  'Alibaba Group',
  'Hugging Face',
  'Stability AI',
  'Moonshot AI',
  'DeepSeek AI',
  'Google Brain',
  'Mistral AI',
  'Zhipu AI',
  'Meta AI',
  'Anthropic',
  'Microsoft',
  'DeepMind',
  'Facebook',
  'Baichuan',
  'Alibaba',
  'OpenAI',
  'Google',
  'Cohere',
  'NVIDIA',
  'Nvidia',
  'Zhipu',
  '01.AI',
  'Meta',
  'IBM',
  'xAI',
];

/** Models' family names, whichever model the run used: a model may claim another's name. */
const VERSION = String.raw`[- ]?\d(?:[\w.]*\w)?`;
const VERSIONED_FAMILIES = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:GPT|Llama|LLaMA|Qwen|Gemma|Phi|DeepSeek|Mistral|Mixtral|Claude)${VERSION}(?![\p{L}\p{N}])`,
  'gu',
);
const FAMILIES =
  /(?<![\p{L}\p{N}])(?:ChatGPT|GPT|LLaMA|Llama|Qwen|Tongyi Qianwen|Gemma|Gemini|Mixtral|Mistral|Claude|DeepSeek|Vicuna|Command R\+?)(?![\p{L}\p{N}])/gu;

/** Values that are the log's vocabulary, never a name: they are kept as they are. */
const VOCABULARY = new Set([
  'type',
  'position',
  'side',
  'phase',
  'format',
  'outcome',
  'decision',
  'decidedBy',
  'source',
  'kind',
  'status',
  'answers',
  'runId',
  'engineVersion',
  'at',
  'file',
]);

/** Words of a name that are not its own: titles and particles. */
const NOT_NAMES = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'mx',
  'prof',
  'sir',
  'dame',
  'the',
  'and',
  'for',
  'von',
  'van',
  'der',
  'den',
  'del',
  'des',
]);

/** Each seat's neutral label, by the name the scenario gives its occupant. */
export function seatLabels(scenario: Scenario): Map<string, string> {
  const labels = new Map<string, string>();
  switch (scenario.format) {
    case 'knockout': {
      let y = 0;
      for (const agent of scenario.agents) {
        labels.set(agent.name, agent.position === 'X' ? 'Speaker X' : `Speaker Y${++y}`);
      }
      if (scenario.commentary) labels.set(scenario.commentary.name, 'Commentator');
      break;
    }
    case 'formal':
      if ((scenario.debaters?.length ?? 0) === 2) {
        const sides = formalSides(scenario);
        labels.set(sides.affirmative.name, 'Affirmative speaker');
        labels.set(sides.negative.name, 'Negative speaker');
      }
      break;
    case 'duel':
      labels.set(scenario.debaters.a.name, 'Speaker A');
      labels.set(scenario.debaters.b.name, 'Speaker B');
      labels.set(scenario.judge.name, 'Judge');
      break;
    default:
      break;
  }
  return labels;
}

/** Every model the run names: in the scenario (fallbacks included) and in the events. */
function modelNames(value: unknown, key = '', found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (/model/i.test(key) || key === 'fallbackFrom') found.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) modelNames(item, key, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) modelNames(item, name, found);
  }
  return found;
}

/** A model's name and the shorter names it goes by: `llama3.1:8b`, `llama3.1`, `llama`. */
function modelAliases(model: string): string[] {
  const base = model.replace(/:.*$/, '');
  const family = /^[A-Za-z]{3,}/.exec(base)?.[0];
  return [model, base, ...(family ? [family] : [])];
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rewriting of one run: names to labels, models hidden, in any text. */
export function blindText(scenario: Scenario, events: readonly RunEvent[]): (text: string) => string {
  const labels = seatLabels(scenario);
  const words = new Map<string, string>();
  const keep = new Set(
    [
      ...labels.values(),
      scenario.topic,
      ...('positions' in scenario ? Object.values(scenario.positions) : []),
    ]
      .join(' ')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u),
  );
  // A part of a name ("Okafor" of "Dr. Miriam Okafor") is replaced too, unless two names share it.
  const parts = new Map<string, string | null>();
  for (const [name, label] of labels) {
    words.set(name.toLowerCase(), label);
    for (const part of name.split(/[^\p{L}\p{N}'-]+/u)) {
      const lower = part.toLowerCase();
      if (part.length < 3 || NOT_NAMES.has(lower) || keep.has(lower)) continue;
      parts.set(lower, parts.has(lower) && parts.get(lower) !== label ? null : label);
    }
  }
  // A model's own names come before parts of persona names ("Mistral" of "Mistral Max").
  for (const model of modelNames({ scenario, events })) {
    for (const alias of modelAliases(model))
      if (!words.has(alias.toLowerCase())) words.set(alias.toLowerCase(), HIDDEN_MODEL);
  }
  for (const [part, label] of parts) if (label && !words.has(part)) words.set(part, label);
  const names = [...words.keys()].filter((name) => name.trim() !== '').sort((a, b) => b.length - a.length);
  const pattern =
    names.length === 0
      ? null
      : new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  // The motion and the sides may name a maker or a model ("Should Google be broken up?"): those stay.
  const motion = [scenario.topic, ...('positions' in scenario ? Object.values(scenario.positions) : [])]
    .join(' ')
    .toLowerCase();
  const named = (phrase: string) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(phrase.toLowerCase())}(?![\\p{L}\\p{N}])`, 'u').test(motion);
  const makers = MAKERS.filter((maker) => !named(maker));
  const makerPattern = new RegExp(
    `(?<![\\p{L}\\p{N}-])(?:${makers.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}-])`,
    'gu',
  );
  return (text) => {
    const hide = (match: string) => (named(match) ? match : HIDDEN_MODEL);
    // A family with its version ("Llama 3", "Qwen2.5") first, before "Llama" alone could be taken for a name.
    const unmade = text.replace(makerPattern, HIDDEN_MAKER).replace(VERSIONED_FAMILIES, hide);
    const renamed = pattern
      ? unmade.replace(pattern, (match) => words.get(match.toLowerCase()) ?? match)
      : unmade;
    return renamed.replace(FAMILIES, hide);
  };
}

function rewrite(value: unknown, blind: (text: string) => string, key = ''): unknown {
  if (typeof value === 'string') return VOCABULARY.has(key) ? value : blind(value);
  if (Array.isArray(value)) return value.map((item) => rewrite(item, blind, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, rewrite(item, blind, name)]),
    );
  }
  return value;
}

/** The run with its names hidden, folded anew; no spectators, and never live (the page does not follow it). */
export function blindRunView(view: RunView, formats: FormatLookup): RunView {
  const start = view.events[0];
  if (start?.type !== 'run-start') return { ...view, spectators: [], live: false };
  const blind = blindText(start.scenario, view.events);
  const events = view.events.map((event) => rewrite(event, blind) as RunEvent);
  return buildRunView(view.runId, events, [], false, formats);
}
