/** The viewer's pages: the runs, one run, its export, the new-debate form, the leaderboard and the assets. */

import { Hono } from 'hono';
import { computeStandings } from '../analytics/tournament-standings.js';
import { FORMAT_NAMES } from '../config/scenario-schema.js';
import { AgoraError } from '../core/errors.js';
import { isSimulated } from '../core/events.js';
import { arenaPanelHtml } from './arena-html.js';
import { blindRunResponse, noteNamesShown } from './arena-routes.js';
import { arenaState } from './arena-state.js';
import { newRunForm, startDebate } from './debate-launch.js';
import {
  exportDocument,
  leaderboardPage,
  messagePage,
  page,
  runPage,
  runsPage,
  runsRowsHtml,
  SIMULATED_RUN_BANNER,
} from './pages.js';
import { giveSeat } from './podium-seat.js';
import type { ViewerEnv } from './request-guards.js';
import { readStartRecord } from './start-record.js';
import { tournamentPage } from './tournament-html.js';
import { readTournamentView } from './tournament-view.js';
import type { ViewerParts } from './viewer-options.js';
import { leaderboardOptions, leaderboardTables, listBatches } from './viewer-runs.js';

const ASSET_TYPES = {
  'app.js': 'text/javascript; charset=utf-8',
  'podium.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
} as const;

export function pageRoutes(parts: ViewerParts) {
  const { runs, pageOptions, assets } = parts;
  const query = (url: string) => new URL(url).searchParams;
  return new Hono<ViewerEnv>()
    .get('/', async (c) => {
      const { runs: listed, filters } = await runs.filtered(query(c.req.url));
      return c.html(page('Runs', runsPage(listed, filters, [...FORMAT_NAMES]), pageOptions));
    })
    .get('/assets/:file{app\\.js|podium\\.js|style\\.css}', (c) => {
      const file = c.req.param('file') as keyof typeof ASSET_TYPES;
      return c.body(assets[file], 200, { 'content-type': ASSET_TYPES[file] });
    })
    .get('/fragments/runs', async (c) =>
      c.html(runsRowsHtml((await runs.filtered(query(c.req.url))).runs).value),
    )
    .get('/new', async (c) => c.html(await newRunForm(parts, {}, null)))
    .get('/leaderboard', (c) => {
      const options = leaderboardOptions(query(c.req.url));
      const { tables, batches } = runs.withIndex((index) => ({
        tables: leaderboardTables(index, runs.outDir, options),
        batches: listBatches(index),
      }));
      return c.html(
        page(
          'Leaderboard',
          leaderboardPage(tables, options.batchId, options.includeDemo === true, batches),
          pageOptions,
        ),
      );
    })
    .get('/tournament', (c) => {
      const view = readTournamentView(runs.outDir);
      if (!view)
        return c.html(
          page(
            'Tournament',
            messagePage(
              'No tournament here',
              `${runs.outDir} holds no tournament.jsonl: start the viewer on a tournament's folder (agora serve --out DIR).`,
            ),
            pageOptions,
          ),
          404,
        );
      const standings = computeStandings(view.matches, { seed: view.seed });
      return c.html(page('Tournament', tournamentPage(view, standings), pageOptions));
    })
    .get('/runs/:runId', (c) => {
      const runId = c.req.param('runId');
      // The blind arena: the same run with its names hidden until this browser has voted.
      if (c.req.query('blind') === '1') return blindRunResponse(c, parts, runId);
      const runDir = runs.runDir(runId);
      const view = runs.view(runId);
      // A browser that sees the names here cannot vote blind on this debate afterwards.
      const voter = noteNamesShown(c, parts, runId, 'page');
      const record = readStartRecord(runs.outDir, runId);
      const simulated = isSimulated(view.events) || record?.args.includes('--simulated');
      return c.html(
        page(
          view.progress?.topic ?? runId,
          runPage(view, record, { panel: arenaPanelHtml(arenaState(view, runDir, voter)) }),
          simulated ? { ...pageOptions, banner: SIMULATED_RUN_BANNER } : pageOptions,
        ),
      );
    })
    .get('/runs/:runId/export', (c) => {
      const runId = c.req.param('runId');
      runs.runDir(runId);
      noteNamesShown(c, parts, runId, 'export');
      return c.body(exportDocument(runs.view(runId), assets['style.css']), 200, {
        'content-type': 'text/html; charset=utf-8',
        'content-disposition': `attachment; filename="${runId}.html"`,
      });
    })
    .post('/runs', async (c) => {
      // The HTML form: on an error the form comes back with it; on success, the run's page.
      const fields = c.get('fields');
      const values = Object.fromEntries(
        Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      try {
        const started = await startDebate(parts, fields);
        if (started.seatToken) giveSeat(c, started.runId, started.seatToken);
        return c.redirect(`/runs/${encodeURIComponent(started.runId)}`, 303);
      } catch (error) {
        if (!(error instanceof AgoraError)) throw error;
        return c.html(await newRunForm(parts, values, error.message), 400);
      }
    });
}
