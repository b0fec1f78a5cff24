/** The viewer's JSON API under /api: runs, one run and its live stream, models, the leaderboard; start, stop, resume, vote. */

import { Hono } from 'hono';
import { AgoraError } from '../core/errors.js';
import { lockOwner } from '../store/run-lock.js';
import { appendSpectatorVote } from '../store/spectator-votes.js';
import { requestStop } from '../store/stop-request.js';
import { noteNamesShown } from './arena-routes.js';
import { modelNames, resumeDebate, startDebate } from './debate-launch.js';
import { giveSeat } from './podium-seat.js';
import { HttpError, type ViewerEnv } from './request-guards.js';
import { type OpenStreams, streamRun } from './run-stream.js';
import { currentRound, spectatorChoices } from './run-view.js';
import { SharedFeeds } from './shared-feeds.js';
import type { ViewerParts } from './viewer-options.js';
import { leaderboardOptions, leaderboardTables } from './viewer-runs.js';

export function apiRoutes(parts: ViewerParts, open: OpenStreams) {
  const { runs, options } = parts;
  const query = (url: string) => new URL(url).searchParams;
  // Every page following a run shares its feed: one poll of its files per interval, however many.
  const feeds = new SharedFeeds(
    (runId) => runs.feed(runId),
    options.pollMs ?? 200,
    options.logger,
    (runId) => runs.resuming(runId),
  );
  return new Hono<ViewerEnv>()
    .get('/runs', async (c) => c.json((await runs.filtered(query(c.req.url))).runs))
    .get('/runs/:runId', (c) => {
      const runId = c.req.param('runId');
      runs.runDir(runId);
      noteNamesShown(c, parts, runId, 'data');
      const view = runs.view(runId);
      return c.json({
        runId: view.runId,
        progress: view.progress,
        live: view.live,
        events: view.events,
        spectators: view.spectators,
      });
    })
    .get('/runs/:runId/stream', (c) => {
      const runId = c.req.param('runId');
      runs.runDir(runId);
      noteNamesShown(c, parts, runId, 'data');
      return streamRun(c, runId, {
        feeds,
        open,
        logger: options.logger,
        ...(options.streamsPerClient === undefined ? {} : { streamsPerClient: options.streamsPerClient }),
      });
    })
    .get('/models', async (c) => c.json(await modelNames(parts)))
    .get('/leaderboard', (c) => {
      const chosen = leaderboardOptions(query(c.req.url));
      return c.json(runs.withIndex((index) => leaderboardTables(index, runs.outDir, chosen)));
    })
    .post('/runs', async (c) => {
      try {
        const started = await startDebate(parts, c.get('fields'));
        if (started.seatToken) giveSeat(c, started.runId, started.seatToken);
        return c.json({ ...started, url: `/runs/${encodeURIComponent(started.runId)}` }, 202);
      } catch (error) {
        if (error instanceof AgoraError) throw new HttpError(400, error.message);
        throw error;
      }
    })
    .post('/runs/:runId/stop', (c) => {
      const runId = c.req.param('runId');
      const runDir = runs.runDir(runId);
      const owner = lockOwner(runDir);
      if (owner === null) throw new HttpError(409, 'no process is running this debate; nothing to stop');
      // A log that ends with the run's end is a finished run, though its process may still hold the lock.
      if (!runs.view(runId).live) throw new HttpError(409, 'this debate has ended; nothing to stop');
      requestStop(runDir);
      options.logger.info({ runId, owner }, 'stop requested');
      return c.json({ message: 'Stopping after the step in flight…' }, 202);
    })
    .post('/runs/:runId/resume', async (c) => {
      const runId = c.req.param('runId');
      const { seatToken, ...resumed } = await resumeDebate(parts, runId);
      if (seatToken) giveSeat(c, runId, seatToken);
      return c.json(resumed, 202);
    })
    .post('/runs/:runId/votes', (c) => {
      const runId = c.req.param('runId');
      const runDir = runs.runDir(runId);
      const view = runs.view(runId);
      const choices = spectatorChoices(view.scenario).map((choice) => choice.key);
      if (choices.length === 0) throw new HttpError(409, 'this format has no rounds to vote on');
      const { round, choice, voter } = c.get('fields');
      const last = currentRound(view);
      if (typeof round !== 'number' || !Number.isInteger(round) || round < 1 || round > last) {
        throw new HttpError(400, `round must be a round of this debate so far (1 to ${last})`);
      }
      if (typeof choice !== 'string' || !choices.includes(choice)) {
        throw new HttpError(400, `choice must be one of ${choices.join(', ')}`);
      }
      if (typeof voter !== 'string' || !/^[A-Za-z0-9-]{8,64}$/.test(voter)) {
        throw new HttpError(
          400,
          'voter must be the id the page keeps for you (8 to 64 letters, digits or dashes)',
        );
      }
      const vote = appendSpectatorVote(runDir, { round, choice, voter });
      return c.json(
        {
          message: `Your vote on round ${round} (${vote.choice}) is recorded. A later vote on the same round replaces it.`,
          vote,
        },
        201,
      );
    });
}
