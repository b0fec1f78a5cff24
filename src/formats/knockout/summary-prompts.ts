/**
 * The running summary's call. It shares the debate's prefix (the system message, then the
 * transcript as far as the rounds it folds), so a server's prompt cache already holds all of it but
 * the task. It writes one part of the summary at a time (the rounds it folds, after the parts
 * already written), or, when the parts would take too much of the window, one summary that
 * replaces them all.
 */
import { claimLine } from '../../agents/claims-ledger.js';
import { lengthRequest, roundsLabel } from '../../agents/prompts.js';
import type { ChatMessage } from '../../llm/provider.js';
import { knockoutMessages, transcriptUpTo } from './knockout-prompts.js';
import { type KnockoutState, summaryChain } from './state.js';

/** A fold of the transcript into the running summary, as the planner plans it. */
export interface FoldPlan {
  /** The first round the new part covers: 1 when it replaces every earlier part. */
  fromRound: number;
  throughRound: number;
  /** The length asked for, in words. */
  words: number;
  model: string;
  /** The part as written from the claims ledger, when the scenario folds that way. */
  text?: string;
}

/** The `model` a summary written from the claims ledger records: no model wrote it. */
export const LEDGER_SUMMARY_MODEL = 'claims ledger';

/** Whether this run's folds write their parts from the claims ledger instead of asking a model. */
export function foldsFromLedger(state: KnockoutState): boolean {
  const { scenario } = state;
  return (scenario.context as { summary?: string }).summary === 'ledger' && scenario.memory.claims !== 'off';
}

/**
 * A part of the running summary written from the claims ledger: each statement of the folded
 * rounds by its claims, in the speaker's own sentences, and what they answered. No model call, so
 * a fold costs the round after it nothing but the reading of the part.
 */
export function ledgerSummary(state: KnockoutState, from: number, through: number): string {
  const { scenario } = state;
  const rounds = state.rounds.filter((round) => round.number >= from && round.number <= through);
  const agentOf = (id: string) => state.ledger.find((claim) => claim.id === id)?.agent;
  return rounds
    .map((round) => {
      const lines = round.statements
        .filter((statement) => !statement.degraded)
        .map((statement) => {
          const side = statement.position === 'X' ? scenario.positions.x : scenario.positions.y;
          const claims = state.ledger.filter(
            (claim) => claim.round === round.number && claim.agent === statement.agent,
          );
          const said = claims.map((claim) => {
            const answered = claim.answers ? agentOf(claim.answers) : undefined;
            const notes = [
              ...(claim.kind === 'restated' ? ['restated'] : []),
              ...(answered ? [`answering ${answered}`] : []),
            ];
            return `  - "${claim.claim.trim()}"${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
          });
          const who = `- ${statement.agent} (Position ${statement.position}, ${side})`;
          // One claim a line: a small model reads a list more reliably than quotes run together.
          return said.length > 0 ? [`${who} claimed:`, ...said].join('\n') : `${who}: no claim was recorded.`;
        });
      return [`Round ${round.number}:`, ...lines].join('\n');
    })
    .join('\n');
}

/**
 * The whole running summary rewritten from the claims ledger, when its parts have grown too long:
 * who debated in each round and who took the floor after it, and no claim. The claims of these
 * rounds still unanswered follow it in every prompt (the transcript's list of open claims); those
 * answered or restated since are what the rewrite leaves out, as a model asked to "keep what they
 * say about claims still in play" would. No model call, so this fold too holds no round up.
 */
export function ledgerRewrite(state: KnockoutState, through: number): string {
  const { scenario } = state;
  const side = (position: 'X' | 'Y') => (position === 'X' ? scenario.positions.x : scenario.positions.y);
  const lines = state.rounds
    .filter((round) => round.number <= through)
    .map((round) => {
      const speakers = round.statements
        .map(
          (statement) => `${statement.agent} (Position ${statement.position}, ${side(statement.position)})`,
        )
        .join(' and ');
      const rotation = round.end?.rotation;
      const after = rotation
        ? ` The judges then gave Position Y's floor to ${rotation.to} in place of ${rotation.from}.`
        : '';
      return `- Round ${round.number}: ${speakers || 'no statement was made'}.${after}`;
    });
  return [
    `Who debated in ${roundsLabel(1, through)}. The main claims of these rounds still unanswered are listed below; those answered or restated since are left out.`,
    ...lines,
  ].join('\n');
}

/** How long a claim line in the summariser's list may be. */
const LISTED_CLAIM_CHARS = 120;

/** How much of an answered claim a line quotes to say which claim it was. */
const ANSWERED_CLAIM_CHARS = 60;

/**
 * The claims recorded in the rounds being folded, by their words, with what they answer and what
 * answered them, by who said it and when: no claim id, which the summary must not repeat.
 */
function claimsText(state: KnockoutState, from: number, through: number): string {
  const byId = new Map(state.ledger.map((claim) => [claim.id, claim]));
  const claims = state.ledger.filter((claim) => claim.round >= from && claim.round <= through);
  if (claims.length === 0) return '';
  const quoted = (text: string) => {
    const trimmed = text.trim();
    return trimmed.length <= ANSWERED_CLAIM_CHARS
      ? trimmed
      : `${trimmed.slice(0, ANSWERED_CLAIM_CHARS - 1).trimEnd()}…`;
  };
  const lines = claims.map((claim) => {
    const answers = claim.answers ? byId.get(claim.answers) : undefined;
    const answeredBy = [
      ...new Set(
        claim.answeredBy
          .map((id) => byId.get(id))
          .filter((other) => other !== undefined && other.round <= through)
          .map((other) => `${other?.agent} in round ${other?.round}`),
      ),
    ];
    const notes = [
      ...(claim.kind === 'restated' ? ['restated'] : []),
      ...(answers
        ? [`answering ${answers.agent}'s round ${answers.round} claim "${quoted(answers.claim)}"`]
        : []),
      ...(answeredBy.length > 0 ? [`answered by ${answeredBy.join(' and ')}`] : []),
    ];
    return `- ${claimLine(claim, { id: false, maxChars: LISTED_CLAIM_CHARS })}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  });
  return `Claims recorded in ${roundsLabel(from, through)}:\n${lines.join('\n')}`;
}

export function summaryMessages(state: KnockoutState, plan: FoldPlan): ChatMessage[] {
  const { scenario } = state;
  const chain = summaryChain(state.summaries);
  const covered = chain.at(-1)?.throughRound ?? 0;
  const { fromRound: from, throughRound: through } = plan;
  const parts = chain.map((part) => `the summary of ${roundsLabel(part.fromRound ?? 1, part.throughRound)}`);
  const what =
    chain.length === 0
      ? `Summarise ${roundsLabel(from, through)} above.`
      : from > 1
        ? `Summarise ${roundsLabel(from, through)} above, and only those: ${parts.join(' and ')} above stays as it is, and yours follows on from it.`
        : `Rewrite ${parts.join(' and ')} above${through > covered ? `, with ${roundsLabel(covered + 1, through)},` : ''} into one summary of ${roundsLabel(1, through)} that replaces them. Keep what they say about claims still in play.`;
  const task = [
    `## Your task: the summary of ${roundsLabel(from, through)}`,
    "You are the debate's note-taker now, not a debater, and you take no side. The participants and the judges will read your summary in place of the rounds it covers.",
    what,
    'A good summary is faithful: it keeps every claim that is still in play, who made it and in which round, and which claims were answered and how. It drops rhetoric and repetition, adds nothing that was not said, and says nothing of how anyone was judged: judges read it too.',
    'Write plain prose, round by round or claim by claim, naming who argued what and which claims were answered. Do not write claim ids or labels in brackets: the participants read this summary.',
    claimsText(state, covered + 1, through),
    lengthRequest(scenario.context.summary_max_tokens, undefined, plan.words),
  ]
    .filter((line) => line !== '')
    .join('\n');
  return knockoutMessages(scenario, transcriptUpTo(state, through), task, plan.model);
}
