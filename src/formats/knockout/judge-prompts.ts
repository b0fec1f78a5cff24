/**
 * A knockout judge's prompt: the debate's shared prefix (rules with the judging criteria, and the
 * transcript), the rubric the round's judges share (whom they judge, the answer form, what they are
 * told as judges), then the judge's own task, which only names it.
 */
import { rulesPlacementFor } from '../../agents/message-layout.js';
import type { KnockoutScenario } from '../../config/scenario.js';
import type { AgentConfig } from '../../config/scenario-schema.js';
import type { ChatMessage } from '../../llm/provider.js';
import { JUDGING_CRITERIA_HEADING, knockoutSystemPrompt, transcriptUpTo } from './knockout-prompts.js';
import type { KnockoutState } from './state.js';

// A judging step asks for each judge's prompt twice from the same state (the planner checks that it
// fits, then the judge's call sends it): it is built once per state. States are immutable (the
// fold makes a new one per event).
const judgePrompts = new WeakMap<KnockoutState, Map<string, ChatMessage[]>>();

export function judgeMessages(
  state: KnockoutState,
  judge: AgentConfig,
  round: number,
  debater: string,
): ChatMessage[] {
  let built = judgePrompts.get(state);
  if (!built) {
    built = new Map();
    judgePrompts.set(state, built);
  }
  const key = JSON.stringify([judge.name, round, debater]);
  let messages = built.get(key);
  if (!messages) {
    messages = buildJudgeMessages(state, judge, round, debater);
    built.set(key, messages);
  }
  return messages;
}

/**
 * The rubric every judge of a round shares: whom it judges, where the criteria are (the rules, at
 * the start of every prompt), the answer's shape with every criterion named. It comes right after
 * the transcript, so the three judge calls of a round differ only in their last message (the
 * judge's identity) and Ollama's prompt cache reuses everything before it.
 */
export function judgingRubric(scenario: KnockoutScenario, round: number, debater: string): string {
  const scores = Object.keys(scenario.judging.criteria)
    .map((name) => `"${name}": <1-5>`)
    .join(', ');
  return [
    `## Judging round ${round}: the performance of ${debater} (Position Y, ${scenario.positions.y})`,
    `The Position Y agents who sat out this exchange judge ${debater}'s performance in round ${round}, in the light of the whole transcript above. Score each criterion from 1 (poor) to 5 (excellent) by its guide under "${JUDGING_CRITERIA_HEADING}" at the top.`,
    '',
    'The answer is this JSON object and nothing else, written in this order:',
    `{"comments": "<two or three sentences: what ${debater} did well and badly in this round>", "position_y_performance": {${scores}}, "new_arguments": <true if this round brought new substantive arguments, false if it only repeated earlier ones>, "continue_vote": <true keeps ${debater} debating, false asks for another Position Y agent>}`,
    'Write the comments first, then scores that follow from them, then the vote. A vote to keep the debater goes with scores above 3 on the whole, a vote to replace it with scores below 3.',
    '',
    // Every judge of the round is on Position Y and sat out the exchange: what they are told as
    // judges is shared here, and each one's own task below only names it.
    `You are one of these judges: on the ${scenario.positions.y} side (Position Y), you sat out this exchange. You are a judge now, not a debater: do not argue the motion and do not write a statement. Score ${debater}'s performance in round ${round} fairly and critically; your side needs its strongest debater at the podium, so sharing a side is no reason to be lenient.`,
  ].join('\n');
}

function buildJudgeMessages(
  state: KnockoutState,
  judge: AgentConfig,
  round: number,
  debater: string,
): ChatMessage[] {
  const { scenario } = state;
  // The judge keeps its identity and side (seed 004), but not its debater's persona, which tells it
  // to defend its position: a judge scores, it does not argue. Its side and its instruction as a
  // judge are the same for the round's three judges, so the shared rubric above gives them.
  const task = [
    `## Your task: evaluate round ${round}`,
    `Your name: ${judge.name}`,
    'Reply with the JSON object only.',
  ].join('\n');
  return [
    {
      role: rulesPlacementFor(judge.model) === 'system' ? 'system' : 'user',
      content: knockoutSystemPrompt(scenario),
    },
    { role: 'user', content: transcriptUpTo(state, round) },
    { role: 'user', content: judgingRubric(scenario, round, debater) },
    { role: 'user', content: task },
  ];
}
