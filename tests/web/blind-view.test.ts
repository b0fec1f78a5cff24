/** The blind arena's rewriting of a run: seats for names, models hidden, the log's vocabulary kept. */
import { describe, expect, it } from 'vitest';
import { formatNamed } from '../../src/formats/index.js';
import { blindRunView, blindText, HIDDEN_MAKER, HIDDEN_MODEL, seatLabels } from '../../src/web/blind-view.js';
import { buildRunView } from '../../src/web/run-view.js';
import { logOf, scenarioOf, turn, vote } from '../helpers/run-events.js';

describe('the blind view of a run', () => {
  it('gives every seat a neutral label and hides every model, in what the models wrote too', async () => {
    const scenario = await scenarioOf('knockout', {
      agents: [
        {
          name: 'Dr. Lena Llama',
          position: 'X',
          model: 'llama3.1:8b',
          fallback_models: ['qwen2.5:7b'],
          role: 'For.',
        },
        { name: 'Mistral Max', position: 'Y', model: 'mistral', role: 'Against.' },
        { name: 'Yusuf', position: 'Y', model: 'mistral', role: 'Against.' },
        { name: 'Yvonne', position: 'Y', model: 'mistral', role: 'Against.' },
      ],
    });
    expect(Object.fromEntries(seatLabels(scenario))).toEqual({
      'Dr. Lena Llama': 'Speaker X',
      'Mistral Max': 'Speaker Y1',
      Yusuf: 'Speaker Y2',
      Yvonne: 'Speaker Y3',
    });
    const events = logOf(scenario, [
      turn(
        1,
        'Dr. Lena Llama',
        'X',
        'As Dr. Lena Llama (call me Lena), running on llama3.1:8b, I say cars must go.',
        'llama3.1:8b',
      ),
      turn(
        1,
        'Mistral Max',
        'Y',
        'Max here, a Mistral model; Yusuf agrees with me. Qwen2.5 would too.',
        'mistral',
      ),
    ]);
    const blind = blindText(scenario, events);
    expect(blind('As Dr. Lena Llama (call me Lena), running on llama3.1:8b, I say cars must go.')).toBe(
      `As Speaker X (call me Speaker X), running on ${HIDDEN_MODEL}, I say cars must go.`,
    );
    expect(blind('Max here, a Mistral model; Yusuf agrees with me. Qwen2.5 would too.')).toBe(
      `Speaker Y1 here, a ${HIDDEN_MODEL} model; Speaker Y2 agrees with me. ${HIDDEN_MODEL} would too.`,
    );
    // Words of the motion and the sides are never taken for a name, nor parts of other words.
    expect(blind('Car-free centres for Maxwell and the llamas')).toBe(
      'Car-free centres for Maxwell and the llamas',
    );
  });

  it("hides the makers and model families models name about themselves, but not the motion's own words", async () => {
    const scenario = await scenarioOf('knockout', { topic: 'Should Google be broken up?' });
    const blind = blindText(scenario, logOf(scenario, []));
    expect(
      blind(
        'As a large language model trained by Meta AI, and not by Alibaba Cloud, OpenAI, Mistral AI or Google DeepMind, I am Llama 3, not ChatGPT, Qwen2.5 or Gemma.',
      ),
    ).toBe(
      `As a large language model trained by ${HIDDEN_MAKER}, and not by ${HIDDEN_MAKER}, ${HIDDEN_MAKER}, ${HIDDEN_MAKER} or ${HIDDEN_MAKER}, I am ${HIDDEN_MODEL}, not ${HIDDEN_MODEL}, ${HIDDEN_MODEL} or ${HIDDEN_MODEL}.`,
    );
    // Ordinary words stay: a meta-analysis, the metaverse, an alibi; and the motion's Google.
    expect(blind('A meta-analysis of the metaverse is no alibi for Google.')).toBe(
      'A meta-analysis of the metaverse is no alibi for Google.',
    );
  });

  it('folds the rewritten log like the original: the same rounds and votes, under the seats', async () => {
    const scenario = await scenarioOf('knockout');
    const events = logOf(scenario, [
      turn(1, 'Xavier', 'X', 'Xavier for X.'),
      turn(1, 'Yara', 'Y', 'Yara for Y.', 'mistral'),
      vote(1, 'Yusuf', 'mistral', true),
    ]);
    const view = buildRunView('run', events, [], false, formatNamed);
    const blind = blindRunView(view, formatNamed);
    expect(blind.progress?.done).toBe(view.progress?.done);
    const text = JSON.stringify(blind.events);
    for (const name of ['Xavier', 'Yara', 'Yusuf', 'llama3', 'mistral']) expect(text).not.toContain(name);
    expect(blind.events.map((event) => event.type)).toEqual(view.events.map((event) => event.type));
    expect(blind.events[1]).toMatchObject({ agent: 'Speaker X', position: 'X', model: HIDDEN_MODEL });
    expect(blind.events[3]).toMatchObject({ judge: 'Speaker Y2', evaluation: { continue_vote: true } });
  });
});
