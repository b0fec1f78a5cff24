/** The run page's argument map: what it shows and how to read it, then the drawing. */
import type { ArgumentMap } from '../analytics/argument-map.js';
import { MIN_SHARED_WORDS } from '../analytics/key-sentence-links.js';
import { argumentMapSvg } from './argument-map-svg.js';
import { html, type SafeHtml } from './html.js';

function sourceNote(map: ArgumentMap): string {
  const unread =
    map.unread > 0
      ? ` The claims of ${map.unread} statement${map.unread === 1 ? '' : 's'} could not be read (a failed extraction or an emergency statement).`
      : '';
  if (map.source === 'ledger') {
    return `Claims and links from the debate's claims ledger: after each statement the note-taker listed its claims and which claim of the other side each one answers.${unread}`;
  }
  return `This debate kept no claims ledger, so each statement's key sentences stand for its claims, and a claim is linked to the claim of the other side it shares the most words with (at least ${MIN_SHARED_WORDS}, the motion's own words left out), among the statements the format had it answer. The links read the wording, not the meaning.${unread}`;
}

/** The map with its legend; a line instead where the format has no two sides or nothing was said yet. */
export function argumentMapHtml(map: ArgumentMap | null): SafeHtml {
  if (!map) return html`<p class="muted">This format has no two sides to map.</p>`;
  if (map.claims.length === 0) return html`<p class="muted">No claims yet.</p>`;
  const count = (status: string) => map.claims.filter((claim) => claim.status === status).length;
  return html`<p class="map-summary">${map.claims.length} claims, ${map.edges.length} answers: ${count('answered')} answered, ${count('open')} left open, ${count('dropped')} dropped.</p>
<p class="map-legend"><span class="legend-open">open</span> never answered by the other side · <span class="legend-answered">answered</span> answered, and its side replied or had no turn left · <span class="legend-dropped">dropped</span> answered, then let go: its side spoke again without replying. An arrow runs from a claim to the claim it answers.</p>
<p class="notes">${sourceNote(map)}</p>
${argumentMapSvg(map)}`;
}
