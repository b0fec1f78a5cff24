/**
 * AgentMemory (SRS 2.1): what an agent has argued, what its opponents argued, and its history.
 * Derived from the transcript rather than stored, so it survives rotation, resume and replay.
 */
import { extractKeyPoints } from './key-points.js';

export interface SpokenStatement {
  round: number;
  agent: string;
  position: 'X' | 'Y';
  text: string;
}

export interface AgentMemory {
  /** Rounds this agent spoke in, with its opening line. */
  debateHistory: string[];
  keyPointsMade: string[];
  opponentPoints: string[];
  /** Points its own side made before it took the floor (for an incoming Y). */
  sidePoints: string[];
}

const KEEP = 5;

export function buildMemory(
  agent: string,
  position: 'X' | 'Y',
  statements: readonly SpokenStatement[],
): AgentMemory {
  const own = statements.filter((statement) => statement.agent === agent);
  const side = statements.filter((statement) => statement.position === position && statement.agent !== agent);
  const opponents = statements.filter((statement) => statement.position !== position);
  const points = (list: readonly SpokenStatement[]) =>
    list.flatMap((statement) => extractKeyPoints(statement.text, 2)).slice(-KEEP);
  return {
    debateHistory: own.map(
      (statement) => `Round ${statement.round}: ${extractKeyPoints(statement.text, 1)[0] ?? '(no text)'}`,
    ),
    keyPointsMade: points(own),
    opponentPoints: points(opponents),
    sidePoints: points(side),
  };
}

/**
 * The memory as the agent's prompt states it. Only an agent that has made no statement is told it
 * has not spoken: `hasSpoken` says whether it has (a statement with no key sentence, or one the
 * engine had to stand in for, is still a statement).
 */
export function describeMemory(memory: AgentMemory, hasSpoken = memory.debateHistory.length > 0): string {
  const section = (title: string, items: string[]) =>
    items.length === 0 ? '' : `${title}:\n${items.map((item) => `- ${item}`).join('\n')}\n`;
  const text = [
    section('Points you have already made (build on them, do not repeat them)', memory.keyPointsMade),
    section("Your opponent's key points (answer the strongest)", memory.opponentPoints),
    section('Points your own side made before you took the floor', memory.sidePoints),
  ].join('');
  if (text !== '') return text;
  return hasSpoken
    ? 'You have already spoken in this debate: your statements are in the transcript above.\n'
    : 'You have not spoken yet in this debate.\n';
}
