/**
 * The shared rules go where each model's chat template keeps them first: a system message for
 * llama3, ChatML and gemma, the first user message for mistral's family, whose template puts a
 * system message into the last user turn. Checked by rendering the prompts with the simulator's
 * copies of Ollama's templates: a one-turn prompt reads the same either way on mistral, and a judge's
 * answer asked for again (its malformed answer, then the request to fix it) keeps the first call's
 * whole prompt as its prefix, so the prefix cache serves it.
 */
import { describe, expect, it } from 'vitest';
import { rulesPlacementFor } from '../../src/agents/message-layout.js';
import { buildMessages } from '../../src/agents/prompts.js';
import type { ChatMessage } from '../../src/llm/provider.js';
import { applyTemplate, TemplateChoice, tokenize } from '../../src/mock-ollama/index.js';

const templates = new TemplateChoice();
const RULES = `This is a knockout debate between AI agents.\nMotion: Should cities ban cars?\n${'- a rule\n'.repeat(40)}`;
const TRANSCRIPT = `## Debate so far\n\n${'**Xavier** (Position X): cars choke the centre.\n'.repeat(60)}`;
const TASK = '## Your task: evaluate round 2\nReply with the JSON object only.';

const render = (model: string, messages: ChatMessage[]) =>
  tokenize(applyTemplate(templates.for(model), messages));

function sharedPrefix(a: string[], b: string[]): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  return index;
}

/** The first call, and the same call asked again after a malformed answer. */
function callAndRepair(model: string, placement = rulesPlacementFor(model)) {
  const first = buildMessages(RULES, TRANSCRIPT, TASK, placement);
  const repair: ChatMessage[] = [
    ...first,
    { role: 'assistant', content: '{"comments": "Strong round", "position_y_perf' },
    { role: 'user', content: 'That answer was not valid JSON. Reply with the JSON object only.' },
  ];
  return { first: render(model, first), repair: render(model, repair) };
}

describe('the rules’ place in a prompt', () => {
  it('is the first user message for mistral’s family and a system message for the others', () => {
    for (const model of [
      'mistral',
      'mistral:7b',
      'library/mistral:latest',
      'mistral-nemo:12b',
      'mistral-small',
    ]) {
      expect(rulesPlacementFor(model)).toBe('first-user');
    }
    for (const model of [
      'llama3',
      'llama3.1:8b',
      'qwen2.5:7b',
      'gemma2',
      'phi3',
      'mistral-large',
      undefined,
    ]) {
      expect(rulesPlacementFor(model)).toBe('system');
    }
    expect(buildMessages(RULES, TRANSCRIPT, TASK, 'first-user').map((message) => message.role)).toEqual([
      'user',
      'user',
      'user',
    ]);
    expect(buildMessages(RULES, TRANSCRIPT, TASK).map((message) => message.role)).toEqual([
      'system',
      'user',
      'user',
    ]);
  });

  it('renders a one-turn mistral prompt exactly as the system-message layout did', () => {
    const before = applyTemplate(templates.for('mistral'), buildMessages(RULES, TRANSCRIPT, TASK, 'system'));
    const now = applyTemplate(templates.for('mistral'), buildMessages(RULES, TRANSCRIPT, TASK, 'first-user'));
    expect(now).toBe(before);
    expect(now.startsWith(`[INST] ${RULES}`)).toBe(true);
  });

  it('keeps a repaired call’s prefix on mistral, where a system message would move after the conversation', () => {
    const now = callAndRepair('mistral');
    // Everything of the first call but its closing space is the repair's prefix: only the answer
    // and the request to fix it are new.
    expect(sharedPrefix(now.first, now.repair)).toBeGreaterThanOrEqual(now.first.length - 1);
    const withSystem = callAndRepair('mistral', 'system');
    // With a system message the rules leave the first turn for the last one: almost nothing is shared.
    expect(sharedPrefix(withSystem.first, withSystem.repair)).toBeLessThan(10);
    // llama3 keeps its system message first either way.
    const llama = callAndRepair('llama3');
    expect(sharedPrefix(llama.first, llama.repair)).toBeGreaterThanOrEqual(llama.first.length - 5);
  });
});
