/** The run page's argument map: what it shows and how to read it, then the drawing. */
import { argumentMap } from '../analytics/argument-map.js';
import type { ArgumentMap } from '../analytics/argument-map-shape.js';
import { mapSourceText, mapSummaryText, STATUS_MEANINGS } from '../analytics/argument-map-words.js';
import type { RunEvent } from '../core/events.js';
import { argumentMapSvg } from './argument-map-svg.js';
import { argumentScoresHtml } from './argument-scores-html.js';
import { html, type SafeHtml } from './html.js';

/**
 * The map with its legend; a line instead where nothing was said yet or the format has no two
 * sides. A run whose log has no start yet (a debate just launched from the viewer) has no map for
 * want of a start, whatever its format: it has no claims yet.
 */
export function argumentMapHtml(map: ArgumentMap | null, events: readonly RunEvent[] = []): SafeHtml {
  const started = events[0]?.type === 'run-start';
  if (!map && !started) return html`<p class="muted">No claims yet.</p>`;
  if (!map) return html`<p class="muted">This format has no two sides to map.</p>`;
  if (map.claims.length === 0) return html`<p class="muted">No claims yet.</p>`;
  return html`<p class="map-summary">${mapSummaryText(map)}</p>
<p class="map-legend"><span class="legend-open">open</span> ${STATUS_MEANINGS.open} · <span class="legend-answered">answered</span> ${STATUS_MEANINGS.answered} · <span class="legend-dropped">dropped</span> ${STATUS_MEANINGS.dropped}. An arrow runs from a claim to the claim it answers; a dashed green one to its own side's earlier claim it restates or extends.</p>
<p class="notes">${mapSourceText(map)}</p>
${argumentMapSvg(map)}`;
}

/** Events after which the map or the scores beside it can read differently. */
export function changesArgumentMap(event: RunEvent): boolean {
  return ['turn-end', 'statement', 'claims', 'vote-cast', 'assessment'].includes(event.type);
}

/** The map and the argument scores of a run so far, as the live page replaces them. */
export function argumentPanels(events: readonly RunEvent[]): { map: string; argumentScores: string } {
  const map = argumentMap(events);
  return { map: argumentMapHtml(map, events).value, argumentScores: argumentScoresHtml(map, events).value };
}
