/** The run page's "Result" panel and the runs page's columns for when, what and how a run came out. */
import { outcomeLine } from '../formats/outcome-line.js';
import type { RunListing } from '../manager/run-listing.js';
import { html, type SafeHtml } from './html.js';
import { isTruthResults, truthResultsHtml } from './truth-results-html.js';
import type { RunView } from './viewed-run.js';

/** "2026-11-23 10:44 UTC": the same for every reader, whatever the server's zone. */
export function dateText(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "45 s", "3 min 05 s", "1 h 02 min". */
export function durationText(milliseconds: number | null): string {
  if (milliseconds === null || !Number.isFinite(milliseconds)) return '';
  const seconds = Math.round(milliseconds / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The run's transcript as its format builds it, from the view's events. */
function transcriptOf(view: RunView): unknown {
  if (!view.format || view.events.length === 0) return null;
  let state: unknown;
  for (const event of view.events) state = view.format.fold(state, event);
  return view.format.transcript(state);
}

/**
 * The knockout's result for Position X in a sentence; other formats' outcome in a line, and for a
 * truth run its tables after it (accuracy, paired differences, persuasiveness, each question).
 */
export function resultHtml(view: RunView): SafeHtml {
  const transcript = transcriptOf(view) as { result?: { xPosition: string; summary: string } } | null;
  if (!view.format || !transcript) return html`<p class="muted">No result yet.</p>`;
  if (view.format.name === 'knockout' && transcript.result) {
    return html`<p><strong>Result for X (${transcript.result.xPosition}):</strong> ${transcript.result.summary}</p>
<p class="muted">Judges score each round from 1 to 5 (weighted mean of four criteria).</p>`;
  }
  const line = outcomeLine(view.format.name, transcript);
  const outcome = line ? html`<p>${line}</p>` : html`<p class="muted">No result yet.</p>`;
  if (view.format.name === 'truth' && isTruthResults(transcript) && transcript.questions.length > 0)
    return html`${outcome}${truthResultsHtml(transcript)}`;
  return outcome;
}

/** The models of a listing, spaced so a narrow column can wrap between them. */
export const modelsText = (run: RunListing) => run.models.split(',').filter(Boolean).join(', ');
