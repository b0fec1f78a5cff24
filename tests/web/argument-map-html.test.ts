/** The argument map and the argument scores as HTML: every claim a node in both layouts, text never markup. */
import { describe, expect, it } from 'vitest';
import { argumentMap } from '../../src/analytics/argument-map.js';
import { argumentMapHtml } from '../../src/web/argument-map-html.js';
import { wrapText } from '../../src/web/argument-map-svg.js';
import { argumentScoresHtml } from '../../src/web/argument-scores-html.js';
import { escapeHtml } from '../../src/web/html.js';
import { claims, logOf, scenarioOf, turn, vote } from '../helpers/run-events.js';

const MARKUP = '<script>window.pwned = 1</script><img src=x onerror="alert(1)">';

describe('the argument map as HTML', () => {
  it('draws every claim as a node and every answer as an edge, in both layouts, with a model’s markup as text', async () => {
    const scenario = await scenarioOf('knockout');
    const events = logOf(scenario, [
      turn(1, 'Xavier', 'X', 'Round one.'),
      claims(1, 'Xavier', 'X', [{ claim: `Cars choke centres ${MARKUP}`, evidence: MARKUP }]),
      turn(1, 'Yara', 'Y', 'Round one.', 'mistral'),
      claims(1, 'Yara', 'Y', [{ claim: 'Pricing fixed it.', answers: 'X1.1' }]),
      vote(1, 'Yusuf', 'mistral', true, 4),
      vote(1, 'Yvonne', 'mistral', false, 2),
    ]);
    const map = argumentMap(events);
    const out = argumentMapHtml(map).value;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).toContain(escapeHtml('<script>window.pwned'));
    for (const layout of ['map-wide', 'map-narrow']) {
      const svg = out.slice(out.indexOf(`class="${layout}"`));
      const drawing = svg.slice(0, svg.indexOf('</svg>'));
      expect(drawing.match(/class="claim"/g)).toHaveLength(2);
      expect(drawing.match(/class="edge" data-from="Y1.1" data-to="X1.1"/g)).toHaveLength(1);
    }
    expect(out).toContain('2 claims, 1 answers, 0 supports: 1 answered, 1 left open, 0 dropped.');

    const scores = argumentScoresHtml(map, events).value;
    // Y's judges' score beside its argument scores: the mean of the round's weighted totals.
    expect(scores).toMatch(
      /<tr data-speaker="Yara">.*<td data-label="Judges">3\.00\s\/\s5 over 1 round<\/td>/s,
    );
    expect(argumentScoresHtml(map, events, { judges: false }).value).not.toContain('Judges');
  });

  it('wraps a claim by words, cuts a long word, and marks text left out', () => {
    expect(wrapText('one two three four five', 9, 3)).toEqual(['one two', 'three', 'four five']);
    expect(wrapText('abcdefghijkl', 5, 3)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('one two three four five six', 9, 2)).toEqual(['one two', 'three…']);
    // A full last line is cut at a word boundary, never inside a word.
    expect(wrapText('abcd efghi jklmn', 10, 1)).toEqual(['abcd…']);
  });

  it('says when a format has no two sides, and when nothing was claimed yet', async () => {
    // A started run of a format without two sides; before its start, any run has no claims yet.
    const started = [{ type: 'run-start' }] as unknown as Parameters<typeof argumentMapHtml>[1];
    expect(argumentMapHtml(null, started).value).toContain('no two sides');
    expect(argumentMapHtml(null).value).toContain('No claims yet');
    const map = argumentMap(logOf(await scenarioOf('duel'), []));
    expect(argumentMapHtml(map).value).toContain('No claims yet');
  });
});
