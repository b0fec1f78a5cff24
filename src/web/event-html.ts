/** One run event as an HTML fragment, for the live page, the run page and the HTML export alike. */
import type { Scenario } from '../config/scenario.js';
import type { AssessmentEvent, RunEvent } from '../core/events.js';
import { seatModel } from '../core/person-seat.js';
import { stopReasonText } from '../core/stop-reason-text.js';
import {
  type JudgementReading,
  readJudgement,
  sentence,
  voteContradictionText,
} from '../render/judgement-text.js';
import { html, type SafeHtml } from './html.js';

/** Paragraphs of a model's text, every character of it escaped. */
export function paragraphs(text: string): SafeHtml {
  const blocks = text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
  return html`${blocks.map((block) => html`<p>${block}</p>`)}`;
}

/** How a speaker's side reads, from the scenario's labels: "Position X (Pro-Choice)", "Affirmative (For)". */
export function sideLabel(scenario: Scenario | undefined, side: string): string {
  if (!scenario) return side;
  switch (scenario.format) {
    case 'knockout':
      return side === 'X' ? `Position X (${scenario.positions.x})` : `Position Y (${scenario.positions.y})`;
    case 'formal':
      return side === 'affirmative'
        ? `Affirmative (${scenario.positions.affirmative})`
        : side === 'negative'
          ? `Negative (${scenario.positions.negative})`
          : side;
    case 'duel':
      return side === 'a'
        ? `A (${scenario.positions.a})`
        : side === 'b'
          ? `B (${scenario.positions.b})`
          : side;
    default:
      return side;
  }
}

/** Who takes part, on which model: the participants list at the top of a run. */
export function participants(scenario: Scenario): Array<{ name: string; role: string; model: string }> {
  switch (scenario.format) {
    case 'knockout':
      return scenario.agents.map((agent) => ({
        name: agent.name,
        role: sideLabel(scenario, agent.position),
        model: seatModel(agent),
      }));
    case 'formal':
      return (scenario.debaters ?? []).map((debater) => ({
        name: debater.name,
        role: 'debater (side drawn by seed)',
        model: seatModel(debater),
      }));
    case 'duel':
      return [
        {
          name: scenario.debaters.a.name,
          role: sideLabel(scenario, 'a'),
          model: seatModel(scenario.debaters.a),
        },
        {
          name: scenario.debaters.b.name,
          role: sideLabel(scenario, 'b'),
          model: seatModel(scenario.debaters.b),
        },
        { name: 'Judge', role: 'judge', model: scenario.judge.model },
      ];
    case 'critique':
      return scenario.agents.map((agent) => ({ name: agent.name, role: agent.role, model: agent.model }));
    case 'council':
      return Object.entries(scenario.participants).map(([role, participant]) => ({
        name: role,
        role,
        model: participant.model,
      }));
    case 'truth':
      return [
        {
          name: scenario.debaters.a.name,
          role: 'debater (answer drawn by seed)',
          model: scenario.debaters.a.model,
        },
        {
          name: scenario.debaters.b.name,
          role: 'debater (answer drawn by seed)',
          model: scenario.debaters.b.model,
        },
        { name: scenario.judge.name, role: 'judge', model: scenario.judge.model },
      ];
  }
}

function notes(items: Array<string | false | undefined>): SafeHtml {
  const kept = items.filter((item): item is string => typeof item === 'string' && item !== '');
  return kept.length === 0 ? html`` : html`<p class="notes">${kept.join(' · ')}</p>`;
}

function value(item: unknown): SafeHtml {
  if (item === null || item === undefined) return html`<span class="muted">none</span>`;
  if (Array.isArray(item)) {
    if (item.length === 0) return html`<span class="muted">none</span>`;
    return html`<ul>${item.map((entry) => html`<li>${value(entry)}</li>`)}</ul>`;
  }
  if (typeof item === 'object') return definitions(item as Record<string, unknown>);
  return html`${String(item)}`;
}

function definitions(record: Record<string, unknown>): SafeHtml {
  return html`<dl>${Object.entries(record).map(
    ([key, item]) => html`<dt>${key.replace(/_/g, ' ')}</dt><dd>${value(item)}</dd>`,
  )}</dl>`;
}

const PHASE_TITLES: Record<string, string> = {
  judgement: "Judge's judgement",
  verdict: 'Verdict',
  synthesis: 'Synthesis',
  'round-1': 'Round 1 position',
  'round-2': 'Round 2 challenge',
  'round-3': 'Round 3 revision',
  decision: "Judge's decision",
};

/** The council Judge's decision in words, above the answer's fields. */
function headline(event: AssessmentEvent, result: Record<string, unknown>) {
  if (event.phase === 'decision' && typeof result.selected_option === 'string')
    return html`<p class="verdict">Decision: ${result.selected_option}</p>`;
  return html``;
}

const score = (value: number | null, digits = 0) => (value === null ? '–' : value.toFixed(digits));

/** A verdict's criteria as a small table: weight and each side's score, the weighted totals last. */
function criteriaTable(reading: JudgementReading): SafeHtml {
  if (reading.criteria.length === 0) return html``;
  return html`<table class="criteria"><thead><tr><th>Criterion</th><th>Weight</th><th>Affirmative</th><th>Negative</th></tr></thead><tbody>
${reading.criteria.map(
  (row) =>
    html`<tr><td>${row.criterion}</td><td>${row.weight === null ? '–' : row.weight.toFixed(2)}</td><td>${score(row.affirmative)}</td><td>${score(row.negative)}</td></tr>`,
)}
${reading.totals ? html`<tr class="total"><td>weighted total</td><td></td><td>${score(reading.totals.affirmative, 2)}</td><td>${score(reading.totals.negative, 2)}</td></tr>` : ''}
</tbody></table>`;
}

/** A duel judgement or a formal verdict as a person would write it: who was stronger and why. */
function judgementHtml(reading: JudgementReading): SafeHtml {
  return html`<p class="verdict">${reading.headline}</p>
${reading.why ? html`<p class="why">${reading.why}</p>` : ''}
${criteriaTable(reading)}
${reading.sideSwap ? html`<p class="side-swap notes">${sentence(reading.sideSwap)}</p>` : ''}
${reading.warnings.map((warning) => html`<p class="warning">⚠ ${warning}</p>`)}
${reading.summary ? html`<p class="summary muted">${reading.summary}</p>` : ''}`;
}

function assessmentBody(event: AssessmentEvent, scenario: Scenario | undefined): SafeHtml {
  if (!event.result)
    return html`<p class="vote-abstain">abstained: ${event.reason ?? 'no usable answer'}</p>`;
  const reading = readJudgement(scenario, event);
  if (reading) return judgementHtml(reading);
  return html`${headline(event, event.result)}${definitions(event.result)}`;
}

/** The fragment for one event; `scenario` supplies the side labels. */
export function eventHtml(event: RunEvent, scenario: Scenario | undefined): SafeHtml {
  const id = `e-${event.seq}`;
  switch (event.type) {
    case 'run-start':
      return html`<section class="event run-start" id="${id}" data-seq="${event.seq}">
<h3>Debate started</h3>
<p>${event.format} · seed ${event.scenario.seed} · engine ${event.engineVersion}</p>
<ul class="participants">${participants(event.scenario).map(
        (who) => html`<li><strong>${who.name}</strong> · ${who.role} · <code>${who.model}</code></li>`,
      )}</ul>
</section>`;
    case 'run-resume':
      return html`<section class="event run-resume" id="${id}" data-seq="${event.seq}"><p class="notes">Resumed at ${event.at}</p></section>`;
    case 'turn-end':
      return html`<article class="event statement side-${event.position.toLowerCase()}${event.degraded ? ' degraded' : ''}" id="${id}" data-seq="${event.seq}" data-agent="${event.agent}">
<header><span class="round">Round ${event.round}</span> <strong class="speaker">${event.agent}</strong> <span class="side">${sideLabel(scenario, event.position)}</span> <code>${event.model}</code></header>
${paragraphs(event.text)}
${notes([
  `${event.outputTokens} tokens`,
  `${event.simulatedSeconds} s simulated`,
  event.truncated && 'cut by the time limit',
  event.fallbackFrom && `spoken by fallback model ${event.model} (${event.fallbackFrom} kept failing)`,
  event.degraded && `degraded: ${event.failureReason ?? 'the model failed'}`,
])}
</article>`;
    case 'statement':
      return html`<article class="event statement side-${event.side}${event.degraded ? ' degraded' : ''}" id="${id}" data-seq="${event.seq}" data-agent="${event.speaker}">
<header><span class="round">${event.phase} · round ${event.round}</span> <strong class="speaker">${event.speaker}</strong> <span class="side">${sideLabel(scenario, event.side)}</span> <code>${event.model}</code>${event.target ? html` <span class="target">on ${event.target}</span>` : ''}</header>
${paragraphs(event.text)}
${notes([
  `${event.outputTokens} tokens`,
  event.truncated && 'cut by its token cap',
  event.wordLimited && 'cut to the word limit',
  event.timeLimited && 'cut at its time limit',
  event.regenerated && 'generated again once',
  event.flagged && `flagged by the moderator: ${event.flagged}`,
  event.fallbackFrom && `spoken by fallback model ${event.model} (${event.fallbackFrom} kept failing)`,
  event.degraded && `degraded: ${event.failureReason ?? 'the model failed'}`,
])}
</article>`;
    case 'vote-cast': {
      const evaluation = event.evaluation;
      return html`<div class="event vote" id="${id}" data-seq="${event.seq}" data-judge="${event.judge}">
<strong>${event.judge}</strong> <code>${event.model}</code>
${
  evaluation
    ? html`<span class="vote-${evaluation.continue_vote ? 'continue' : 'rotate'}">${evaluation.continue_vote ? 'continue' : 'rotate'}</span>
weighted ${evaluation.total_score.toFixed(2)}\u00a0/\u00a05${evaluation.inconsistent ? html` <span class="warning">⚠ ${voteContradictionText(evaluation)}</span>` : ''} · ${Object.entries(
        evaluation.position_y_performance,
      )
        .map(([criterion, score]) => `${criterion.replace(/_/g, ' ')} ${score}`)
        .join(', ')}
${evaluation.comments ? html`<p class="comment">${evaluation.comments}</p>` : ''}`
    : html`<span class="vote-abstain">abstained</span> ${event.abstainReason ?? ''}`
}
</div>`;
    }
    case 'round-end': {
      const { tally } = event;
      return html`<section class="event round-end" id="${id}" data-seq="${event.seq}">
<h3>Round ${event.round}: ${event.outcome.replace(/-/g, ' ')}</h3>
<p>${tally.rotateVotes} rotate · ${tally.continueVotes} continue · ${tally.abstentions} abstained${tally.meanScore === null ? '' : ` · mean weighted score ${tally.meanScore.toFixed(2)}\u00a0/\u00a05`} · decided by ${tally.decidedBy}</p>
${event.rotation ? html`<p class="rotation">${event.rotation.from} is knocked out; ${event.rotation.to} steps in.</p>` : ''}
${event.transition.summary ? html`<p class="notes">${event.transition.summary}</p>` : ''}
</section>`;
    }
    case 'summary':
      return html`<details class="event summary" id="${id}" data-seq="${event.seq}"><summary>Summary of rounds ${event.fromRound ?? 1}–${event.throughRound} (${event.model})</summary>${paragraphs(event.text)}</details>`;
    case 'commentary':
      return html`<section class="event commentary" id="${id}" data-seq="${event.seq}"><h3>Commentary after round ${event.round} <code>${event.model}</code></h3>${event.text === '' ? html`<p class="muted">no commentary (${event.failed ?? 'no answer'})</p>` : paragraphs(event.text)}</section>`;
    case 'claims':
      return html`<details class="event claims" id="${id}" data-seq="${event.seq}"><summary>Claims of ${event.agent} in round ${event.round} (${event.claims.length}${event.source === 'failed' ? ', extraction failed' : ''})</summary><ul>${event.claims.map(
        (claim) =>
          html`<li>${claim.kind === 'restated' ? '(restated) ' : ''}${claim.claim}${claim.answers ? html` <em>answers ${claim.answers}</em>` : ''}</li>`,
      )}</ul></details>`;
    case 'assessment':
      return html`<section class="event assessment" id="${id}" data-seq="${event.seq}">
<h3>${PHASE_TITLES[event.phase] ?? event.phase}${event.round > 0 && event.phase !== 'verdict' && event.phase !== 'decision' ? ` · round ${event.round}` : ''}: ${event.judge} <code>${event.model}</code></h3>
${assessmentBody(event, scenario)}
</section>`;
    case 'artifact':
      return html`<details class="event artifact" id="${id}" data-seq="${event.seq}"><summary>${event.name.replace(/-/g, ' ')}${event.files.length > 0 ? ` · ${event.files.join(', ')}` : ''}</summary>${definitions(event.data)}</details>`;
    case 'step-failed':
      return html`<p class="event step-failed" id="${id}" data-seq="${event.seq}">The ${event.step} after round ${event.round} failed: ${event.reason}</p>`;
    case 'run-end':
      return html`<section class="event run-end status-${event.status}" id="${id}" data-seq="${event.seq}">
<h3>Debate ${event.status}</h3><p>${stopReasonText(event.stopReason)}</p>${event.error ? html`<p class="error">${event.error}</p>` : ''}
</section>`;
  }
}
