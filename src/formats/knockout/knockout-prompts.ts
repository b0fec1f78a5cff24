/** The knockout format's prompts, built on the shared layout in `agents/prompts.ts`. */
import { answerableClaims, claimsTask } from '../../agents/claim-extraction.js';
import {
  claimLine,
  describeLedgerMemory,
  type LedgerClaim,
  type LedgerMemory,
  liveClaimsThrough,
  memoryFromLedger,
} from '../../agents/claims-ledger.js';
import { extractKeyPoints } from '../../agents/key-points.js';
import { buildMemory, describeMemory, type SpokenStatement } from '../../agents/memory.js';
import { rulesPlacementFor } from '../../agents/message-layout.js';
import { buildMessages, lengthRequest, type TranscriptView, transcriptText } from '../../agents/prompts.js';
import { backgroundText } from '../../config/background-text.js';
import type { KnockoutScenario } from '../../config/scenario.js';
import type { AgentConfig } from '../../config/scenario-schema.js';
import { criteriaLines } from '../../judging/criteria.js';
import type { ChatMessage } from '../../llm/provider.js';
import { type KnockoutState, summaryChain } from './state.js';

/** The transcript as agents see it now: the running summary's parts, then later rounds verbatim. */
export function transcriptView(state: KnockoutState, options: { upToRound?: number } = {}): TranscriptView {
  const chain = summaryChain(state.summaries);
  const covered = chain.at(-1)?.throughRound ?? 0;
  const last = options.upToRound ?? Number.POSITIVE_INFINITY;
  return {
    summaries: chain.map((summary) => ({
      fromRound: summary.fromRound ?? 1,
      throughRound: summary.throughRound,
      text: summary.text,
    })),
    ...(covered > 0 && state.scenario.memory.claims !== 'off'
      ? { openClaims: openClaimLines(state, covered) }
      : {}),
    rounds: state.rounds
      // The last summarised round stays as its moderator's note when someone took the floor after it.
      .filter((round) => round.number >= covered && round.number <= last)
      .filter((round) => round.number > covered || round.end?.rotation)
      .map((round) => ({
        number: round.number,
        ...(round.number === covered ? { title: `After round ${covered}` } : {}),
        statements:
          round.number === covered
            ? []
            : round.statements.map((statement) => ({
                agent: statement.agent,
                label: `Position ${statement.position}, ${statement.position === 'X' ? state.scenario.positions.x : state.scenario.positions.y}`,
                text: statement.text,
              })),
        // No verdict, vote or score enters a prompt (a judge must judge the statements, not the
        // panel before it); only who takes the floor next, when that changes.
        transition: round.end?.rotation
          ? { summary: `${round.end.rotation.to} takes the floor for Position Y.`, focus: '' }
          : undefined,
      })),
  };
}

/** Shares of the context window the ledger's open claims and an agent's memory may take. */
const OPEN_CLAIMS_SHARE = 0.08;
const MEMORY_SHARE = 0.1;

/**
 * The claims of the summarised rounds that were still unanswered there, so a claim made in round 1
 * and never answered still reaches the prompts of round 30, whatever the summaries kept. Fixed for a
 * given summary (it changes only when a new summary is written), so the prompt's prefix stays stable.
 * When they would take more than their share of the window, each statement keeps its first claim,
 * and then the newest claims give way to the oldest.
 */
export function openClaimLines(state: KnockoutState, throughRound: number): string[] {
  return openClaimsShown(state, throughRound).map((claim) => claimLine(claim, { id: false }));
}

/** The claims `openClaimLines` lists. */
function openClaimsShown(state: KnockoutState, throughRound: number): LedgerClaim[] {
  const live = liveClaimsThrough(state.ledger, throughRound);
  const budgetChars = state.scenario.model_options.context_window * OPEN_CLAIMS_SHARE * 3.5;
  const size = (claims: LedgerClaim[]) => claims.reduce((sum, claim) => sum + claimLine(claim).length + 3, 0);
  let kept = live;
  if (size(kept) > budgetChars) kept = kept.filter((claim) => claim.id.endsWith('.1'));
  // The oldest claims are the ones the summaries are likeliest to have lost: the newest give way.
  while (kept.length > 0 && size(kept) > budgetChars) kept = kept.slice(0, -1);
  return kept;
}

export function allStatements(state: KnockoutState): SpokenStatement[] {
  // Emergency responses are not arguments: they never enter an agent's memory.
  return state.rounds.flatMap((round) =>
    round.statements
      .filter((statement) => !statement.degraded)
      .map((statement) => ({
        round: round.number,
        agent: statement.agent,
        position: statement.position,
        text: statement.text,
      })),
  );
}

export function debaterMessages(
  state: KnockoutState,
  agent: AgentConfig,
  round: number,
  tokenLimit: number,
): ChatMessage[] {
  const { scenario } = state;
  const own = agent.position === 'X' ? scenario.positions.x : scenario.positions.y;
  const other = agent.position === 'X' ? scenario.positions.y : scenario.positions.x;
  const current = state.rounds.find((candidate) => candidate.number === round);
  const answering = (current?.statements.length ?? 0) > 0;
  const last = round >= scenario.debate.rounds;
  // With a claims ledger, memory is what each side claimed and what is still unanswered; without
  // one, key sentences of the statements stand in. An agent that has spoken is never told otherwise.
  const hasSpoken = state.rounds.some((item) =>
    item.statements.some((statement) => statement.agent === agent.name),
  );
  const ledger =
    scenario.memory.claims === 'off' ? undefined : memoryFromLedger(state.ledger, agent.name, agent.position);
  const focus = focusFor(state, agent, round, ledger?.openOpponentClaims[0]);
  const memoryText = !ledger
    ? describeMemory(buildMemory(agent.name, agent.position, allStatements(state)), hasSpoken)
    : describeLedgerMemory(
        withoutListedClaims(state, ledger, focus.claim),
        // About a tenth of the window (in characters, at ~3.5 per token).
        scenario.model_options.context_window * MEMORY_SHARE * 3.5,
        {
          hasSpoken,
          ownKeySentences: allStatements(state)
            .filter((statement) => statement.agent === agent.name)
            .flatMap((statement) => extractKeyPoints(statement.text, 2)),
        },
        focus.claim !== undefined,
      );
  const task = [
    `Your name: ${agent.name}`,
    `You argue for: ${own}`,
    `You argue against: ${other}`,
    `Your side: Position ${agent.position}`,
    '',
    agent.role.trim(),
    '',
    memoryText.trim(),
    '',
    `## Your task: round ${round} of ${scenario.debate.rounds}`,
    takeoverNote(state, agent, round),
    focus.text,
    last
      ? `This is the last round: give your closing statement. ${answering ? 'Answer what your opponent has just said, then sum' : 'Sum'} up why ${own} should win, and end on your strongest point.`
      : answering
        ? 'Answer the statement your opponent has just made in this round, then advance your own case.'
        : `Give your statement for this round${round === 1 ? ', opening the debate' : ''}.`,
    `Speak as a debater, in the first person as ${agent.name}: address the motion and your opponent directly, in plain prose, without headings and without writing your name.`,
    lengthRequest(tokenLimit),
  ]
    .filter((line, index, lines) => !(line === '' && lines[index - 1] === ''))
    .join('\n');
  return knockoutMessages(scenario, transcriptUpTo(state, round), task, agent.model);
}

/**
 * An agent's memory from the ledger, without the opponent's open claims the prompt quotes
 * elsewhere: those the transcript's summary lists (the summarised rounds') and the focus claim
 * its task quotes. A prompt lists each claim once.
 */
function withoutListedClaims(state: KnockoutState, memory: LedgerMemory, focusClaim: string | undefined) {
  const covered = summaryChain(state.summaries).at(-1)?.throughRound ?? 0;
  const listed = new Set(covered === 0 ? [] : openClaimsShown(state, covered).map((claim) => claim.id));
  if (focusClaim !== undefined) listed.add(focusClaim);
  if (listed.size === 0) return memory;
  return {
    ...memory,
    openOpponentClaims: memory.openOpponentClaims.filter((claim) => !listed.has(claim.id)),
  };
}

/** The rotation after the round before `round`, if there was one. */
function rotationBefore(state: KnockoutState, round: number) {
  const previous = state.rounds.find((candidate) => candidate.number === round - 1);
  const rotation = previous?.end?.rotation;
  return rotation ? { ...rotation, votes: previous?.end?.tally.rotateVotes ?? 0 } : null;
}

/**
 * In the first round after a rotation: for the Position Y agent who takes over, whom it replaces
 * and why, and that it should bring its own line of argument rather than repeat its predecessor's;
 * for Position X, who now debates against it and whom they replaced.
 */
function takeoverNote(state: KnockoutState, agent: AgentConfig, round: number): string {
  const rotation = rotationBefore(state, round);
  if (!rotation) return '';
  const why = `whom ${rotation.votes} of the judges voted to replace after round ${round - 1}`;
  if (agent.position === 'X') {
    return `Your opponent has changed: ${rotation.to} now debates for ${state.scenario.positions.y} (Position Y) in place of ${rotation.from}, ${why}.`;
  }
  if (rotation.to !== agent.name) return '';
  return `You take over from ${rotation.from}, ${why}. Bring your own line of argument for ${state.scenario.positions.y}: do not repeat ${rotation.from}'s.`;
}

/**
 * The speaker's own focus, built when it speaks, after the statement it answers: the most pressing
 * of the opponent's claims its side has not answered (taken out of the list in its memory, which
 * then names the others: `mostPressing`, from the ledger), or, without a ledger, the opponent's
 * latest key point. `claim` is the id of the ledger's claim it quotes, if it does.
 */
function focusFor(
  state: KnockoutState,
  agent: AgentConfig,
  round: number,
  mostPressing: LedgerClaim | undefined,
): { text: string; claim?: string } {
  const { scenario } = state;
  // After a rotation, Position X's focus names the opponent it now faces, whose claim it answers
  // or, before the newcomer has spoken, the predecessor's claim the newcomer's side still holds.
  const rotation = agent.position === 'X' ? rotationBefore(state, round) : null;
  const focus = (who: string, what: 'claim' | 'point', from: number, text: string, open: boolean) => {
    const answer = `answer ${who}'s ${what} from round ${from}, "${text.trim()}"${open ? ', which your side has not answered yet' : ''}`;
    if (!rotation || who === rotation.to) return `Your focus: ${answer}.`;
    return `Your focus: your opponent is now ${rotation.to}, in place of ${rotation.from}. ${upperFirst(answer)}, which ${rotation.to}'s side still holds, then make your case to ${rotation.to}.`;
  };
  const fresh = rotation
    ? `Your focus: your opponent is now ${rotation.to}, in place of ${rotation.from}: make your case to ${rotation.to}.`
    : '';
  if (scenario.memory.claims !== 'off') {
    return mostPressing
      ? {
          text: focus(mostPressing.agent, 'claim', mostPressing.round, mostPressing.claim, true),
          claim: mostPressing.id,
        }
      : { text: fresh };
  }
  const latest = allStatements(state)
    .filter((statement) => statement.position !== agent.position && statement.round <= round)
    .at(-1);
  const point = latest ? extractKeyPoints(latest.text, 1)[0] : undefined;
  return { text: latest && point ? focus(latest.agent, 'point', latest.round, point, false) : fresh };
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The transcript message is built once per state and round: states are immutable (the fold makes
// a new one per event), and a round's calls share it.
const transcriptTexts = new WeakMap<KnockoutState, Map<number, string>>();

/**
 * A claims extraction for `agent`'s statement in `round`: the debate's shared prefix (rules and the
 * transcript, which now ends with that statement), then the note-taker's task.
 */
export function claimsMessages(
  state: KnockoutState,
  round: number,
  agent: string,
  position: 'X' | 'Y',
  model: string,
): ChatMessage[] {
  const task = claimsTask({
    agent,
    position,
    round,
    answerable: answerableClaims(state.ledger.filter((claim) => claim.position !== position)),
    ownSideClaims: state.ledger.filter((claim) => claim.position === position),
    maxTokens: state.scenario.memory.claims_max_tokens,
  });
  return knockoutMessages(state.scenario, transcriptUpTo(state, round), task, model);
}

/**
 * The commentator's call after `round`: the debate's shared prefix, then its task. What it writes
 * goes to the audience only: no debater's or judge's prompt ever contains it.
 */
export function commentaryMessages(state: KnockoutState, round: number): ChatMessage[] {
  const { scenario } = state;
  const commentary = scenario.commentary;
  const end = state.rounds.find((candidate) => candidate.number === round)?.end;
  const task = [
    `## Your task: commentary after round ${round} of ${scenario.debate.rounds}`,
    `Your name: ${commentary?.name ?? 'Commentator'}. You are the debate's commentator, speaking to the audience. You are not a debater or a judge, and nothing you say reaches them.`,
    commentary?.persona ? `Who you are: ${commentary.persona.trim()}` : '',
    end ? `The round's result: ${end.transition.summary}` : '',
    'In two or three sentences of plain prose: say what happened in this round, who is ahead and why, and what to watch next. Be concrete and fair to both sides; name the speakers.',
  ]
    .filter((line) => line !== '')
    .join('\n');
  return knockoutMessages(scenario, transcriptUpTo(state, round), task, commentary?.model ?? '');
}

/** The transcript message through `round`, built once per state and round. */
export function transcriptUpTo(state: KnockoutState, round: number): string {
  let texts = transcriptTexts.get(state);
  if (!texts) {
    texts = new Map();
    transcriptTexts.set(state, texts);
  }
  let text = texts.get(round);
  if (text === undefined) {
    text = transcriptText(transcriptView(state, { upToRound: round }));
    texts.set(round, text);
  }
  return text;
}

/**
 * The heading of the rules' judging criteria. Every participant reads how the debating Position Y
 * agent is scored (the debaters know what they are judged on); a judge's rubric points here instead
 * of repeating the criteria after the transcript, so the three judges of a round share them from
 * the cached start of the prompt (decision 026).
 */
export const JUDGING_CRITERIA_HEADING = 'How the debating Position Y agent is judged';

/** The system message: rules, motion, positions, judging criteria and background. Identical for every agent. */
export function knockoutSystemPrompt(scenario: KnockoutScenario): string {
  const { positions, debate, rotation } = scenario;
  return [
    'This is a knockout debate between AI agents.',
    `Motion: ${scenario.topic.trim()}`,
    `Position X: ${positions.x}`,
    `Position Y: ${positions.y}`,
    '',
    '## Rules',
    `- One Position X agent debates one Position Y agent at a time, for up to ${debate.rounds} rounds.`,
    `- In each round Position ${debate.starting_position} speaks first, then the other side answers.`,
    `- After each round the Position Y agents who are not debating judge the debating Position Y agent on ${criteriaNames(scenario)}, and vote to keep or replace it.`,
    `- When ${rotation.threshold} or more judges vote to replace it, a Position Y agent who has not debated yet takes over (at most ${rotation.limit} times).`,
    '- Each participant is given its own task at the end of this conversation: a statement to make, a round to judge, or a summary to write.',
    '',
    `## ${JUDGING_CRITERIA_HEADING}`,
    'Each criterion is scored from 1 (poor) to 5 (excellent); its weight is its share of the total:',
    criteriaLines(scenario.judging.criteria),
    backgroundText(scenario.background, scenario.contextFiles),
  ].join('\n');
}

/** The scenario's criteria as words: "argument strength, relevance, persuasiveness and clarity". */
function criteriaNames(scenario: KnockoutScenario): string {
  const names = Object.keys(scenario.judging.criteria).map((name) => name.replace(/_/g, ' '));
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A knockout prompt for `model`: the rules where its template keeps them first, the transcript, the task. */
export function knockoutMessages(
  scenario: KnockoutScenario,
  transcript: string,
  task: string,
  model: string,
): ChatMessage[] {
  return buildMessages(knockoutSystemPrompt(scenario), transcript, task, rulesPlacementFor(model));
}
