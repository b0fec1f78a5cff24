/**
 * The argument scores of each debater, from the argument map, beside what the judges gave them:
 * a knockout Y debater's mean weighted score, a formal side's weighted total in the verdict, the
 * duel rounds the judge gave a side.
 */
import type { ArgumentMap, ArgumentScore } from '../analytics/argument-map-shape.js';
import type { RunEvent } from '../core/events.js';
import { html, type SafeHtml } from './html.js';

/** What the judges gave one debater, in a few words; null when they score no one on that side. */
export function judgesScoreText(events: readonly RunEvent[], score: ArgumentScore): string | null {
  const format = events[0]?.type === 'run-start' ? events[0].scenario.format : undefined;
  if (format === 'knockout') {
    if (score.side !== 'Y') return null;
    const rounds = new Set(
      events.flatMap((event) =>
        event.type === 'turn-end' && event.position === 'Y' && event.agent === score.speaker
          ? [event.round]
          : [],
      ),
    );
    const totals = events.flatMap((event) =>
      event.type === 'vote-cast' && event.evaluation && rounds.has(event.round)
        ? [event.evaluation.total_score]
        : [],
    );
    if (totals.length === 0) return null;
    const mean = totals.reduce((sum, value) => sum + value, 0) / totals.length;
    return `${mean.toFixed(2)}\u00a0/\u00a05 over ${rounds.size} round${rounds.size === 1 ? '' : 's'}`;
  }
  if (format === 'formal') {
    const verdict = events.find((event) => event.type === 'assessment' && event.phase === 'verdict');
    const result = verdict?.type === 'assessment' ? verdict.result : null;
    const totals = result?.totals as Record<string, number> | undefined;
    const total = totals?.[score.side];
    if (typeof total !== 'number') return null;
    return `${total.toFixed(2)}\u00a0/\u00a05 in the verdict${result?.winner === score.side ? ' (winner)' : ''}`;
  }
  if (format === 'duel') {
    const judged = events.filter(
      (event) => event.type === 'assessment' && event.phase === 'judgement' && event.result,
    );
    if (judged.length === 0) return null;
    const won = judged.filter(
      (event) => event.type === 'assessment' && event.result?.stronger === score.side,
    ).length;
    return `stronger in ${won} of ${judged.length} round${judged.length === 1 ? '' : 's'}`;
  }
  return null;
}

const JUDGES_NOTES: Record<string, string> = {
  knockout:
    'Judges: the mean weighted score (1 to 5) the judges gave a Position Y debater in its rounds; they score Position Y only.',
  formal: "Judges: the side's weighted total (1 to 5) in the verdict.",
  duel: 'Judges: the rounds the judge found the side stronger.',
};

/** The scores table; `judges: false` leaves out the judges' column (the blind arena shows no verdicts). */
export function argumentScoresHtml(
  map: ArgumentMap | null,
  events: readonly RunEvent[],
  options: { judges?: boolean } = {},
): SafeHtml {
  if (!map) return html``;
  if (map.scores.length === 0) return html`<p class="muted">No debater has spoken yet.</p>`;
  const judges = options.judges !== false;
  const format = events[0]?.type === 'run-start' ? events[0].scenario.format : undefined;
  const sideOf = (key: string) => map.sides.find((side) => side.key === key)?.label ?? key;
  return html`<table class="argument-scores stack"><thead><tr><th>Debater</th><th title="New claims made (restated ones not counted again)">Claims</th><th title="Of its claims, those the other side answered">Answered by the other side</th><th title="The other side's claims it answered">Answers given</th><th title="Of its claims, those never answered">Left open</th><th title="Of its claims, those answered and then let go by its side">Dropped</th>${judges ? html`<th>Judges</th>` : ''}</tr></thead><tbody>
${map.scores.map(
  (score) =>
    html`<tr data-speaker="${score.speaker}"><td data-label="Debater"><strong>${score.speaker}</strong><br><span class="muted">${sideOf(score.side)}</span></td><td data-label="Claims">${score.made}</td><td data-label="Answered by the other side">${score.answeredByOther}</td><td data-label="Answers given">${score.answersGiven}</td><td data-label="Left open">${score.leftOpen}</td><td data-label="Dropped">${score.dropped}</td>${judges ? html`<td data-label="Judges">${judgesScoreText(events, score) ?? '–'}</td>` : ''}</tr>`,
)}
</tbody></table>
<p class="notes">Claims: new claims made; restated ones are not counted again. Answered by the other side: of those, the ones the other side answered. Answers given: the other side's claims it answered. Left open and dropped: see the map's legend.${judges && format ? ` ${JUDGES_NOTES[format] ?? ''}` : ''}</p>`;
}
