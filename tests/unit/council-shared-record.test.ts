/**
 * The council's prompts share what they can, in order: every role of a round reads the same
 * record and the same round task, and only its own card differs; each round's record begins with
 * the one the round before read, and so does the Judge's. Round 2's packet keeps the review
 * anonymous: the openings under labels only, one order for every reviewer, each told which one is
 * its own and allowed to challenge only the others.
 */
import { describe, expect, it } from 'vitest';
import type { CouncilScenario } from '../../src/config/scenario.js';
import {
  DEBATING_ROLES,
  judgeMessages,
  packetOrder,
  peerLabels,
  roundMessages,
} from '../../src/formats/council/council-prompts.js';
import type { SequenceState } from '../../src/formats/shared/sequence-state.js';
import { councilAfterRounds } from '../helpers/council-state.js';

function councilAfter(rounds: number, seed = 7): Promise<SequenceState<CouncilScenario>> {
  return councilAfterRounds({
    rounds,
    scenario: { seed },
    resultOf: (round, role) => ({
      claim: `The ${role}'s claim in round ${round}.`,
      rationale: `The ${role}'s reasons in round ${round}.`,
      risks: [`A risk the ${role} sees.`],
      ...(round === 2
        ? {
            challenges: [
              { target: 'Response A', target_role: 'Critic', challenge: `A challenge by the ${role}.` },
            ],
          }
        : { stance: 'for', confidence: 0.7 }),
    }),
  });
}

describe("the council's shared record", () => {
  it('gives every role of a round the same messages but its own card', async () => {
    const state = await councilAfter(2);
    for (const round of [1, 2, 3]) {
      const prompts = DEBATING_ROLES.map((role) => roundMessages(state, role, round));
      const contents = (messages: Array<{ content: string }> | undefined) =>
        (messages ?? []).slice(0, -1).map((message) => message.content);
      for (const messages of prompts) {
        expect(contents(messages)).toEqual(contents(prompts[0]));
        expect(messages.at(-1)?.content).toContain('## Your task');
      }
      // The cards differ: each names its own role.
      expect(new Set(prompts.map((messages) => messages.at(-1)?.content)).size).toBe(DEBATING_ROLES.length);
    }
  });

  it("puts the rules where the role's model keeps them first: a system message, or for mistral the first user message", async () => {
    const state = await councilAfter(1);
    const scenario = state.scenario as unknown as { participants: Record<string, { model: string }> };
    for (const role of DEBATING_ROLES) {
      const model = scenario.participants[role.toLowerCase()]?.model ?? '';
      const first = roundMessages(state, role, 2)[0];
      expect(first?.content).toContain('structured decision council');
      expect(first?.role).toBe(model.startsWith('mistral') ? 'user' : 'system');
    }
  });

  it("begins each round's record, and the Judge's, with the one the round before read", async () => {
    const state = await councilAfter(3);
    const record = (round: number) => roundMessages(state, 'Analyst', round)[1]?.content ?? '';
    expect(record(3).startsWith(record(2))).toBe(true);
    expect(record(3).length).toBeGreaterThan(record(2).length);
    const judge = judgeMessages(state, { consensus_score: 0.5 }, '2026-01-01');
    expect(judge[1]?.content.startsWith(record(3))).toBe(true);
    expect(judge[1]?.content).toContain('## Round 3');
    expect(judge[0]).toEqual(roundMessages(state, 'Analyst', 3)[0]);
  });

  it('keeps the peer review anonymous: labels only, one order, each reviewer told its own', async () => {
    const state = await councilAfter(1);
    const packet = roundMessages(state, 'Critic', 2)[1]?.content ?? '';
    for (const role of DEBATING_ROLES) expect(packet).not.toContain(`### ${role}`);
    const order = packetOrder(state);
    expect(order.map((item) => item.role).sort()).toEqual([...DEBATING_ROLES].sort());
    for (const { label, role } of order) {
      // Each opening under its label, as its author wrote it.
      const shown = packet.split(`### ${label}\n`)[1]?.split('\n### ')[0] ?? '';
      expect(shown).toContain(`The ${role}'s claim in round 1.`);
      const card = roundMessages(state, role, 2).at(-1)?.content ?? '';
      expect(card).toContain(`${label} is your own opening position`);
      const targets = peerLabels(state, role).map((item) => item.label);
      expect(targets).not.toContain(label);
      expect(targets).toHaveLength(DEBATING_ROLES.length - 1);
    }
  });

  it('draws the packet order from the seed, so no role is always read first', async () => {
    const firsts = new Set<string>();
    for (let seed = 1; seed <= 20; seed += 1) {
      firsts.add(packetOrder(await councilAfter(0, seed))[0]?.role ?? '');
    }
    expect(firsts.size).toBe(DEBATING_ROLES.length);
  });
});
