/**
 * Switching a scenario's topic (seed 004 §2.2 and §3.3: topics are easy to swap). A new topic makes
 * a new debate: the positions of the old one ("Pro-Choice", "Pro-Life") become the ones given, or
 * neutral ones; the personas and the background written for the old topic are left out, since a
 * debater told it is "a reproductive-rights attorney" would argue abortion whatever the motion; and
 * the user is told what was replaced. Agent names, models and every other setting stay.
 */
import type { Scenario } from './scenario.js';

/** Roles that argue a side without a persona of their own. */
const NEUTRAL_ROLE = (side: string) =>
  `You argue ${side}. Build a clear case with evidence and reasoning, answer your opponent directly, and keep a respectful tone while firmly defending your position.`;

export interface TopicSwitch {
  scenario: Scenario;
  /** What was replaced or left out, in one sentence; null when nothing was. */
  notice: string | null;
}

function quoted(items: string[]): string {
  return items.map((item) => `"${item}"`).join(' and ');
}

export function switchTopic(
  scenario: Scenario,
  topic: string,
  positions?: readonly [string, string],
): TopicSwitch {
  let renamed = '';
  const leftOut: string[] = [];
  const withoutBackground = (): Pick<Scenario, 'background' | 'contextFiles'> => {
    const entries = Object.keys(scenario.background.knowledge).length + scenario.contextFiles.length;
    if (entries > 0) leftOut.push(`the background (${entries} ${entries === 1 ? 'entry' : 'entries'})`);
    return { background: { knowledge: {}, files: [] }, contextFiles: [] };
  };
  const newPositions = (old: [string, string], neutral: [string, string]): [string, string] => {
    const chosen: [string, string] = positions ? [positions[0], positions[1]] : neutral;
    if (old[0] !== chosen[0] || old[1] !== chosen[1]) {
      renamed = `the positions ${quoted(old)} become ${quoted(chosen)}`;
    }
    return chosen;
  };
  let next: Scenario;
  switch (scenario.format) {
    case 'knockout': {
      const [x, y] = newPositions([scenario.positions.x, scenario.positions.y], ['For', 'Against']);
      if (scenario.agents.length > 0) leftOut.push("the agents' personas");
      next = {
        ...scenario,
        topic,
        positions: { x, y },
        agents: scenario.agents.map((agent) => ({
          ...agent,
          role: NEUTRAL_ROLE(`${agent.position === 'X' ? x : y} on the question`),
        })),
        ...withoutBackground(),
      };
      break;
    }
    case 'duel': {
      const [a, b] = newPositions([scenario.positions.a, scenario.positions.b], ['For', 'Against']);
      const { a: first, b: second } = scenario.debaters;
      if (first.role || second.role) leftOut.push("the debaters' personas");
      const { role: _a, ...plainA } = first;
      const { role: _b, ...plainB } = second;
      next = {
        ...scenario,
        topic,
        positions: { a, b },
        debaters: { a: plainA, b: plainB },
        ...withoutBackground(),
      };
      break;
    }
    case 'formal': {
      const [affirmative, negative] = newPositions(
        [scenario.positions.affirmative, scenario.positions.negative],
        ['For the motion', 'Against the motion'],
      );
      if (scenario.debaters?.some((debater) => debater.role)) leftOut.push("the debaters' personas");
      next = {
        ...scenario,
        topic,
        positions: { affirmative, negative },
        ...(scenario.debaters
          ? { debaters: scenario.debaters.map(({ role: _role, ...debater }) => debater) }
          : {}),
        ...withoutBackground(),
      };
      break;
    }
    case 'council': {
      if (scenario.constraints.length > 0) leftOut.push('the constraints');
      if (scenario.options) leftOut.push('the options');
      const { options: _options, ...rest } = scenario;
      next = { ...rest, topic, constraints: [], ...withoutBackground() };
      break;
    }
    case 'truth':
      // The questions carry their own text: the topic only names the set.
      next = { ...scenario, topic };
      break;
    case 'critique':
      // The experts' roles (architect, security, ...) are not about one problem: they stay.
      next = { ...scenario, topic, ...withoutBackground() };
      break;
  }
  const parts = [
    renamed,
    leftOut.length > 0 ? `${leftOut.join(' and ')} ${leftOut.length === 1 ? 'is' : 'are'} left out` : '',
  ].filter((part) => part !== '');
  const sided = scenario.format === 'knockout' || scenario.format === 'duel' || scenario.format === 'formal';
  const notice =
    parts.length === 0
      ? null
      : `--topic starts a new debate: ${parts.join('; ')}, since they belonged to "${scenario.topic.trim()}".${
          sided && !positions ? ' Name the positions with --positions "FOR,AGAINST".' : ''
        }`;
  return { scenario: next, notice };
}
