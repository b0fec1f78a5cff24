/**
 * Every count a structured call's prompt states ("at most three risks", "each list to at most three
 * items") equals the bound of the list it names in the JSON schema sent with it, for every format.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { claimsJsonSchema, claimsTask } from '../../src/agents/claim-extraction.js';
import { parseScenario } from '../../src/config/load-scenario.js';
import type { Scenario } from '../../src/config/scenario.js';
import {
  judgeMessages as councilJudgeMessages,
  peerLabels,
  roundMessages,
} from '../../src/formats/council/council-prompts.js';
import {
  challengeSchema,
  decisionSchema,
  jsonSchemaOf,
  openingSchema,
  revisionSchema,
} from '../../src/formats/council/packet-schema.js';
import { solutionSchema } from '../../src/formats/critique/index.js';
import { synthesisMessages } from '../../src/formats/critique/synthesis-prompts.js';
import { judgeMessages as duelJudgeMessages } from '../../src/formats/duel/duel-prompts.js';
import { duelJudgementSchema } from '../../src/formats/duel/index.js';
import { foldSequence, type SequenceState } from '../../src/formats/shared/sequence-state.js';
import { answerJsonSchema } from '../../src/judging/answer-fields.js';
import type { ChatMessage } from '../../src/llm/provider.js';
import { tempDir } from '../helpers/cli.js';
import { SMALL_SCENARIOS } from '../helpers/format-scenarios.js';

type Node = Record<string, unknown>;

/** Every list in a JSON schema, by property name, with its maxItems. */
function listBounds(schema: unknown, name = 'answer', found = new Map<string, number | undefined>()) {
  if (schema === null || typeof schema !== 'object') return found;
  const node = schema as Node;
  if (node.type === 'array') found.set(name, node.maxItems as number | undefined);
  if (node.properties) {
    for (const [key, child] of Object.entries(node.properties as Node)) listBounds(child, key, found);
  }
  if (node.items) listBounds(node.items, `${name}[]`, found);
  return found;
}

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const numberOf = (word: string) => NUMBERS[word] ?? Number(word);

/** The list each noun a prompt counts names (a new noun in a prompt must be added here to be checked). */
const NOUNS: Record<string, string> = {
  'reasons for the selection': 'why_selected',
  'rejected options': 'rejected_options',
  risks: 'risks',
  'next actions': 'next_actions',
  'trade-offs': 'trade_offs',
  recommendations: 'recommendations',
};

/** What the prompt's task states, as [list property or `*` for every list, count]. */
function statedCounts(task: string): Array<[string, number]> {
  const stated: Array<[string, number]> = [];
  for (const match of task.matchAll(/each list to at most (\w+) items/g))
    stated.push(['*', numberOf(match[1] ?? '')]);
  for (const match of task.matchAll(/List the main claims [^,]*, at most (\w+),/g)) {
    stated.push(['claims', numberOf(match[1] ?? '')]);
  }
  for (const match of task.matchAll(/give at most ([^.;]+)[.;]/gi)) {
    for (const part of (match[1] ?? '').split(/, | and /)) {
      const [, count = '', noun = ''] = /^(\w+) (.+)$/.exec(part.trim()) ?? [];
      stated.push([NOUNS[noun] ?? `unknown noun "${noun}"`, numberOf(count)]);
    }
  }
  return stated;
}

/** `taskMessages`: how many user messages at the end hold the task (a council round's: the round's, then the role's). */
function expectCountsMatch(messages: ChatMessage[], jsonSchema: Node, least: number, taskMessages = 1) {
  const task = messages
    .filter((message) => message.role === 'user')
    .slice(-taskMessages)
    .map((message) => message.content)
    .join('\n');
  const bounds = listBounds(jsonSchema);
  const stated = statedCounts(task);
  // Each prompt checked states its counts: a check that found none would prove nothing.
  expect(stated.length).toBeGreaterThanOrEqual(least);
  for (const [list, count] of stated) {
    if (list === '*') {
      for (const [name, most] of bounds) expect({ name, most }).toEqual({ name, most: count });
    } else {
      expect({ list, most: bounds.get(list) }).toEqual({ list, most: count });
    }
  }
}

async function stateOf<S extends Scenario>(format: string, extra: Node = {}): Promise<SequenceState<S>> {
  const data = SMALL_SCENARIOS[format]?.(extra);
  const scenario = await parseScenario(stringify(data), path.join(tempDir(), 's.yaml'));
  return foldSequence<S>(undefined, {
    type: 'run-start',
    runId: 'r',
    format,
    scenario,
    engineVersion: 'test',
    seq: 1,
    at: '2026-01-01T00:00:00.000Z',
  });
}

describe('counts stated in prompts equal the schemas sent with them', () => {
  for (const options of [undefined, ['Stay on MySQL', 'Move to PostgreSQL', 'Move in two steps']]) {
    it(`council roles and judge (${options ? 'with options' : 'a yes-or-no proposal'})`, async () => {
      // biome-ignore lint/suspicious/noExplicitAny: a council state built from its scenario
      const state = await stateOf<any>('council', options ? { options } : {});
      const stances = state.scenario.options ?? ['for', 'against', 'conditional'];
      const max = state.scenario.max_tokens;
      expectCountsMatch(roundMessages(state, 'Critic', 1), jsonSchemaOf(openingSchema(stances, max)), 1, 2);
      expectCountsMatch(
        roundMessages(state, 'Critic', 2),
        jsonSchemaOf(
          challengeSchema(
            peerLabels(state, 'Critic').map((item) => item.label),
            max,
          ),
        ),
        1,
        2,
      );
      expectCountsMatch(roundMessages(state, 'Critic', 3), jsonSchemaOf(revisionSchema(stances, max)), 1, 2);
      const decision = jsonSchemaOf(decisionSchema(state.scenario.judge_max_tokens, state.scenario.options));
      expectCountsMatch(councilJudgeMessages(state, {}, '2026-01-01'), decision, 4);
    });
  }

  it('critique synthesis', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a critique state built from its scenario
    const state = await stateOf<any>('critique');
    expectCountsMatch(synthesisMessages(state, 1, 'A design.'), answerJsonSchema(solutionSchema), 2);
  });

  it('claims extraction', () => {
    for (const maxTokens of [150, 300, 600]) {
      const task = claimsTask({
        agent: 'Ada',
        round: 2,
        position: 'X',
        maxTokens,
        answerable: [],
        ownSideClaims: [],
      } as unknown as Parameters<typeof claimsTask>[0]);
      expectCountsMatch([{ role: 'user', content: task }], claimsJsonSchema([], maxTokens), 1);
    }
  });

  it('the duel judge states no count its schema does not bound', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a duel state built from its scenario
    const state = await stateOf<any>('duel');
    const task = duelJudgeMessages(state, 1).at(-1)?.content ?? '';
    expect(statedCounts(task)).toEqual([]);
    expect(listBounds(answerJsonSchema(duelJudgementSchema(400))).size).toBe(0);
  });
});
