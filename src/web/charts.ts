/**
 * The run's charts as inline SVG, drawn from its events: weighted score per round per judge, votes
 * per round (spectators beside the judges), the rotation timeline, speaking time per side and
 * tokens per agent. Plain SVG with presentation attributes: no script, no styles, no library.
 */
import type { RunEvent } from '../core/events.js';
import { clipText } from '../core/text-layout.js';
import { html, type SafeHtml } from './html.js';

const PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];
const colour = (index: number) => PALETTE[index % PALETTE.length] as string;
/** The first side (X, affirmative, A) is blue and the second (Y, negative, B) red, as on the page. */
const SIDE_COLOURS: Record<string, string> = {
  X: '#2563eb',
  affirmative: '#2563eb',
  a: '#2563eb',
  Y: '#dc2626',
  negative: '#dc2626',
  b: '#dc2626',
};

/**
 * One colour per side and per person for every chart of a page: a debater takes its side's colour
 * (the first to speak for it; a knockout's later Position Y debaters and the judges take the
 * palette's next free colours), so a debater is never red in one chart and green in the next.
 */
export class ChartColours {
  private readonly given = new Map<string, string>();
  private readonly taken = new Set<string>();

  /** A side's colour, by its key (X, Y, affirmative, negative, a, b). */
  side(key: string): string {
    return SIDE_COLOURS[key] ?? this.of(`side ${key}`);
  }

  /** A person's colour: the one they were given, else their side's if it is still free, else the next free one. */
  of(name: string, side?: string): string {
    const known = this.given.get(name);
    if (known) return known;
    const preferred = side === undefined ? undefined : SIDE_COLOURS[side];
    const chosen =
      preferred && !this.taken.has(preferred)
        ? preferred
        : (PALETTE.find((candidate) => !this.taken.has(candidate) && !isSideColour(candidate)) ??
          colour(this.given.size));
    this.given.set(name, chosen);
    this.taken.add(chosen);
    return chosen;
  }
}

const isSideColour = (candidate: string) => Object.values(SIDE_COLOURS).includes(candidate);
const WIDTH = 560;

const round1 = (value: number) => Math.round(value * 10) / 10;

interface Bar {
  label: string;
  value: number;
  /** Its colour; by default the palette's, in order. */
  colour?: string;
}

/** Horizontal bars, one per label, with the value written at the end. */
export function barChart(title: string, bars: Bar[], unit: string): SafeHtml {
  if (bars.length === 0) return html``;
  const rowHeight = 24;
  const labelWidth = 170;
  const height = bars.length * rowHeight + 34;
  const max = Math.max(...bars.map((bar) => bar.value), 1);
  const span = WIDTH - labelWidth - 80;
  return html`<figure class="chart"><svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg">
<title>${title}</title>
<text x="0" y="16" font-size="14" font-weight="bold" fill="#111827">${title}</text>
${bars.map((bar, index) => {
  const y = 30 + index * rowHeight;
  const width = Math.max(1, (bar.value / max) * span);
  return html`<text x="${labelWidth - 6}" y="${y + 15}" font-size="12" text-anchor="end" fill="#374151">${bar.label}</text>
<rect x="${labelWidth}" y="${y + 3}" width="${round1(width)}" height="${rowHeight - 8}" fill="${bar.colour ?? colour(index)}"/>
<text x="${labelWidth + width + 6}" y="${y + 15}" font-size="12" fill="#374151">${round1(bar.value)} ${unit}</text>`;
})}
</svg></figure>`;
}

interface Series {
  label: string;
  points: Array<{ x: number; y: number }>;
  /** Its colour; by default the palette's, in order. */
  colour?: string;
}

/** Lines over rounds, one per series, with a legend. */
export function lineChart(title: string, series: Series[], yLabel: string): SafeHtml {
  const points = series.flatMap((line) => line.points);
  if (points.length === 0) return html``;
  const left = 44;
  const top = 28;
  const plotWidth = WIDTH - left - 150;
  const plotHeight = 160;
  const maxX = Math.max(...points.map((point) => point.x), 1);
  const minX = Math.min(...points.map((point) => point.x));
  const maxY = Math.max(...points.map((point) => point.y), 1);
  const x = (value: number) =>
    round1(left + (maxX === minX ? plotWidth / 2 : ((value - minX) / (maxX - minX)) * plotWidth));
  const y = (value: number) => round1(top + plotHeight - (value / maxY) * plotHeight);
  const rounds = [...new Set(points.map((point) => point.x))].sort((a, b) => a - b);
  return html`<figure class="chart"><svg viewBox="0 0 ${WIDTH} ${top + plotHeight + 40}" role="img" aria-label="${title}" xmlns="http://www.w3.org/2000/svg">
<title>${title}</title>
<text x="0" y="16" font-size="14" font-weight="bold" fill="#111827">${title}</text>
<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${top + plotHeight}" stroke="#9ca3af"/>
<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" stroke="#9ca3af"/>
<text x="${left - 6}" y="${top + 4}" font-size="11" text-anchor="end" fill="#6b7280">${round1(maxY)}</text>
<text x="${left - 6}" y="${top + plotHeight}" font-size="11" text-anchor="end" fill="#6b7280">0</text>
<text x="${left - 36}" y="${top + plotHeight / 2}" font-size="11" fill="#6b7280">${yLabel}</text>
${rounds.map((round) => html`<text x="${x(round)}" y="${top + plotHeight + 16}" font-size="11" text-anchor="middle" fill="#6b7280">R${round}</text>`)}
${series.map((line, index) => {
  const path = line.points.map((point) => `${x(point.x)},${y(point.y)}`).join(' ');
  const stroke = line.colour ?? colour(index);
  return html`<polyline points="${path}" fill="none" stroke="${stroke}" stroke-width="2"/>
${line.points.map((point) => html`<circle cx="${x(point.x)}" cy="${y(point.y)}" r="3" fill="${stroke}"/>`)}
<rect x="${left + plotWidth + 14}" y="${top + index * 18}" width="10" height="10" fill="${stroke}"/>
<text x="${left + plotWidth + 30}" y="${top + index * 18 + 9}" font-size="11" fill="#374151">${line.label}</text>`;
})}
</svg></figure>`;
}

interface VoteRound {
  round: number;
  rotate: number;
  continue: number;
  abstain: number;
  spectators: { rotate: number; continue: number } | null;
}

/** Judges' votes per round as stacked bars, with the spectators' votes in a thinner bar beside them. */
export function votesChart(rounds: VoteRound[]): SafeHtml {
  if (rounds.length === 0) return html``;
  const top = 28;
  const plotHeight = 120;
  const slot = Math.min(60, (WIDTH - 60) / rounds.length);
  const max = Math.max(
    ...rounds.map((round) =>
      Math.max(
        round.rotate + round.continue + round.abstain,
        (round.spectators?.rotate ?? 0) + (round.spectators?.continue ?? 0),
      ),
    ),
    1,
  );
  const unit = plotHeight / max;
  const segments = (x: number, width: number, parts: Array<[number, string]>) => {
    let y = top + plotHeight;
    return parts.map(([count, fill]) => {
      y -= count * unit;
      return count > 0
        ? html`<rect x="${round1(x)}" y="${round1(y)}" width="${round1(width)}" height="${round1(count * unit)}" fill="${fill}"/>`
        : html``;
    });
  };
  return html`<figure class="chart"><svg viewBox="0 0 ${WIDTH} ${top + plotHeight + 50}" role="img" aria-label="Votes per round" xmlns="http://www.w3.org/2000/svg">
<title>Votes per round</title>
<text x="0" y="16" font-size="14" font-weight="bold" fill="#111827">Votes per round (judges; spectators in the thin bar)</text>
${rounds.map((round, index) => {
  const x = 30 + index * slot;
  return html`${segments(x, slot * 0.5, [
    [round.rotate, '#dc2626'],
    [round.continue, '#059669'],
    [round.abstain, '#9ca3af'],
  ])}${
    round.spectators
      ? segments(x + slot * 0.55, slot * 0.2, [
          [round.spectators.rotate, '#fca5a5'],
          [round.spectators.continue, '#6ee7b7'],
        ])
      : ''
  }<text x="${round1(x + slot * 0.35)}" y="${top + plotHeight + 16}" font-size="11" text-anchor="middle" fill="#6b7280">R${round.round}</text>`;
})}
<rect x="30" y="${top + plotHeight + 28}" width="10" height="10" fill="#dc2626"/><text x="44" y="${top + plotHeight + 37}" font-size="11" fill="#374151">rotate</text>
<rect x="100" y="${top + plotHeight + 28}" width="10" height="10" fill="#059669"/><text x="114" y="${top + plotHeight + 37}" font-size="11" fill="#374151">continue</text>
<rect x="180" y="${top + plotHeight + 28}" width="10" height="10" fill="#9ca3af"/><text x="194" y="${top + plotHeight + 37}" font-size="11" fill="#374151">abstained</text>
</svg></figure>`;
}

/** Which Position Y agent held the floor in each round, with the knock-outs marked. */
export function rotationTimeline(
  rounds: Array<{ round: number; debater: string; rotated: boolean }>,
  colours: ChartColours = new ChartColours(),
): SafeHtml {
  if (rounds.length === 0) return html``;
  const slot = Math.min(80, (WIDTH - 20) / rounds.length);
  return html`<figure class="chart"><svg viewBox="0 0 ${WIDTH} 96" role="img" aria-label="Rotation timeline" xmlns="http://www.w3.org/2000/svg">
<title>Rotation timeline</title>
<text x="0" y="16" font-size="14" font-weight="bold" fill="#111827">Rotation timeline (Position Y on the floor)</text>
${rounds.map((round, index) => {
  const x = 10 + index * slot;
  return html`<rect x="${round1(x)}" y="28" width="${round1(slot - 2)}" height="30" fill="${colours.of(round.debater, 'Y')}"/>
<text x="${round1(x + slot / 2)}" y="47" font-size="11" text-anchor="middle" fill="#ffffff">${clipText(round.debater, 12)}</text>
<text x="${round1(x + slot / 2)}" y="74" font-size="11" text-anchor="middle" fill="#6b7280">R${round.round}${round.rotated ? ' ✕' : ''}</text>`;
})}
<text x="10" y="92" font-size="11" fill="#6b7280">✕ knocked out after that round</text>
</svg></figure>`;
}

/** Every chart that has data in these events. */
export function runCharts(
  events: RunEvent[],
  spectators: Map<number, Map<string, number>> = new Map(),
): SafeHtml {
  // Colours are given in the order people first appear, so every chart of the page agrees.
  const colours = new ChartColours();
  const judges = new Map<string, Series>();
  const speaking = new Map<string, number>();
  const sideTokens = new Map<string, number>();
  const tokens = new Map<string, number>();
  const voteRounds: VoteRound[] = [];
  const floor: Array<{ round: number; debater: string; rotated: boolean }> = [];
  const addTokens = (agent: string, count: number) => tokens.set(agent, (tokens.get(agent) ?? 0) + count);
  for (const event of events) {
    switch (event.type) {
      case 'turn-end':
        colours.of(event.agent, event.position);
        speaking.set(event.position, (speaking.get(event.position) ?? 0) + event.simulatedSeconds);
        addTokens(event.agent, event.outputTokens);
        break;
      case 'statement':
        colours.of(event.speaker, event.side);
        sideTokens.set(event.side, (sideTokens.get(event.side) ?? 0) + event.outputTokens);
        addTokens(event.speaker, event.outputTokens);
        break;
      case 'vote-cast': {
        addTokens(event.judge, event.outputTokens);
        if (!event.evaluation) break;
        const series = judges.get(event.judge) ?? {
          label: event.judge,
          points: [],
          colour: colours.of(event.judge),
        };
        series.points.push({ x: event.round, y: event.evaluation.total_score });
        judges.set(event.judge, series);
        break;
      }
      case 'assessment':
        addTokens(event.judge, event.outputTokens);
        break;
      case 'round-end': {
        const audience = spectators.get(event.round);
        voteRounds.push({
          round: event.round,
          rotate: event.tally.rotateVotes,
          continue: event.tally.continueVotes,
          abstain: event.tally.abstentions,
          spectators: audience
            ? { rotate: audience.get('rotate') ?? 0, continue: audience.get('continue') ?? 0 }
            : null,
        });
        floor.push({ round: event.round, debater: event.debater, rotated: event.rotation !== null });
        break;
      }
      default:
        break;
    }
  }
  const bySize = (map: Map<string, number>, colourOf: (label: string) => string) =>
    [...map.entries()]
      .map(([label, value]) => ({ label, value, colour: colourOf(label) }))
      .sort((a, b) => b.value - a.value);
  return html`<div class="charts">
${lineChart('Weighted score per round, per judge', [...judges.values()], 'score')}
${votesChart(voteRounds)}
${rotationTimeline(floor, colours)}
${barChart(
  'Simulated speaking time per side',
  [...speaking.entries()].map(([side, seconds]) => ({
    label: `Position ${side}`,
    value: seconds,
    colour: colours.side(side),
  })),
  's',
)}
${barChart(
  'Output tokens per side',
  bySize(sideTokens, (side) => colours.side(side)),
  'tokens',
)}
${barChart(
  'Output tokens per agent',
  bySize(tokens, (agent) => colours.of(agent)),
  'tokens',
)}
</div>`;
}
