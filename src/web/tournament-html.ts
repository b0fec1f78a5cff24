/**
 * The tournament page: the ratings as interval bars on one scale (the style-controlled rating's
 * interval beside each), and the pairings as a matrix of wins. Both fit a phone's width: the bars
 * are percentages of their row, the matrix's columns are numbered, the numbers keyed to the rows.
 */
import type { TournamentMatch } from '../analytics/tournament-match.js';
import type { Estimate, TournamentStandings } from '../analytics/tournament-standings.js';
import { html, type SafeHtml } from './html.js';
import type { TournamentView } from './tournament-view.js';

const whole = (value: number) => String(Math.round(value));

function scale(standings: TournamentStandings): { low: number; high: number } {
  const ends = standings.models.flatMap((model) =>
    [model.rating, model.styleControlled].flatMap((estimate) =>
      estimate ? [estimate.low, estimate.high] : [],
    ),
  );
  if (ends.length === 0) return { low: 1400, high: 1600 };
  const low = Math.min(...ends);
  const high = Math.max(...ends);
  const margin = Math.max(10, (high - low) * 0.05);
  return { low: low - margin, high: high + margin };
}

/** An interval as an SVG bar whose geometry is in attributes (the page's policy allows no inline styles). */
function bar(
  estimate: Estimate | null,
  range: { low: number; high: number },
  kind: string,
): SafeHtml | string {
  if (!estimate) return '';
  const at = (value: number) => ((value - range.low) / (range.high - range.low)) * 100;
  const left = at(estimate.low).toFixed(2);
  const width = Math.max(0.5, at(estimate.high) - at(estimate.low)).toFixed(2);
  const mark = at(estimate.value).toFixed(2);
  const height = kind === 'raw' ? 12 : 6;
  return html`<svg class="interval ${kind}" width="100%" height="${height}" role="img" aria-label="${kind === 'raw' ? 'rating' : 'style-controlled rating'} ${whole(estimate.value)}, interval ${whole(estimate.low)} to ${whole(estimate.high)}"><rect class="track" x="0" y="0" width="100%" height="${height}"></rect><rect class="span" x="${left}%" y="0" width="${width}%" height="${height}"></rect><rect class="mark" x="${mark}%" y="0" width="2" height="${height}"></rect></svg>`;
}

/** Wins of `row` over `column` across their debates, and ties. */
function headToHead(matches: readonly TournamentMatch[], row: string, column: string) {
  let wins = 0;
  let losses = 0;
  let ties = 0;
  for (const match of matches) {
    if (match.score === null) continue;
    const points =
      match.first === row && match.second === column
        ? match.score
        : match.first === column && match.second === row
          ? 1 - match.score
          : null;
    if (points === null) continue;
    if (points === 1) wins += 1;
    else if (points === 0) losses += 1;
    else ties += 1;
  }
  return { wins, losses, ties };
}

export function tournamentPage(view: TournamentView, standings: TournamentStandings): SafeHtml {
  const range = scale(standings);
  const order = standings.models.map((model) => model.model);
  const level = `${Math.round(standings.level * 100)}%`;
  const cell = (row: string, column: string) => {
    if (row === column) return html`<td class="self">·</td>`;
    const { wins, losses, ties } = headToHead(view.matches, row, column);
    if (wins + losses + ties === 0) return html`<td class="muted">–</td>`;
    return html`<td class="${wins > losses ? 'ahead' : wins < losses ? 'behind' : ''}" title="${row} against ${column}: ${wins} won, ${losses} lost, ${ties} tied">${wins}–${losses}${ties > 0 ? html`<small>/${ties}</small>` : ''}</td>`;
  };
  return html`<h1>Tournament</h1>
<p class="notes"><code class="run-id">${view.id}</code>: ${view.models.length} models, ${view.motions} motions, ${view.matches.length} of ${view.planned} planned debates finished.</p>
<section class="panel" id="ratings"><h2>Ratings</h2>
<p class="notes">Bradley-Terry on an Elo-like scale (the models average 1500) with ${level} intervals from a bootstrap over debates; the thin bar under each is the style-controlled rating (length and markdown held apart). Intervals that do not overlap separate two models.</p>
<ol class="ratings">${standings.models.map(
    (model) =>
      html`<li><div class="rating-head"><span class="model">${model.model}</span><span class="value">${model.rating ? whole(model.rating.value) : '—'}${model.rating ? html` <small>${whole(model.rating.low)}–${whole(model.rating.high)}</small>` : ''}</span></div>${bar(model.rating, range, 'raw')}${bar(model.styleControlled, range, 'style')}</li>`,
  )}</ol>
<p class="notes scale"><span>${whole(range.low)}</span><span>${whole(range.high)}</span></p>
<p class="notes">Separability: ${standings.separability.share === null ? 'n/a' : `${standings.separability.separated} of ${standings.separability.pairs} model pairs`}. ${standings.warnings.join(' ')}</p>
</section>
<section class="panel" id="pairings"><h2>Pairings</h2>
<p class="notes">Wins–losses of each row's model against each column's, over both side orders and every motion (/ties after them).</p>
<table class="matrix"><thead><tr><th></th>${order.map((_, at) => html`<th title="${order[at]}">${at + 1}</th>`)}</tr></thead><tbody>
${order.map((row, at) => html`<tr><th><span class="key">${at + 1}</span> ${row}</th>${order.map((column) => cell(row, column))}</tr>`)}
</tbody></table></section>`;
}
