/**
 * The blind arena's routes: the list of debates to vote on, a run's page with the names hidden
 * (`/runs/:runId?blind=1`, served from `page-routes.ts`), and the vote, as an HTML form and as JSON.
 * A vote passes the viewer's guards like every state change (Host, access token, size, page token,
 * origin); it is taken only on a debate that has run to its end, from a browser that carries the
 * arena's voter cookie, once per debate: a second vote is refused, whatever it says.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { TWO_SIDED_FORMATS } from '../analytics/run-logs.js';
import { isSimulated } from '../core/events.js';
import { formatNamed } from '../formats/index.js';
import { castArenaVote, noteNamesSeen, readArenaVotes, readNamesSeen } from '../store/arena-votes.js';
import { type ArenaListing, arenaListPage, arenaPanelHtml, blindRunPage } from './arena-html.js';
import { arenaState, bothSidesSpoke, choiceLabel, VOTER_COOKIE, voterOf } from './arena-state.js';
import { blindRunView } from './blind-view.js';
import { page, runPage, SIMULATED_RUN_BANNER } from './pages.js';
import { HttpError, type ViewerEnv } from './request-guards.js';
import { readStartRecord } from './start-record.js';
import type { ViewerParts } from './viewer-options.js';

const YEAR_SECONDS = 365 * 24 * 3600;

/** This browser's voter id, given to it now when it has none. */
export function ensureVoter(c: Context<ViewerEnv>): string {
  const known = voterOf(c);
  if (known) return known;
  const voter = randomBytes(18).toString('base64url');
  c.header(
    'set-cookie',
    `${VOTER_COOKIE}=${voter}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${YEAR_SECONDS}`,
    {
      append: true,
    },
  );
  return voter;
}

function pageOptionsFor(parts: ViewerParts, simulated: boolean) {
  return simulated ? { ...parts.pageOptions, banner: SIMULATED_RUN_BANNER } : parts.pageOptions;
}

/**
 * Notes (and returns the voter id of) this browser being shown the debate's names (its run page, export or data), so that
 * a vote it casts afterwards is refused as not blind. A page or an export gives a browser without a
 * voter id one (it will keep it); the data (API) notes only a browser that has one already. Only a
 * debate with two sides has an arena; a browser that voted already is not noted.
 */
export function noteNamesShown(
  c: Context<ViewerEnv>,
  parts: ViewerParts,
  runId: string,
  via: 'page' | 'export' | 'data',
): string | undefined {
  const format = parts.runs.view(runId).scenario?.format;
  if (!format || !(TWO_SIDED_FORMATS as readonly string[]).includes(format)) return voterOf(c);
  const voter = via === 'data' ? voterOf(c) : ensureVoter(c);
  if (!voter) return voter;
  try {
    noteNamesSeen(parts.runs.runDir(runId), voter, via);
  } catch (error) {
    // The page is still shown; the vote, written to the same folder, would fail the same way.
    parts.options.logger.warn({ runId, err: error }, 'could not note that names were shown');
  }
  return voter;
}

/**
 * A run's page in the arena: blind until this browser has voted on it, then the ordinary page with
 * what the vote revealed. A run whose format has no two sides is shown as it is.
 */
export function blindRunResponse(c: Context<ViewerEnv>, parts: ViewerParts, runId: string): Response {
  const runDir = parts.runs.runDir(runId);
  const view = parts.runs.view(runId);
  const voter = ensureVoter(c);
  const state = arenaState(view, runDir, voter);
  const record = readStartRecord(parts.runs.outDir, runId);
  const options = pageOptionsFor(
    parts,
    isSimulated(view.events) || record?.args.includes('--simulated') === true,
  );
  if (state && !state.mine) {
    const blind = blindRunView(view, formatNamed);
    return c.html(
      page(blind.progress?.topic ?? runId, blindRunPage(blind, state, parts.pageOptions.csrf), options),
    );
  }
  // Just voted (or voted before): what the vote revealed comes first.
  const arena = { panel: arenaPanelHtml(state), top: state?.mine !== undefined };
  return c.html(page(view.progress?.topic ?? runId, runPage(view, record, arena), options));
}

/** Takes a vote: the run, its state, this browser's id and the choice are checked first. */
function vote(parts: ViewerParts, c: Context<ViewerEnv>, runId: string) {
  const runDir = parts.runs.runDir(runId);
  const voter = voterOf(c);
  if (!voter) {
    throw new HttpError(
      400,
      "this browser has no voter id: open the debate's arena page first (/runs/RUN?blind=1), which gives it one",
    );
  }
  const state = arenaState(parts.runs.view(runId), runDir, voter);
  if (!state) throw new HttpError(409, 'this format has no two sides to vote between');
  if (!state.open)
    throw new HttpError(409, 'this debate has not run to its end: the arena takes votes on whole debates');
  const { choice } = c.get('fields');
  if (typeof choice !== 'string' || !state.choices.some((candidate) => candidate.key === choice)) {
    throw new HttpError(
      400,
      `choice must be one of ${state.choices.map((candidate) => candidate.key).join(', ')}`,
    );
  }
  if (!state.mine && readNamesSeen(runDir).has(voter)) {
    throw new HttpError(
      409,
      "this browser opened this debate's page with the names (or its export or data) before voting, so its vote would not be blind and is not taken; the arena offers it the debates it has not seen (/arena/next)",
    );
  }
  const cast = castArenaVote(runDir, { choice, voter });
  return { ...cast, state: { ...state, votes: readArenaVotes(runDir), mine: cast.vote } };
}

/**
 * The finished two-sided debates, in an order of this browser's own: sorted by a hash of its voter
 * id and the run id, so the order is random, differs between browsers, and stays put between visits.
 */
async function arenaListings(parts: ViewerParts, voter: string): Promise<ArenaListing[]> {
  const { runs } = await parts.runs.filtered(new URLSearchParams());
  const formats: readonly string[] = TWO_SIDED_FORMATS;
  const place = (runId: string) => createHash('sha256').update(`${voter}\u0000${runId}`).digest('hex');
  return runs
    .filter(
      (run) =>
        formats.includes(run.format) &&
        (run.status === 'completed' ||
          // A degraded debate is offered only when both sides said something of their own.
          (run.status === 'degraded' && bothSidesSpoke(parts.runs.view(run.runId).events))),
    )
    .map((run) => {
      const runDir = parts.runs.runDir(run.runId);
      const votes = readArenaVotes(runDir);
      const voted = votes.some((cast) => cast.voter === voter);
      return {
        run,
        votes: votes.length,
        voted,
        seen: !voted && readNamesSeen(runDir).has(voter),
        place: place(run.runId),
      };
    })
    .sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0))
    .map(({ place: _place, ...listing }) => listing);
}

export function arenaRoutes(parts: ViewerParts) {
  return new Hono<ViewerEnv>()
    .get('/arena', async (c) => {
      const voter = ensureVoter(c);
      return c.html(page('Arena', arenaListPage(await arenaListings(parts, voter)), parts.pageOptions));
    })
    .get('/arena/next', async (c) => {
      // The next debate this browser has neither voted on nor seen with its names, in its own random order.
      const voter = ensureVoter(c);
      const listings = await arenaListings(parts, voter);
      const next = listings.find((listing) => !listing.voted && !listing.seen);
      if (next) return c.redirect(`/runs/${encodeURIComponent(next.run.runId)}?blind=1`, 303);
      return c.html(page('Arena', arenaListPage(listings, { exhausted: true }), parts.pageOptions));
    })
    .post('/runs/:runId/arena-votes', (c) => {
      // The form: on success or after an earlier vote alike, back to the page, which now reveals the names.
      const runId = c.req.param('runId');
      vote(parts, c, runId);
      return c.redirect(`/runs/${encodeURIComponent(runId)}?blind=1`, 303);
    })
    .post('/api/runs/:runId/arena-votes', (c) => {
      const cast = vote(parts, c, c.req.param('runId'));
      const revealed = {
        vote: cast.vote,
        votes: cast.state.votes.length,
        sides: cast.state.sides,
        verdicts: cast.state.verdicts,
      };
      if (!cast.recorded) {
        return c.json(
          {
            error: `this browser has voted on this debate already (${choiceLabel(cast.state, cast.vote.choice)}); one vote per debate`,
            ...revealed,
          },
          409,
        );
      }
      return c.json(
        { message: `Your vote (${choiceLabel(cast.state, cast.vote.choice)}) is recorded.`, ...revealed },
        201,
      );
    });
}
