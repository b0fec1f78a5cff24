/**
 * A debater's prompts as one conversation of its own, append-only: the rules, then each round a
 * user turn (what was said since the debater last spoke, then its task) and the debater's
 * statement as its own assistant turn. Each request is the previous one with the debater's answer
 * and the next turn added, so a server slot that keeps the debater's last prompt and answer (the
 * model serves no one else in the duel) serves all of it from its cache; a shared transcript would
 * put the debater's last statement after that prompt's task instead, to be read again.
 *
 * When the conversation from round 1 no longer fits the window, it starts at a later round: its
 * first turn gives the rounds before as the transcript does (the older ones by the Judge's
 * summary, the last one verbatim), and it grows from there again.
 */
import type { RulesPlacement } from '../../agents/message-layout.js';
import { transcriptText } from '../../agents/prompts.js';
import type { DuelScenario } from '../../config/scenario.js';
import type { ChatMessage } from '../../llm/provider.js';
import type { SequenceState } from '../shared/sequence-state.js';
import { roundView, statementEntry } from './duel-transcript.js';

type DuelState = SequenceState<DuelScenario>;
type Side = 'a' | 'b';
type Statement = DuelState['statements'][number];

export interface ConversationParts {
  /** The duel's rules, shared with every other call. */
  system: string;
  /** Where the rules go for this debater's model (see message-layout.ts). */
  placement: RulesPlacement;
  /** The debater's task in a round: fixed once the round before it is judged. */
  task: (round: number) => string;
  /** Whether the messages fit the window the call will be fitted to. */
  fits: (messages: readonly ChatMessage[]) => boolean;
}

/** Told once, in the first turn, so a small model knows whose words its earlier replies are. */
export function conversationNote(name: string): string {
  return `Your replies in this conversation are your own statements as ${name}; each of my later messages brings what was said since you last spoke, then your next task.`;
}

/**
 * The heading between what was said and who the debater is: a statement in the turn ends at it, as
 * a statement of the shared transcript ends with its message (a person's view of the turn reads it so).
 */
const SIDE_HEADING = '## Your side';

const opponentOf = (side: Side): Side => (side === 'a' ? 'b' : 'a');

const statementOf = (state: DuelState, side: Side, round: number): Statement | undefined =>
  state.statements.find((statement) => statement.round === round && statement.side === side);

/**
 * The opponent's statement a debater answers in `round`: B's of the round before for A (who opens
 * each round), A's of the same round for B.
 */
function answered(state: DuelState, side: Side, round: number): Statement | undefined {
  return statementOf(state, opponentOf(side), side === 'a' ? round - 1 : round);
}

/** The opponent's statement said since the debater last spoke, headed by its round. */
function since(state: DuelState, side: Side, round: number): string {
  const statement = answered(state, side, round);
  if (!statement) return '';
  const entry = statementEntry(state.scenario, statement);
  const heading =
    side === 'a'
      ? `### Round ${statement.round}, ${statement.speaker}'s answer`
      : `### Round ${statement.round}`;
  return `${heading}\n\n**${entry.agent}** (${entry.label}):\n${entry.text.trim()}`;
}

/**
 * The first turn of a conversation that starts at `start`: everything said before the debater's
 * statement of that round (the rounds before the last one condensed to the Judge's summaries),
 * then the task.
 */
function firstTurn(state: DuelState, side: Side, start: number, parts: ConversationParts): string {
  const spoken = new Set(state.statements.map((statement) => statement.round));
  const rounds = [...spoken]
    .filter((round) => round < start || (round === start && side === 'b'))
    .sort((first, second) => first - second)
    .map((round) =>
      roundView(state, round, round < start - 1, (statement) => round < start || statement.side === 'a'),
    );
  const history = transcriptText({ summaries: [], rounds });
  const name = state.scenario.debaters[side].name;
  return [
    parts.placement === 'first-user' ? parts.system : '',
    history,
    `${SIDE_HEADING}\n${conversationNote(name)}`,
    parts.task(start),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

/** The conversation for the debater's statement in `round`, starting at round `start`. */
function conversationFrom(
  state: DuelState,
  side: Side,
  round: number,
  start: number,
  parts: ConversationParts,
): ChatMessage[] | undefined {
  const messages: ChatMessage[] =
    parts.placement === 'system' ? [{ role: 'system', content: parts.system }] : [];
  messages.push({ role: 'user', content: firstTurn(state, side, start, parts) });
  for (let turn = start + 1; turn <= round; turn += 1) {
    const own = statementOf(state, side, turn - 1);
    if (!own) return undefined;
    messages.push({ role: 'assistant', content: own.text.trim() });
    const heard = since(state, side, turn);
    messages.push({
      role: 'user',
      content: [heard, `${SIDE_HEADING}\n${parts.task(turn)}`].filter((part) => part !== '').join('\n\n'),
    });
  }
  return messages;
}

/**
 * The debater's conversation for its statement in `round`, from the earliest round it can start
 * at and still fit; undefined when even the conversation of this round alone does not fit (the
 * caller then uses the shared transcript, which the window fitter can cut).
 */
export function debaterConversation(
  state: DuelState,
  side: Side,
  round: number,
  parts: ConversationParts,
): ChatMessage[] | undefined {
  for (let start = 1; start <= round; start += 1) {
    const messages = conversationFrom(state, side, round, start, parts);
    if (messages && parts.fits(messages)) return messages;
  }
  return undefined;
}
