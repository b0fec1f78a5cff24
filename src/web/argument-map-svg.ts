/**
 * The argument map drawn as SVG on the server, in two layouts the stylesheet chooses between by the
 * width it has: side by side (each side a column, the answers crossing the gutter between them) and,
 * on a phone, one column in speaking order with the answers as arcs in the left margin. Support links
 * (a claim restating or extending its own side's earlier one) are dashed green arcs beside the
 * column. Presentation
 * attributes only (the pages allow no inline styles); every claim's text is escaped by `html`, and
 * its full text is in the node's title.
 */
import type { ArgumentMap, ClaimStatus, MapClaim } from '../analytics/argument-map-shape.js';
import { clipText } from '../core/text-layout.js';
import { html, type SafeHtml } from './html.js';

interface Layout {
  name: 'wide' | 'narrow';
  width: number;
  /** Characters per line of a claim's text, and lines at most. */
  chars: number;
  lines: number;
}

const WIDE: Layout = { name: 'wide', width: 720, chars: 39, lines: 4 };
const NARROW: Layout = { name: 'narrow', width: 360, chars: 42, lines: 5 };

const COLUMN = 290;
const GUTTER = WIDE.width - 2 * COLUMN;
const MARGIN = 44;
const ROW_TITLE = 24;
const GAP = 8;
const LINE = 15;
const SIDE_COLOURS = ['#2563eb', '#dc2626'];

const STATUS_LOOK: Record<ClaimStatus, { fill: string; stroke: string; dash: string; ink: string }> = {
  open: { fill: '#fffbeb', stroke: '#d97706', dash: '', ink: '#111827' },
  answered: { fill: '#ffffff', stroke: '#9ca3af', dash: '', ink: '#111827' },
  dropped: { fill: '#f3f4f6', stroke: '#6b7280', dash: '4 3', ink: '#4b5563' },
};

/** Greedy word wrap to `chars` a line, at most `lines` lines, the last one ending in "…" when cut. */
export function wrapText(text: string, chars: number, lines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const out: string[] = [];
  let line = '';
  for (const word of words) {
    const pieces = word.length > chars ? (word.match(new RegExp(`.{1,${chars}}`, 'g')) ?? [word]) : [word];
    for (const piece of pieces) {
      if (line === '') line = piece;
      else if (line.length + 1 + piece.length <= chars) line += ` ${piece}`;
      else {
        out.push(line);
        line = piece;
      }
    }
  }
  if (line !== '') out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  const last = kept[lines - 1] ?? '';
  // A full last line is cut at a word boundary, like every other clipped text.
  kept[lines - 1] = last.length >= chars ? clipText(`${last} ${out[lines] ?? ''}`, chars) : `${last}…`;
  return kept;
}

interface Placed {
  claim: MapClaim;
  x: number;
  y: number;
  width: number;
  height: number;
  text: string[];
  links: string;
}

/** "answers Y1.2 · answered by X2.1, X2.3": the links in words, for when the lines are hard to follow. */
function linksText(claim: MapClaim, chars: number): string {
  const parts = [
    claim.answers ? `answers ${claim.answers}` : '',
    claim.supports ? `supports ${claim.supports}` : '',
    claim.answeredBy.length > 0 ? `answered by ${claim.answeredBy.join(', ')}` : '',
    claim.restatedIn.length > 0 ? `restated in ${claim.restatedIn.join(', ')}` : '',
  ].filter((part) => part !== '');
  return clipText(parts.join(' · '), Math.round(chars * 1.15));
}

function nodeHeight(lines: number, links: string): number {
  return 26 + lines * LINE + (links === '' ? 0 : 13);
}

function sideIndex(map: ArgumentMap, side: string): number {
  return Math.max(
    0,
    map.sides.findIndex((candidate) => candidate.key === side),
  );
}

/** Where each claim goes, and the row titles, for one layout; the drawing's height. */
function place(map: ArgumentMap, layout: Layout) {
  const placed = new Map<string, Placed>();
  const titles: Array<{ y: number; title: string }> = [];
  let y = layout.name === 'wide' ? 28 : 8;
  for (const row of map.rows) {
    const claims = map.claims.filter((claim) => claim.row === row.key);
    if (claims.length === 0) continue;
    titles.push({ y, title: row.title });
    y += ROW_TITLE;
    const bottoms = [y, y];
    let bottom = y;
    for (const claim of claims) {
      const text = wrapText(claim.text, layout.chars, layout.lines);
      const links = linksText(claim, layout.chars);
      const height = nodeHeight(text.length, links);
      if (layout.name === 'wide') {
        const side = sideIndex(map, claim.side);
        const top = bottoms[side] ?? y;
        placed.set(claim.id, {
          claim,
          x: side === 0 ? 0 : COLUMN + GUTTER,
          y: top,
          width: COLUMN,
          height,
          text,
          links,
        });
        bottoms[side] = top + height + GAP;
      } else {
        placed.set(claim.id, {
          claim,
          x: MARGIN,
          y: bottom,
          width: layout.width - MARGIN,
          height,
          text,
          links,
        });
        bottom += height + GAP;
      }
    }
    y = layout.name === 'wide' ? Math.max(...bottoms) + 6 : bottom + 6;
  }
  return { placed, titles, height: y + 4 };
}

function nodeSvg(map: ArgumentMap, node: Placed): SafeHtml {
  const { claim } = node;
  const look = STATUS_LOOK[claim.status];
  const colour = SIDE_COLOURS[sideIndex(map, claim.side)] ?? '#7c3aed';
  const sideLabel = map.sides.find((side) => side.key === claim.side)?.label ?? claim.side;
  const restated = claim.restated || claim.restatedIn.length > 0;
  const status = `${claim.status}${restated ? ' · restated' : ''}`;
  const again = claim.restatedIn.length > 0 ? ` (said again in ${claim.restatedIn.join(', ')})` : '';
  const full = `${claim.id} · ${claim.speaker} · ${sideLabel} · ${claim.status}${claim.restated ? ' (restated)' : ''}: ${claim.text}${claim.evidence ? ` (evidence: ${claim.evidence})` : ''}${again}`;
  const right = node.x + node.width - 8;
  return html`<g class="claim" data-claim="${claim.id}" data-status="${claim.status}" data-side="${claim.side}"${claim.restatedIn.length > 0 ? html` data-restated-in="${claim.restatedIn.join(' ')}"` : ''}><title>${full}</title>
<rect x="${node.x + 0.5}" y="${node.y + 0.5}" width="${node.width - 1}" height="${node.height - 1}" rx="5" fill="${look.fill}" stroke="${look.stroke}" stroke-width="${claim.status === 'open' ? 1.6 : 1}"${look.dash ? html` stroke-dasharray="${look.dash}"` : ''}/>
<rect x="${node.x + 0.5}" y="${node.y + 0.5}" width="4" height="${node.height - 1}" fill="${colour}"/>
<text x="${node.x + 10}" y="${node.y + 16}" font-size="11" font-weight="bold" fill="${colour}">${claim.id} · ${clipText(claim.speaker, 26)}</text>
<text x="${right}" y="${node.y + 16}" font-size="10" text-anchor="end" fill="${look.stroke}">${status}</text>
<text x="${node.x + 10}" y="${node.y + 20}" font-size="12" fill="${look.ink}"${claim.restated ? html` font-style="italic"` : ''}>${node.text.map(
    (line) => html`<tspan x="${node.x + 10}" dy="${LINE}">${line}</tspan>`,
  )}</text>${node.links ? html`<text x="${node.x + 10}" y="${node.y + node.height - 7}" font-size="10" fill="#6b7280">${node.links}</text>` : ''}</g>`;
}

function edgeSvg(map: ArgumentMap, layout: Layout, from: Placed, to: Placed): SafeHtml {
  const side = sideIndex(map, from.claim.side);
  const colour = SIDE_COLOURS[side] ?? '#7c3aed';
  const y1 = from.y + 12;
  const y2 = to.y + 12;
  let path: string;
  if (layout.name === 'wide') {
    const x1 = side === 0 ? COLUMN : COLUMN + GUTTER;
    const x2 = side === 0 ? COLUMN + GUTTER - 5 : COLUMN + 5;
    const bend = side === 0 ? GUTTER / 2 : -GUTTER / 2;
    path = `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`;
  } else {
    // Farther answers bulge farther into the margin, so nested arcs stay apart.
    const bulge = Math.min(MARGIN - 4, 10 + Math.abs(y1 - y2) / 40);
    path = `M${MARGIN},${y1} C${MARGIN - bulge},${y1} ${MARGIN - bulge},${y2} ${MARGIN - 5},${y2}`;
  }
  return html`<path class="edge" data-from="${from.claim.id}" data-to="${to.claim.id}" d="${path}" fill="none" stroke="${colour}" stroke-width="1.3" stroke-opacity="0.75" marker-end="url(#map-${layout.name}-arrow-${side})"/>`;
}

const SUPPORT_COLOUR = '#059669';

/** A support link: within its side's column (or the narrow layout's margin), dashed, green. */
function supportSvg(map: ArgumentMap, layout: Layout, from: Placed, to: Placed): SafeHtml {
  const side = sideIndex(map, from.claim.side);
  const y1 = from.y + from.height - 10;
  const y2 = to.y + to.height - 10;
  const bulge = Math.min(GUTTER / 2 - 6, 10 + Math.abs(y1 - y2) / 40);
  let path: string;
  if (layout.name === 'wide') {
    // Along the column's edge toward the gutter, bulging a little into it.
    const x = side === 0 ? COLUMN : COLUMN + GUTTER;
    const out = side === 0 ? bulge : -bulge;
    path = `M${x},${y1} C${x + out},${y1} ${x + out},${y2} ${x + (side === 0 ? 4 : -4)},${y2}`;
  } else {
    const x = layout.width;
    path = `M${x - 2},${y1} C${x - 2 - bulge},${y1} ${x - 2 - bulge},${y2} ${x - 6},${y2}`;
  }
  return html`<path class="support" data-from="${from.claim.id}" data-to="${to.claim.id}" d="${path}" fill="none" stroke="${SUPPORT_COLOUR}" stroke-width="1.2" stroke-dasharray="3 3" stroke-opacity="0.8" marker-end="url(#map-${layout.name}-arrow-support)"/>`;
}

function drawing(map: ArgumentMap, layout: Layout, label: string): SafeHtml {
  const { placed, titles, height } = place(map, layout);
  const markers = SIDE_COLOURS.map(
    (colour, side) =>
      html`<marker id="map-${layout.name}-arrow-${side}" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="${colour}"/></marker>`,
  );
  const supportMarker = html`<marker id="map-${layout.name}-arrow-support" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="${SUPPORT_COLOUR}"/></marker>`;
  const heads =
    layout.name === 'wide'
      ? map.sides.map(
          (side, index) =>
            html`<text x="${index === 0 ? 0 : COLUMN + GUTTER}" y="16" font-size="13" font-weight="bold" fill="${SIDE_COLOURS[index] ?? '#111827'}">${clipText(side.label, 34)}</text>`,
        )
      : '';
  const rows = titles.map(
    (row) =>
      html`<text x="0" y="${row.y + 15}" font-size="12" font-weight="bold" fill="#6b7280">${row.title}</text><line x1="0" x2="${layout.width}" y1="${row.y + 20}" y2="${row.y + 20}" stroke="#e5e7eb"/>`,
  );
  const edges = map.edges.flatMap((edge) => {
    const from = placed.get(edge.from);
    const to = placed.get(edge.to);
    return from && to ? [edgeSvg(map, layout, from, to)] : [];
  });
  const supports = map.supports.flatMap((link) => {
    const from = placed.get(link.from);
    const to = placed.get(link.to);
    return from && to ? [supportSvg(map, layout, from, to)] : [];
  });
  return html`<svg class="map-${layout.name}" viewBox="0 0 ${layout.width} ${height}" role="img" aria-label="${label}" xmlns="http://www.w3.org/2000/svg"><defs>${markers}${supportMarker}</defs>
${heads}${rows}
${[...placed.values()].map((node) => nodeSvg(map, node))}
<g class="edges">${edges}</g><g class="supports">${supports}</g></svg>`;
}

/** Both layouts of the map; the stylesheet shows one. */
export function argumentMapSvg(map: ArgumentMap): SafeHtml {
  const label = `Argument map: ${map.claims.length} claims, ${map.edges.length} answers, ${map.supports.length} supports`;
  return html`<div class="map-box">${drawing(map, WIDE, label)}${drawing(map, NARROW, label)}</div>`;
}
