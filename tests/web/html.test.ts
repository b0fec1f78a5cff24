/** The viewer's escaping and rendering, function by function. */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/events.js';
import { barChart, rotationTimeline, runCharts } from '../../src/web/charts.js';
import { eventHtml, paragraphs } from '../../src/web/event-html.js';
import { escapeHtml, html, trusted } from '../../src/web/html.js';

const MARKUP = `<script>alert("x")</script><img src=x onerror='alert(1)'>&`;

describe('html', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(MARKUP)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;',
    );
  });

  it('escapes every interpolated value, keeps nested fragments as markup, and drops null, undefined and false', () => {
    const inner = html`<b>${MARKUP}</b>`;
    const out = html`<p title="${MARKUP}">${inner}${[html`<i>${1}</i>`, '<u>']}${null}${undefined}${false}</p>`;
    expect(out.value).toBe(
      `<p title="${escapeHtml(MARKUP)}"><b>${escapeHtml(MARKUP)}</b><i>1</i>&lt;u&gt;</p>`,
    );
    expect(html`${trusted('<hr>')}`.value).toBe('<hr>');
  });

  it('turns a model answer into paragraphs of text, never markup', () => {
    expect(paragraphs(`First ${MARKUP}\n\n  Second  \n\n\n`).value).toBe(
      `<p>First ${escapeHtml(MARKUP)}</p><p>Second</p>`,
    );
  });

  it('renders a statement and a judge with markup in every field as text', () => {
    const turn = {
      type: 'turn-end',
      seq: 3,
      at: '2026-11-22T00:00:00.000Z',
      round: 1,
      agent: `Xen${MARKUP}`,
      position: 'X',
      model: `llama3${MARKUP}`,
      text: MARKUP,
      promptTokens: 1,
      promptChars: 1,
      outputTokens: 2,
      simulatedSeconds: 1,
      truncated: false,
      realMs: 1,
      degraded: true,
      failureReason: MARKUP,
    } satisfies RunEvent;
    const vote = {
      type: 'vote-cast',
      seq: 4,
      at: '2026-11-22T00:00:00.000Z',
      round: 1,
      judge: MARKUP,
      model: 'mistral',
      evaluation: {
        round_number: 1,
        position_y_performance: { [MARKUP]: 3 },
        total_score: 3,
        comments: MARKUP,
        continue_vote: false,
      },
      abstained: false,
      attempts: 1,
      promptTokens: 1,
      promptChars: 1,
      outputTokens: 1,
      realMs: 1,
    } satisfies RunEvent;
    for (const event of [turn, vote]) {
      const out = eventHtml(event, undefined).value;
      expect(out).not.toMatch(/<script|<img/);
      expect(out).toContain(escapeHtml(MARKUP));
    }
    expect(eventHtml(turn, undefined).value).toContain('degraded: ');
    expect(eventHtml(vote, undefined).value).toContain('<span class="vote-rotate">rotate</span>');
  });
});

describe('charts', () => {
  it('draws one bar per label, scaled to the largest, with labels escaped', () => {
    const svg = barChart(
      'Tokens',
      [
        { label: 'Xen', value: 100 },
        { label: MARKUP, value: 50 },
      ],
      'tokens',
    ).value;
    expect(svg.match(/<rect /g)).toHaveLength(2);
    const widths = [...svg.matchAll(/<rect x="170" y="\d+" width="([\d.]+)"/g)].map((match) =>
      Number(match[1]),
    );
    expect(widths[0]).toBeCloseTo(2 * (widths[1] ?? 0), 0);
    expect(svg).not.toMatch(/<script|<img/);
    expect(barChart('Empty', [], 'x').value).toBe('');
  });

  it('draws the knockout charts from the events, and nothing for what is missing', () => {
    const at = '2026-11-22T00:00:00.000Z';
    const events = [
      {
        type: 'turn-end',
        seq: 1,
        at,
        round: 1,
        agent: 'Xen',
        position: 'X',
        model: 'm',
        text: 't',
        promptTokens: 1,
        promptChars: 1,
        outputTokens: 30,
        simulatedSeconds: 8,
        truncated: false,
        realMs: 1,
      },
      {
        type: 'turn-end',
        seq: 2,
        at,
        round: 1,
        agent: 'Yara',
        position: 'Y',
        model: 'm',
        text: 't',
        promptTokens: 1,
        promptChars: 1,
        outputTokens: 20,
        simulatedSeconds: 5,
        truncated: false,
        realMs: 1,
      },
      {
        type: 'round-end',
        seq: 3,
        at,
        round: 1,
        debater: 'Yara',
        tally: {
          rotateVotes: 2,
          continueVotes: 1,
          abstentions: 0,
          meanScore: 3,
          decision: 'rotate',
          decidedBy: 'votes',
        },
        outcome: 'rotation',
        rotation: { from: 'Yara', to: 'Yusuf' },
        transition: { summary: '', focus: '' },
        realMs: 1,
      },
    ] satisfies RunEvent[];
    const out = runCharts(events, new Map([[1, new Map([['rotate', 4]])]])).value;
    expect(out).toContain('Votes per round');
    expect(out).toContain('Rotation timeline');
    expect(out).toContain('Simulated speaking time per side');
    expect(out).toContain('R1 ✕');
    expect(out).not.toContain('Weighted score per round'); // no evaluations yet
    // Judges: 2 rotate + 1 continue; spectators: 4 rotate, the tallest bar.
    expect(out.match(/fill="#fca5a5"/g)).toHaveLength(1);
    expect(out).toMatch(/<rect x="[\d.]+" y="28" width="[\d.]+" height="120" fill="#fca5a5"\/>/);
  });

  it('shortens a long debater name in the rotation timeline at a word, with an ellipsis', () => {
    const svg = rotationTimeline([{ round: 1, debater: 'Professor Ada Lovelace', rotated: false }]).value;
    expect(svg).toContain('>Professor…</text>');
    expect(svg).not.toContain('Professor Ad<');
  });
});
