/**
 * A tournament's standings for people: the table of models (fitted to the terminal's width like
 * every table, text-table.ts), the lines under it (style coefficients, separability, each judge's
 * order flips and agreement, the robustness line, warnings), and the same rows for CSV with each
 * interval's ends in two columns.
 */

import type { Estimate, ModelStanding, TournamentStandings } from '../analytics/tournament-standings.js';
import type { TextLayout } from '../core/text-layout.js';
import { printable } from './terminal-safe.js';
import { renderTextTable } from './text-table.js';
import { wrapLine } from './wrap-text.js';

/** A cell of the CSV rows. */
export type StandingsCell = string | number | null;

const levelText = (standings: TournamentStandings) => `${Math.round(standings.level * 100)}%`;
const whole = (value: number) => String(Math.round(value));
const interval = (estimate: Estimate | null) =>
  estimate === null ? '—' : `${whole(estimate.low)}–${whole(estimate.high)}`;
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
const share = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));

/** The standings table and the lines under it, every line within `layout.width`. */
export function tournamentTable(standings: TournamentStandings, layout: TextLayout): string {
  const level = levelText(standings);
  // Short titles keep the table in columns on an 80-column terminal; the lines under it say what
  // each means.
  const head = ['Model', 'Rating', level, 'Style', level, 'W-L-T', 'Debates'];
  const rows = standings.models.map((model) => [
    printable(model.model),
    model.rating === null ? '—' : whole(model.rating.value),
    interval(model.rating),
    model.styleControlled === null ? '—' : whole(model.styleControlled.value),
    interval(model.styleControlled),
    `${model.wins}-${model.losses}-${model.ties}`,
    debatesText(model),
  ]);
  const table = renderTextTable(head, rows, layout);
  const lines = notes(standings).flatMap((note) => wrapped(note, layout.width));
  return [table, '', ...lines].join('\n');
}

function debatesText(model: ModelStanding): string {
  return model.noResult > 0 ? `${model.debates} (${model.noResult} no result)` : String(model.debates);
}

/** The sentences under the table, unwrapped. */
function notes(standings: TournamentStandings): string[] {
  const level = levelText(standings);
  const lines: string[] = [];
  lines.push(
    `Rating: Bradley-Terry, Elo-like scale (the models average 1500), ties as half wins; ${level} intervals from ${standings.resamples} bootstrap resamples of the ${standings.rated} debate${standings.rated === 1 ? '' : 's'} with a result. W-L-T: wins, losses, ties.`,
  );
  const coefficients = standings.styleCoefficients
    .map(
      (coefficient) =>
        `${coefficient.name} ${signed(coefficient.value)} (${signed(coefficient.low)} to ${signed(coefficient.high)}) ${coefficient.unit}`,
    )
    .join('; ');
  lines.push(
    `Style: the style-controlled rating, the same fit with the sides' differences in length and markdown as covariates. Coefficients: ${standings.rated === 0 ? 'n/a (no debate with a result)' : coefficients}.`,
  );
  const { separability } = standings;
  lines.push(
    separability.share === null
      ? 'Separability: n/a (fewer than two rated models, too few debates for intervals, or no resamples).'
      : `Separability: ${separability.separated} of ${separability.pairs} model pairs (${share(separability.share)}) have ${level} intervals that do not overlap; style-controlled ${separability.styleControlledSeparated} of ${separability.pairs} (${share(separability.styleControlledShare)}).`,
  );
  for (const judge of standings.judges) {
    const flips =
      judge.orderFlipRate === null
        ? 'order flips n/a (never asked with the sides swapped)'
        : `order flips ${share(judge.orderFlipRate)} (${judge.orderFlips} of ${judge.swappedPairs} side-swapped readings${judge.halfFlips > 0 ? `; ${judge.halfFlips} more tied one way only` : ''})`;
    const agreement =
      judge.panelAgreement === null
        ? 'agreement with the panel n/a'
        : `agrees with the other judges' majority ${share(judge.panelAgreement)} (${judge.panelAgreed} of ${judge.panelCompared})`;
    lines.push(`Judge ${printable(judge.judgeModel)}: ${flips}; ${agreement}.`);
  }
  lines.push(robustnessLine(standings));
  for (const warning of standings.warnings) lines.push(`Warning: ${warning}`);
  return lines;
}

function robustnessLine(standings: TournamentStandings): string {
  const robustness = standings.robustness;
  if (robustness === null) return 'Robustness: n/a (no ranking).';
  const top = printable(robustness.topModel);
  if (robustness.debates === null) {
    return `Robustness: no change of outcomes among the rated debates takes ${top} off the top.`;
  }
  const count = `${robustness.debates} debate${robustness.debates === 1 ? '' : 's'}`;
  const other = printable(robustness.newTopModel ?? '');
  return robustness.method === 'exact'
    ? `Robustness: changing the outcome of ${count} would put ${other} on top instead of ${top}; no fewer would (exact search).`
    : `Robustness: changing the outcome of ${count} would put ${other} on top instead of ${top}; the fewest lies between ${robustness.lowerBound} and ${robustness.debates} (greedy search, checked by refitting).`;
}

// A sentence wrapped to the width, continuation lines indented; a word longer than a line is cut.
function wrapped(text: string, width: number): string[] {
  if (!Number.isFinite(width)) return [text];
  const [first = '', ...rest] = wrapLine(text, width, true);
  return rest.length === 0
    ? [first]
    : [first, ...wrapLine(rest.join(' '), width - 2, true).map((line) => `  ${line}`)];
}

/**
 * The standings as rows for CSV (or JSON): numbers as numbers, each interval's ends in two columns
 * ("95% low", "95% high"), as the leaderboard's CSV has them.
 */
export function standingsCsv(standings: TournamentStandings): { columns: string[]; rows: StandingsCell[][] } {
  const level = levelText(standings);
  const columns = [
    'Model',
    'Rating',
    `${level} low`,
    `${level} high`,
    'Style-controlled',
    `Style-controlled ${level} low`,
    `Style-controlled ${level} high`,
    'Wins',
    'Losses',
    'Ties',
    'No result',
    'Debates',
  ];
  const round = (value: number | undefined) => (value === undefined ? null : Math.round(value * 10) / 10);
  const rows = standings.models.map((model): StandingsCell[] => [
    model.model,
    round(model.rating?.value),
    round(model.rating?.low),
    round(model.rating?.high),
    round(model.styleControlled?.value),
    round(model.styleControlled?.low),
    round(model.styleControlled?.high),
    model.wins,
    model.losses,
    model.ties,
    model.noResult,
    model.debates,
  ]);
  return { columns, rows };
}
