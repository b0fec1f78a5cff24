/** The viewer's pages, rendered on the server. Every value from a run or a model goes through `html`. */

import { argumentMap } from '../analytics/argument-map.js';
import type { LeaderTable } from '../analytics/leader-table.js';
import { personSeats } from '../config/person-seats.js';
import type { FormatName } from '../config/scenario-schema.js';
import { isSimulated } from '../core/events.js';
import { stopReasonText } from '../core/stop-reason-text.js';
import { clipText } from '../core/text-layout.js';
import { PHASE_TITLES as FORMAL_PHASE_TITLES } from '../formats/formal/formal-plan.js';
import { LISTING_STATUSES, type RunListing } from '../manager/run-listing.js';
import { argumentMapHtml } from './argument-map-html.js';
import { argumentScoresHtml } from './argument-scores-html.js';
import type { BatchChoice } from './batch-choice.js';
import { html, type SafeHtml, trusted } from './html.js';
import { dateText, durationText, modelsText, resultHtml } from './outcome-html.js';
import {
  chartsHtml,
  currentRound,
  headerHtml,
  scoreboardHtml,
  spectatorChoices,
  statusOf,
  transcriptHtml,
} from './run-view.js';
import type { RunView } from './viewed-run.js';

export interface PageOptions {
  /** The same-origin token state-changing requests must carry. */
  csrf: string;
  /** A line shown on every page (the demo's notice that the text is simulated). */
  banner?: string | undefined;
}

/** The notice on the page of a run spoken by the built-in simulator, whichever way it was started. */
export const SIMULATED_RUN_BANNER =
  "Demo run: this debate ran on Agora's built-in Ollama simulator; the text is generated, not a model's.";

export function page(title: string, body: SafeHtml, options: PageOptions): string {
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="agora-token" content="${options.csrf}">
<title>${title} · Agora</title>
<!-- The icon is inline: no request, no 404. -->
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='8' fill='%231e40af'/%3E%3Cpath d='M5 12 8 4l3 8M6.2 9h3.6' stroke='white' stroke-width='1.6' fill='none'/%3E%3C/svg%3E">
<link rel="stylesheet" href="/assets/style.css">
<script src="/assets/app.js" defer></script>
</head><body>
<nav><a class="brand" href="/">Agora</a><a href="/">Runs</a><a href="/new">New debate</a><a href="/arena">Arena</a><a href="/leaderboard">Leaderboard</a></nav>
${options.banner ? html`<p class="banner">${options.banner}</p>` : ''}
<main>${body}</main>
</body></html>`}\n`;
}

export function runsRowsHtml(runs: RunListing[]): SafeHtml {
  if (runs.length === 0) return html`<tr><td colspan="6" class="muted">No runs yet.</td></tr>`;
  // Each cell names its column (data-label) for the stacked layout of a phone's width.
  return html`${runs.map(
    (run) =>
      html`<tr><td data-label="Run"><a class="run-topic" href="/runs/${encodeURIComponent(run.runId)}">${run.topic || run.runId}</a><br><code class="run-id">${run.runId}</code></td><td data-label="Started"><time datetime="${run.startedAt}">${dateText(run.startedAt)}</time></td><td data-label="Format">${run.format}${run.simulated ? html` <span class="demo">(demo)</span>` : ''}<br><span class="muted">${modelsText(run)}</span></td><td data-label="Duration">${durationText(run.activeMs)}</td><td data-label="Status"><span class="status status-${run.status}">${run.status}</span> <span class="muted">${run.progress}${run.failedSteps > 0 ? ` · ${run.failedSteps} failed steps` : ''}${run.stopReason ? ` · ${stopReasonText(run.stopReason)}` : ''}</span></td><td data-label="Outcome" class="outcome">${run.outcome || '–'}</td></tr>`,
  )}`;
}

export interface RunFilters {
  status?: string | undefined;
  format?: string | undefined;
  topic?: string | undefined;
}

export function runsPage(runs: RunListing[], filters: RunFilters, formats: string[]): SafeHtml {
  const statuses = LISTING_STATUSES;
  const option = (value: string, selected: string | undefined) =>
    html`<option value="${value}"${value === selected ? trusted(' selected') : ''}>${value || 'any'}</option>`;
  return html`<h1>Runs</h1>
<form class="filters" method="get" action="/">
<label>Status <select name="status">${['', ...statuses].map((value) => option(value, filters.status))}</select></label>
<label>Format <select name="format">${['', ...formats].map((value) => option(value, filters.format))}</select></label>
<label>Topic contains <input name="topic" value="${filters.topic ?? ''}"></label>
<button type="submit">Filter</button> <a class="button" href="/new">New debate</a>
</form>
<table id="runs" class="stack"><thead><tr><th>Run</th><th>Started</th><th>Format and models</th><th>Duration</th><th>Status</th><th>Outcome</th></tr></thead>
<tbody id="runs-body" data-refresh="/fragments/runs">${runsRowsHtml(runs)}</tbody></table>`;
}

/** Stop and resume, enabled by what the run can do now. */
export function controlsHtml(view: RunView): SafeHtml {
  const status = statusOf(view);
  const canStop = view.live;
  const canResume = !view.live && view.progress !== null && status !== 'completed' && status !== 'degraded';
  return html`<button type="button" data-action="stop"${canStop ? '' : trusted(' disabled')}>Stop</button>
<button type="button" data-action="resume"${canResume ? '' : trusted(' disabled')}>Resume</button>
<a class="button" href="/runs/${encodeURIComponent(view.runId)}/export" download="${view.runId}.html">Export HTML</a>`;
}

/**
 * What a spectator is asked: a duel or a knockout is judged round by round; a formal debate is one
 * debate in phases, so it is asked about the debate so far (naming the phase), or the whole debate
 * once it has ended.
 */
function spectatorQuestion(view: RunView, round: number): SafeHtml {
  if (view.scenario?.format !== 'formal') return html`Who had the better of round <strong>${round}</strong>?`;
  if (view.progress && view.progress.status !== 'running') return html`Who had the better of this debate?`;
  const last = view.events.findLast((event) => event.type === 'statement');
  const phase = last?.type === 'statement' ? last.phase : null;
  const title = phase ? (FORMAL_PHASE_TITLES[phase as keyof typeof FORMAL_PHASE_TITLES] ?? phase) : null;
  return title
    ? html`Who has the better of the debate so far? Now: <strong>${title.toLowerCase()}</strong>.`
    : html`Who has the better of the debate so far?`;
}

export function spectatorHtml(view: RunView): SafeHtml {
  const choices = spectatorChoices(view.scenario);
  if (choices.length === 0) return html`<p class="muted">This format has no rounds to vote on.</p>`;
  const round = currentRound(view);
  return html`<p>${spectatorQuestion(view, round)} Spectator votes are kept apart from the judges' and never change the debate.</p>
<p>${choices.map(
    (choice) =>
      html`<button type="button" data-vote="${choice.key}" data-round="${round}">${choice.label}</button> `,
  )}</p>`;
}

export interface StartRecordView {
  topic: string;
  notices: string[];
  /** The worker's arguments: a debate started with `--human` seats a person before its log says so. */
  args?: string[];
}

/** The blind arena's panel: beside the scoreboard, or at the top right after a vote revealed the names. */
export interface ArenaPlacement {
  panel: SafeHtml;
  top?: boolean;
}

/** The statuses of a debate getting under way (web/app.js drops "Topic accepted" outside them). */
const UNDER_WAY = ['not started', 'starting', 'running'];

/**
 * What the viewer said when it started the run: "Topic accepted" while the debate is getting under
 * way, and what it changed in the request (kept after the end: it is a fact about the run).
 */
function startNotices(view: RunView, start: StartRecordView | null): SafeHtml | string {
  if (!start) return '';
  const underWay = UNDER_WAY.includes(statusOf(view));
  if (!underWay && start.notices.length === 0) return '';
  return html`<div class="notice ok" id="start-notices">${underWay ? html`<p id="topic-accepted">Topic accepted: “${start.topic}”.</p>` : ''}${start.notices.map((notice) => html`<p>${notice}</p>`)}</div>`;
}

export function runPage(view: RunView, start: StartRecordView | null, arena?: ArenaPlacement): SafeHtml {
  const map = argumentMap(view.events);
  return html`<div id="run" data-run-id="${view.runId}">
<div class="layout"><div>
<header id="run-header">${headerHtml(view)}</header>
${arena?.top ? arena.panel : ''}
<section class="panel" id="result">${resultHtml(view)}</section>
${startNotices(view, start)}
<div class="panel" id="controls">${controlsHtml(view)}</div>
<p id="control-message" role="status" class="muted"></p>
<section class="panel map-panel"><h2>Argument map</h2><div id="argument-map">${argumentMapHtml(map, view.events)}</div></section>
<div id="activity" class="activity" aria-live="polite"></div>
<p id="live-tail" class="live-tail" hidden></p>
${podiumHtml(view, start)}
<div id="transcript">${transcriptHtml(view)}</div>
<div id="generating"></div>
</div>
<aside>
<section class="panel"><h2>Scoreboard</h2><div id="scoreboard">${scoreboardHtml(view)}</div>
<h3>Argument scores</h3><div id="argument-scores">${argumentScoresHtml(map, view.events)}</div></section>
${arena && !arena.top ? arena.panel : ''}
<section class="panel"><h2>Spectator vote</h2><div id="spectators">${spectatorHtml(view)}</div><p id="vote-message" role="status" class="muted"></p></section>
<section class="panel"><h2>Charts</h2><div id="charts">${chartsHtml(view)}</div></section>
</aside></div></div>`;
}

export interface ScenarioChoice {
  file: string;
  format: string;
  topic: string;
  /** The models it calls, fallbacks included. */
  models: string[];
}

export interface NewRunForm {
  values: Record<string, string>;
  scenarios: ScenarioChoice[];
  models: string[];
  modelsError: string | null;
  formats: string[];
  error: string | null;
}

/**
 * What the form asks for each side's model, by format (the formats with two sides): the fields
 * `model_first` and `model_second` (see `SIDE_MODEL_KEYS` in start-form.ts).
 */
export const SIDE_MODEL_LABELS: Partial<Record<FormatName, [string, string]>> = {
  knockout: ['Model for Position X', 'Model for Position Y (every Y debater)'],
  duel: ['Model for side A', 'Model for side B'],
  formal: ['Model for the first debater', 'Model for the second debater (the seed draws their sides)'],
};

export function newRunPage(form: NewRunForm, options: PageOptions): SafeHtml {
  const value = (name: string) => form.values[name] ?? '';
  const chosenFormat = value('format') || 'knockout';
  const sideLabels = SIDE_MODEL_LABELS[chosenFormat as FormatName];
  return html`<h1>New debate</h1>
${form.error ? html`<div class="notice bad" id="form-error"><p>${form.error}</p></div>` : ''}
<form method="post" action="/runs" id="new-run">
<input type="hidden" name="token" value="${options.csrf}">
<label for="format">Format</label>
<select id="format" name="format">${form.formats.map((format) => {
    const sides = SIDE_MODEL_LABELS[format as FormatName];
    return html`<option value="${format}"${sides ? html` data-first="${sides[0]}" data-second="${sides[1]}"` : ''}${format === chosenFormat ? trusted(' selected') : ''}>${format}</option>`;
  })}</select>
<label for="scenario">Scenario (optional: its agents, models and rules)</label>
<select id="scenario" name="scenario"><option value="">None: the format's defaults</option>${form.scenarios.map(
    (scenario) =>
      html`<option value="${scenario.file}" data-format="${scenario.format}"${scenario.file === value('scenario') ? trusted(' selected') : ''}>${scenario.file} (${scenario.format}): ${clipText(scenario.topic, 60)}</option>`,
  )}</select>
<label for="topic">Topic (the motion; with a scenario, leave empty to keep its topic)</label>
<input id="topic" name="topic" value="${value('topic')}" maxlength="2000">
<label for="models">Model for every agent (optional)</label>
<select id="models" name="models"><option value="">The scenario's or format's models</option>${form.models.map(
    (model) =>
      html`<option value="all=${model}"${`all=${model}` === value('models') ? trusted(' selected') : ''}>${model}</option>`,
  )}</select>
<fieldset id="side-models"${sideLabels ? '' : trusted(' hidden')}>
<legend>Models per side (optional; each takes the place of the one above for its side)</legend>
${(['first', 'second'] as const).map(
  (which, at) => html`<label for="model_${which}" id="model_${which}_label">${sideLabels?.[at] ?? ''}</label>
<select id="model_${which}" name="model_${which}"><option value="">The model above, or the scenario's or format's</option>${form.models.map(
    (model) =>
      html`<option value="${model}"${model === value(`model_${which}`) ? trusted(' selected') : ''}>${model}</option>`,
  )}</select>`,
)}
</fieldset>
${form.modelsError ? html`<p class="notes">${form.modelsError}</p>` : ''}
<label for="rounds">Rounds (optional; knockout, duel and critique)</label>
<input id="rounds" name="rounds" value="${value('rounds')}" inputmode="numeric">
<label for="seed">Seed (optional)</label>
<input id="seed" name="seed" value="${value('seed')}" inputmode="numeric">
<label for="human">Debate in person (knockout)</label>
<select id="human" name="human"><option value="">No: every seat is a model's</option><option value="x"${value('human') === 'x' ? trusted(' selected') : ''}>Yes: I take Position X and write my statements here</option></select>
<p><button class="primary" type="submit">Start the debate</button></p>
<p class="muted">The debate runs in its own process: closing this page, or stopping the viewer, does not stop it.</p>
</form>`;
}

export function leaderboardPage(
  tables: LeaderTable[],
  batch: string | undefined,
  includeDemo = false,
  batches: BatchChoice[] = [],
): SafeHtml {
  // A batch asked for by address that the index does not know is still shown as chosen.
  const choices =
    batch && !batches.some((choice) => choice.batchId === batch)
      ? [...batches, { batchId: batch, createdAt: null, debates: null }]
      : batches;
  const batchOption = (choice: BatchChoice) => {
    const details = [
      choice.debates === null ? '' : `${choice.debates} debate${choice.debates === 1 ? '' : 's'}`,
      choice.createdAt ? dateText(choice.createdAt) : '',
    ].filter(Boolean);
    return html`<option value="${choice.batchId}"${choice.batchId === batch ? trusted(' selected') : ''}>${choice.batchId}${details.length > 0 ? ` (${details.join(', ')})` : ''}</option>`;
  };
  return html`<h1>Leaderboard</h1>
<form class="filters" method="get" action="/leaderboard"><label>Batch <select name="batch"><option value=""${batch ? '' : trusted(' selected')}>all</option>${choices.map(batchOption)}</select></label><label><input type="checkbox" name="demo" value="1"${includeDemo ? trusted(' checked') : ''}> Include demo runs</label><button type="submit">Show</button></form>
<p class="notes">${includeDemo ? 'Demo runs (on the built-in simulator) are counted.' : 'Demo runs (on the built-in simulator) are left out.'}</p>
${tables.map(
  (table) => html`<section class="panel"><h2>${table.title}</h2>
<table class="stack"><thead><tr>${table.columns.map((column) => html`<th>${column}</th>`)}</tr></thead><tbody>
${table.rows.length === 0 ? html`<tr><td colspan="${table.columns.length}" class="muted">No data yet.</td></tr>` : ''}
${table.rows.map((row) => html`<tr>${row.map((cell, at) => html`<td data-label="${table.columns[at] ?? ''}">${cell === null ? '–' : String(cell)}</td>`)}</tr>`)}
</tbody></table>${table.note ? html`<p class="notes">${table.note}</p>` : ''}</section>`,
)}`;
}

export function messagePage(title: string, message: string): SafeHtml {
  return html`<h1>${title}</h1><div class="notice bad"><p>${message}</p></div><p><a href="/">Back to the runs</a></p>`;
}

/** One self-contained HTML file of a run: transcript, scoreboard and charts, readable offline. */
export function exportDocument(view: RunView, stylesheet: string): string {
  const title = view.progress?.topic ?? view.runId;
  const map = argumentMap(view.events);
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${title} · Agora transcript</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='8' fill='%231e40af'/%3E%3Cpath d='M5 12 8 4l3 8M6.2 9h3.6' stroke='white' stroke-width='1.6' fill='none'/%3E%3C/svg%3E">
<style>${trusted(stylesheet.replace(/<\/style/gi, '<\\/style'))}</style>
</head><body>${isSimulated(view.events) ? html`<p class="banner">${SIMULATED_RUN_BANNER}</p>` : ''}<main>
<header>${headerHtml(view)}</header>
<section class="panel" id="result"><h2>Result</h2>${resultHtml(view)}</section>
<div class="layout"><div><section class="panel map-panel"><h2>Argument map</h2>${argumentMapHtml(map, view.events)}</section>
<h2>Transcript</h2>${transcriptHtml(view)}</div>
<aside><section class="panel"><h2>Scoreboard</h2>${scoreboardHtml(view)}
<h3>Argument scores</h3>${argumentScoresHtml(map, view.events)}</section>
<section class="panel"><h2>Charts</h2>${chartsHtml(view)}</section></aside></div>
<p class="notes">Exported from Agora's run log ${view.runId}, ${view.events.length} events.</p>
</main></body></html>`}\n`;
}

/**
 * The person's writing box: filled in by podium.js when the debate waits for the person and this
 * browser holds the seat; nothing for a debate without a person's seat.
 */
function podiumHtml(view: RunView, start: StartRecordView | null): SafeHtml | string {
  // Before the run has started, its start record tells: a debate with a person's seat, from the
  // form or the scenario, is started with `--speak-from viewer`.
  const seated = view.scenario
    ? personSeats(view.scenario).length > 0
    : start?.args?.includes('--speak-from') === true;
  if (!seated) return '';
  return html`<section class="panel" id="podium" aria-live="polite"><h2>At the podium</h2><div id="podium-body"><p class="muted">Waiting for the debate…</p></div></section>
<script src="/assets/podium.js" defer></script>`;
}
