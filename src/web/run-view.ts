/**
 * A run as the viewer shows it: its events folded by its format, the spectators' votes beside
 * them, and the page parts drawn from both (header, scoreboard, charts, transcript).
 */
import type { Scenario } from '../config/scenario.js';
import {
  type ArtifactEvent,
  type AssessmentEvent,
  isSimulated,
  type RunEvent,
  type Stored,
} from '../core/events.js';
import { plural } from '../core/plural.js';
import type { RunProgress } from '../core/run-progress.js';
import { stopReasonText } from '../core/stop-reason-text.js';
import { COUNCIL_ROUND_TITLES } from '../formats/council/round-titles.js';
import type { FormatLookup } from '../formats/format-definition.js';
import { councilAnswerText, duelRoundText, formalVerdictText } from '../render/judgement-text.js';
import { type SpectatorVote, tallySpectatorVotes } from '../store/spectator-votes.js';
import { runCharts } from './charts.js';
import { eventHtml, participants } from './event-html.js';
import { html, type SafeHtml } from './html.js';
import { resultHtml } from './outcome-html.js';
import type { RunView } from './viewed-run.js';

export function buildRunView(
  runId: string,
  events: RunEvent[],
  spectators: SpectatorVote[],
  live: boolean,
  formats: FormatLookup,
): RunView {
  const start = events[0]?.type === 'run-start' ? events[0] : undefined;
  const format = start ? formats(start.format) : undefined;
  let progress: RunProgress | null = null;
  if (format && start) {
    let state: unknown;
    for (const event of events) state = format.fold(state, event);
    progress = format.progress(state);
  }
  return { runId, events, scenario: start?.scenario, format, progress, spectators, live };
}

/** What a run's status reads as: a run whose process ended without a run-end is interrupted. */
export function statusOf(view: RunView): string {
  if (!view.progress) return view.live ? 'starting' : 'not started';
  if (view.progress.status === 'running' && !view.live) return 'interrupted';
  return view.progress.status;
}

export function headerHtml(view: RunView): SafeHtml {
  const status = statusOf(view);
  const progress = view.progress;
  return html`<h1 class="topic">${progress?.topic ?? view.scenario?.topic ?? view.runId}</h1>
<p class="meta"><span class="status status-${status}">${status}</span> ${progress ? html`${progress.format}${isSimulated(view.events) ? html` <span class="demo">(demo)</span>` : ''} · ${progress.done} of ${progress.total} done` : ''}${progress?.stopReason ? html` · ${stopReasonText(progress.stopReason)}` : ''}</p>
<p class="meta muted">Run <code class="run-id">${view.runId}</code>${view.scenario ? html` · seed ${view.scenario.seed}` : ''}</p>`;
}

/** Knockout: one row per round. Other formats: one row per judge's assessment. */
export function scoreboardHtml(view: RunView): SafeHtml {
  const rounds = view.events.filter((event) => event.type === 'round-end');
  const tally = tallySpectatorVotes(view.spectators);
  const audience = (round: number) =>
    [...(tally.get(round)?.entries() ?? [])].map(([choice, count]) => `${count} ${choice}`).join(', ');
  if (rounds.length > 0) {
    return html`<table class="scoreboard knockout"><thead><tr><th>Round</th><th>Y</th><th>Judges' votes</th><th>Mean</th><th>Outcome</th><th>Spectators</th></tr></thead><tbody>
${rounds.map(
  (round) =>
    html`<tr><td>${round.round}</td><td>${round.debater}</td><td>${votesText(round.tally)}</td><td>${round.tally.meanScore === null ? '–' : `${round.tally.meanScore.toFixed(2)}\u00a0/\u00a05`}</td><td>${round.rotation ? `${round.rotation.from} → ${round.rotation.to}` : round.outcome.replace(/-/g, ' ')}</td><td>${audience(round.round) || '–'}</td></tr>`,
)}
</tbody></table>`;
  }
  const assessments = view.events.filter((event) => event.type === 'assessment');
  // A truth run's results are in its Result panel, not repeated here.
  if (assessments.length === 0 && view.scenario?.format === 'truth')
    return html`<p class="muted">No question has been judged yet.</p>`;
  if (assessments.length === 0) {
    // A run that ended without a judge's word (a formal debate without a verdict): its outcome.
    const ended = view.progress !== null && view.progress.status !== 'running';
    return ended ? resultHtml(view) : html`<p class="muted">No round has been decided yet.</p>`;
  }
  if (view.scenario?.format === 'council') return councilScoreboardHtml(view.events, assessments);
  if (view.scenario?.format === 'truth') {
    // A run that reads each question in both answer orders says so in its question set.
    const questionSet = view.events.find(
      (event) => event.type === 'artifact' && event.name === 'truth-questions',
    );
    const readings = questionSet?.type === 'artifact' && questionSet.data.readings === 2 ? 2 : 1;
    return truthScoreboardHtml(view.scenario.conditions, assessments, readings);
  }
  return html`<table class="scoreboard"><thead><tr><th>Round</th><th>Judgement</th><th>Judge</th><th>Result</th><th>Spectators</th></tr></thead><tbody>
${assessments.map((event) => {
  const headline =
    event.abstained || !event.result
      ? `abstained${event.reason ? `: ${event.reason}` : ''}`
      : resultText(view, event);
  // The verdict comes after the last phase, not in a round of its own.
  const round = event.phase === 'verdict' ? 'Verdict' : String(event.round);
  return html`<tr><td>${round}</td><td>${event.phase}</td><td>${event.judge}</td><td class="text">${headline}</td><td>${event.phase === 'verdict' ? '–' : audience(event.round) || '–'}</td></tr>`;
})}
</tbody></table>`;
}

/**
 * A truth run: one row per verdict, named by its question and condition (a question's verdicts come
 * in the scenario's order of conditions, `readings` to a condition: the answers in the drawn order,
 * then swapped).
 */
function truthScoreboardHtml(
  conditions: readonly string[],
  assessments: AssessmentEvent[],
  readings: number,
): SafeHtml {
  const seen = new Map<number, number>();
  return html`<table class="scoreboard truth"><thead><tr><th>Question</th><th>Condition</th><th>Judge</th><th>Verdict</th></tr></thead><tbody>
${assessments.map((event) => {
  const at = seen.get(event.round) ?? 0;
  seen.set(event.round, at + 1);
  const headline =
    event.abstained || !event.result
      ? `no verdict${event.reason ? `: ${event.reason}` : ''}`
      : formalVerdictText(undefined, event.result);
  const condition = conditions[Math.floor(at / readings)];
  const swapped = readings > 1 && at % readings === 1 ? ' (answers swapped)' : '';
  return html`<tr><td>${event.round}</td><td>${condition ? `${condition}${swapped}` : '–'}</td><td>${event.judge}</td><td class="text">${headline}</td></tr>`;
})}
</tbody></table>`;
}

/** A judge's answer in one line: who took the round, who won and by what scores, how confident. */
function resultText(view: RunView, event: AssessmentEvent): string {
  const result = event.result ?? {};
  switch (event.phase) {
    case 'judgement':
      return `${duelRoundText(view.scenario, event.round, result)} · ${result.no_new_arguments === true ? 'no new arguments' : 'new arguments'}`;
    case 'verdict':
      return formalVerdictText(view.scenario, result);
    case 'synthesis':
      return typeof result.confidence === 'number' ? `confidence ${result.confidence}` : 'see transcript';
    default:
      return 'see transcript';
  }
}

/** The council: each role's answer, round by round, then the Judge's decision and the packet. */
function councilScoreboardHtml(events: RunEvent[], assessments: AssessmentEvent[]): SafeHtml {
  const answers = assessments.filter((event) => event.phase.startsWith('round-'));
  const decision = assessments.find((event) => event.phase === 'decision');
  const packet = events.find(
    (event): event is Stored<ArtifactEvent> => event.type === 'artifact' && event.name === 'final-packet',
  )?.data;
  const said = (record: Record<string, unknown> | undefined, key: string) =>
    typeof record?.[key] === 'string' ? (record[key] as string) : '';
  const consensus = packet?.consensus as Record<string, unknown> | undefined;
  const count = (key: string) => (Array.isArray(packet?.[key]) ? (packet[key] as unknown[]).length : 0);
  const score = (key: string) =>
    typeof consensus?.[key] === 'number' ? (consensus[key] as number).toFixed(2) : '–';
  return html`<table class="scoreboard council"><thead><tr><th>Round</th><th>Role</th><th>Stance</th><th>Claim, challenge or revision</th><th>Confidence</th></tr></thead><tbody>
${answers.map((event) => {
  const result = event.result;
  const what = event.phase === 'round-1' ? 'claim' : event.phase === 'round-2' ? 'challenges' : 'revision';
  return html`<tr><td title="${COUNCIL_ROUND_TITLES[event.round] ?? ''}">${event.round} · ${what}</td><td>${event.judge}</td><td>${said(result ?? undefined, 'stance') || '–'}</td><td class="text">${result ? councilAnswerText(event) : `abstained${event.reason ? `: ${event.reason}` : ''}`}</td><td>${typeof result?.confidence === 'number' ? result.confidence.toFixed(2) : '–'}</td></tr>`;
})}
</tbody></table>
${
  decision
    ? html`<p class="decision"><strong>Decision:</strong> ${decision.result ? said(decision.result, 'selected_option') : `the Judge abstained (${decision.reason ?? 'no usable answer'})`}</p>`
    : ''
}
${
  packet
    ? html`<p class="notes">Final Packet: consensus ${score('consensus_score')} · confidence ${score('confidence_score')} · ${plural(count('risks'), 'risk')} · ${plural(count('next_actions'), 'next action')}</p>`
    : ''
}`;
}

export function chartsHtml(view: RunView): SafeHtml {
  return runCharts(view.events, tallySpectatorVotes(view.spectators));
}

export function transcriptHtml(view: RunView): SafeHtml {
  return html`${view.events.map((event) => eventHtml(event, view.scenario))}`;
}

/** The choices a spectator has on a round, or none where the format has no rounds to vote on. */
export function spectatorChoices(scenario: Scenario | undefined): Array<{ key: string; label: string }> {
  switch (scenario?.format) {
    case 'knockout':
      return [
        { key: 'continue', label: 'Continue (Position Y held)' },
        { key: 'rotate', label: 'Rotate (Position Y lost)' },
      ];
    case 'formal':
      return [
        { key: 'affirmative', label: `Affirmative: ${scenario.positions.affirmative}` },
        { key: 'negative', label: `Negative: ${scenario.positions.negative}` },
      ];
    case 'duel':
      return [
        { key: 'a', label: `A: ${scenario.positions.a}` },
        { key: 'b', label: `B: ${scenario.positions.b}` },
      ];
    default:
      return [];
  }
}

/** The round a spectator would vote on now: the one being debated, or the last one. */
export function currentRound(view: RunView): number {
  let round = 1;
  for (const event of view.events) {
    if ('round' in event && typeof event.round === 'number') round = Math.max(round, event.round);
  }
  return round;
}

export function participantsText(scenario: Scenario): string {
  return participants(scenario)
    .map((who) => `${who.name} (${who.model})`)
    .join(', ');
}

/** A knockout round's votes in words: "2 replace, 1 keep", and the abstentions when there were any. */
function votesText(tally: { rotateVotes: number; continueVotes: number; abstentions: number }): string {
  const parts = [`${tally.rotateVotes} replace`, `${tally.continueVotes} keep`];
  if (tally.abstentions > 0) parts.push(`${tally.abstentions} abstained`);
  return parts.join(', ');
}
