/**
 * The council Judge weighs all three rounds. When they do not fit its window whole, the earlier
 * rounds give each role's position lines and the last round stays whole: the window fitter, at
 * the same rate, never has to cut the prompt.
 */
import { describe, expect, it } from 'vitest';
import type { CouncilScenario } from '../../src/config/scenario.js';
import { fitToWindow } from '../../src/context/fit-window.js';
import { answerText, judgeMessages } from '../../src/formats/council/council-prompts.js';
import type { SequenceState } from '../../src/formats/shared/sequence-state.js';
import { councilAfterRounds } from '../helpers/council-state.js';

/** A text of `chars` characters: a field filled to its schema bound. */
const sentence = (chars: number, tag: string) =>
  `${Array.from({ length: chars }, (_, at) => `${tag}${at % 7}`)
    .join(' ')
    .slice(0, chars - 1)}.`;

function councilAfterThreeRounds(): Promise<SequenceState<CouncilScenario>> {
  return councilAfterRounds({
    rounds: 3,
    scenario: { judge_max_tokens: 1000 },
    // Every text at its schema's bound (a 600-token cap): what a grammar-held role writes when it runs long.
    resultOf: (round, role) => ({
      claim: sentence(180, `claim${round}${role}`),
      rationale: sentence(360, `why${round}${role}`),
      risks: [sentence(90, 'riskA'), sentence(90, 'riskB'), sentence(90, 'riskC')],
      ...(round === 2
        ? {
            challenges: [1, 2, 3].map(() => ({
              target: 'Response A',
              target_role: 'Critic',
              challenge: sentence(108, 'ch'),
            })),
          }
        : { stance: 'for', confidence: 0.8 }),
      ...(round === 3 ? { revision: sentence(270, 'rev') } : {}),
    }),
  });
}

describe('the council Judge within its window', () => {
  it('keeps every round whole when they fit, and the last round whole when they do not', async () => {
    const state = await councilAfterThreeRounds();
    const consensus = {
      consensus_score: 0.75,
      confidence_score: 0.8,
      key_agreements: [],
      key_disagreements: [],
    };
    const roundThree = state.assessments
      .filter((item) => item.phase === 'round-3')
      .map((item) => answerText(item.result ?? {}));
    const rationaleOne = String(state.assessments[0]?.result?.rationale);
    for (const rate of [4, 2]) {
      const messages = judgeMessages(state, consensus, '2026-01-01', rate);
      const fitted = fitToWindow(messages, {
        contextWindow: state.scenario.model_options.context_window,
        maxTokens: state.scenario.judge_max_tokens,
        charsPerToken: rate,
        what: 'the Judge',
      });
      expect(fitted.omittedChars).toBe(0);
      const text = messages.map((message) => message.content).join('\n');
      for (const answer of roundThree) expect(text).toContain(answer);
      // At 4 characters a token everything fits whole; at 2 (a small vocabulary) the first rounds give their positions only.
      if (rate === 4) expect(text).toContain(rationaleOne);
      else {
        expect(text).not.toContain(rationaleOne);
        expect(text).toContain(String(state.assessments[0]?.result?.claim));
        expect(text).toContain("## Round 1 (each role's position");
      }
    }
  });
});
