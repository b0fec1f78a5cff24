/**
 * The blind arena's markup: the run page with names hidden and the vote at the end of the debate,
 * what is revealed once this browser has voted, the panel on an ordinary run page, and the list of
 * debates to vote on. The vote is an HTML form: it works without JavaScript.
 */
import { argumentMap } from '../analytics/argument-map.js';
import { TIE } from '../analytics/debate-sides.js';
import type { RunListing } from '../manager/run-listing.js';
import { type ArenaState, choiceLabel } from './arena-state.js';
import { argumentMapHtml } from './argument-map-html.js';
import { argumentScoresHtml } from './argument-scores-html.js';
import { eventHtml } from './event-html.js';
import { html, type SafeHtml } from './html.js';
import { headerHtml } from './run-view.js';
import type { RunView } from './viewed-run.js';

/** The events a blind reader sees: the debate itself, none of the judges' verdicts, votes, summaries or commentary. */
const DEBATE_EVENTS = new Set(['run-start', 'turn-end', 'statement', 'run-end']);

const votesText = (count: number) => `${count} vote${count === 1 ? '' : 's'}`;

function countLine(state: ArenaState): SafeHtml {
  return html`<p class="arena-count" data-votes="${state.votes.length}">${votesText(state.votes.length)} cast on this debate so far.</p>`;
}

/** The question, as a form with one button per answer; or why it cannot be answered yet. */
export function arenaQuestionHtml(state: ArenaState, csrf: string): SafeHtml {
  if (!state.open) {
    return html`<h2>Your vote</h2><p>This debate has not run to its end, so the arena is not open for it: a vote is on a whole debate.</p>${countLine(state)}`;
  }
  if (state.seen) {
    return html`<h2>Your vote</h2><p class="arena-not-blind">This browser opened this debate's page with the names (or its export or data) before voting, so a vote from it would not be blind: the arena takes none on this debate. <a href="/arena/next">A debate this browser has not seen</a>.</p>${countLine(state)}`;
  }
  return html`<h2>Your vote</h2>
<p>Which side had the better of this debate? Judge the arguments, not who you think the speakers are.</p>
<form method="post" action="/runs/${encodeURIComponent(state.runId)}/arena-votes" class="arena-form">
<input type="hidden" name="token" value="${csrf}">
${state.choices.map((choice) => html`<button type="submit" name="choice" value="${choice.key}" data-arena-vote="${choice.key}">${choice.label}</button> `)}
</form>
${countLine(state)}
<p class="notes">One vote per debate from this browser. The names and models appear once you have voted, with the other votes and the judges' verdicts.</p>`;
}

/** What the vote reveals: the sides' debaters and models, the people's votes, the judges' verdicts. */
export function arenaRevealHtml(state: ArenaState): SafeHtml {
  const tally = state.choices.map(
    (choice) =>
      `${choice.key === TIE ? 'a tie' : choice.label} ${state.votes.filter((vote) => vote.choice === choice.key).length}`,
  );
  return html`${state.mine ? html`<p class="arena-mine">You voted: <strong>${choiceLabel(state, state.mine.choice)}</strong>. <a href="/arena/next">Next debate</a></p>` : ''}
<p>Who spoke for each side:</p>
<ul class="arena-sides">${state.sides.map(
    (side) =>
      html`<li data-side="${side.key}"><strong>${side.label}</strong>: ${side.speakers.map((speaker, at) => html`${at > 0 ? ', ' : ''}${speaker.name} <code>${speaker.model}</code>`)}</li>`,
  )}</ul>
<p class="arena-tally">The people's votes: ${tally.join(' · ')}.</p>
${
  state.verdicts.length === 0
    ? html`<p class="muted">No judge gave a verdict on this debate.</p>`
    : html`<p>The judges' verdicts on the whole debate:</p><ul class="arena-verdicts">${state.verdicts.map(
        (verdict) =>
          html`<li>${verdict.judge} <code>${verdict.model}</code>: ${choiceLabel(state, verdict.verdict)}</li>`,
      )}</ul>`
}`;
}

/** The arena's panel on an ordinary run page. */
export function arenaPanelHtml(state: ArenaState | null): SafeHtml {
  if (!state) return html``;
  const body = state.mine
    ? arenaRevealHtml(state)
    : html`${countLine(state)}${
        state.seen
          ? html`<p class="notes arena-not-blind">This browser has seen this debate's names, so the arena takes no blind vote from it here. <a href="/arena/next">Vote on a debate it has not seen</a>.</p>`
          : state.open
            ? html`<p><a class="button" href="/runs/${encodeURIComponent(state.runId)}?blind=1">Vote blind</a></p><p class="notes">Opens this debate with the debaters' names and models hidden until you have voted (to vote blind, open it there first). The other votes show after yours.</p>`
            : html`<p class="notes">The arena opens once the debate has run to its end.</p>`
      }`;
  return html`<section class="panel" id="arena"><h2>Blind arena</h2>${body}</section>`;
}

/** The run page with every name and model hidden (`view` is already blind), and the vote after the debate. */
export function blindRunPage(view: RunView, state: ArenaState, csrf: string): SafeHtml {
  const map = argumentMap(view.events);
  const debate = view.events.filter((event) => DEBATE_EVENTS.has(event.type));
  return html`<div id="run" data-run-id="${view.runId}" data-blind="1">
<div class="layout"><div>
<header id="run-header">${headerHtml(view)}</header>
<div class="notice arena-notice" id="arena-notice"><p><strong>Blind arena.</strong> The debaters' names and models are hidden, and so are the judges' verdicts, until you have voted. Read the debate, then vote at the end.</p></div>
<section class="panel map-panel"><h2>Argument map</h2><div id="argument-map">${argumentMapHtml(map, view.events)}</div></section>
<div id="transcript">${debate.map((event) => eventHtml(event, view.scenario))}</div>
<section class="panel arena" id="arena-vote">${arenaQuestionHtml(state, csrf)}</section>
</div>
<aside><section class="panel"><h2>Argument scores</h2><div id="argument-scores">${argumentScoresHtml(map, view.events, { judges: false })}</div></section>
<section class="panel"><h2>Vote</h2>${countLine(state)}<p><a href="#arena-vote">To the vote</a></p></section></aside>
</div></div>`;
}

export interface ArenaListing {
  run: RunListing;
  votes: number;
  voted: boolean;
  /** This browser saw the debate's names before voting on it: no blind vote from it. */
  seen: boolean;
}

/** The debates to vote on, in this browser's own random order: topic, format and votes, never the models. */
export function arenaListPage(listings: ArenaListing[], options: { exhausted?: boolean } = {}): SafeHtml {
  const left = listings.filter((listing) => !listing.voted && !listing.seen).length;
  return html`<h1>Arena</h1>
<p>Read a finished debate with the debaters' names and models hidden, say which side had the better of it, and see who they were. The people's votes rank the models on the <a href="/leaderboard">leaderboard</a>, apart from the judges' ranking, and measure how often each judge model agrees with people.</p>
${options.exhausted ? html`<p class="notice" id="arena-exhausted">No debate is left that this browser has neither voted on nor seen with its names.</p>` : ''}
${left > 0 ? html`<p><a class="button" id="arena-next" href="/arena/next">Next debate</a> <span class="muted">${left} left that this browser has not seen, in a random order of its own.</span></p>` : ''}
<p class="notes">A vote is blind only from a browser that has not seen the debate's names: once this browser has opened a debate's ordinary page, its export or its data, the arena takes no vote from it on that debate. The arena counts browsers, not people.</p>
<table class="stack" id="arena-runs"><thead><tr><th>Debate</th><th>Format</th><th>Votes</th><th>Your vote</th></tr></thead><tbody>
${listings.length === 0 ? html`<tr><td colspan="4" class="muted">No finished debate with two sides yet.</td></tr>` : ''}
${listings.map(
  (listing) =>
    html`<tr><td data-label="Debate"><a class="run-topic" href="/runs/${encodeURIComponent(listing.run.runId)}?blind=1">${listing.run.topic || listing.run.runId}</a></td><td data-label="Format">${listing.run.format}${listing.run.simulated ? html` <span class="demo">(demo)</span>` : ''}</td><td data-label="Votes">${listing.votes}</td><td data-label="Your vote">${listing.voted ? 'cast' : listing.seen ? 'names seen: not blind' : '–'}</td></tr>`,
)}
</tbody></table>`;
}
