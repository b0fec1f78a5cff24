/**
 * The person at the podium in the viewer: `GET /api/runs/<id>/podium` says whether the debate waits
 * for the person and, to the browser that holds the seat, what their task is; `POST` sends their
 * statement for that turn. `GET /runs/<id>/seat?token=...` gives the seat to another browser.
 */
import { Hono } from 'hono';
import { personSeats } from '../config/person-seats.js';
import { readPodiumTurn, writePodiumAnswer } from '../store/podium-files.js';
import { lockOwner } from '../store/run-lock.js';
import { giveSeat, seatTokenMatches, seatTokenOf } from './podium-seat.js';
import { HttpError, type ViewerEnv } from './request-guards.js';
import type { ViewerParts } from './viewer-options.js';

/** Longer than any statement a debate lets a person make; a bigger body is a mistake. */
const MOST_CHARACTERS = 50_000;

export function podiumRoutes(parts: ViewerParts) {
  const { runs } = parts;
  /** The turn the debate waits for: only while its process runs and has asked. */
  const waitingTurn = (runDir: string) => (lockOwner(runDir) === null ? undefined : readPodiumTurn(runDir));
  return new Hono<ViewerEnv>()
    .get('/api/runs/:runId/podium', (c) => {
      const runId = c.req.param('runId');
      const runDir = runs.runDir(runId);
      const view = runs.view(runId);
      const { scenario } = view;
      // A run with its end in the log waits for nobody: the page says so instead of "not your turn".
      const status = view.progress?.status ?? null;
      const seated = scenario ? personSeats(scenario) : [];
      const token = seatTokenOf(c, runId);
      const mayWrite = seatTokenMatches(runs.outDir, runId, token);
      const turn = seated.length > 0 ? waitingTurn(runDir) : undefined;
      return c.json({
        seated,
        waiting: turn !== undefined,
        status,
        mayWrite,
        ...(turn && mayWrite ? { turn } : turn ? { speaker: turn.speaker } : {}),
        ...(mayWrite && token ? { seatLink: `/runs/${encodeURIComponent(runId)}/seat?token=${token}` } : {}),
      });
    })
    .post('/api/runs/:runId/podium', (c) => {
      const runId = c.req.param('runId');
      const runDir = runs.runDir(runId);
      if (!seatTokenMatches(runs.outDir, runId, seatTokenOf(c, runId))) {
        throw new HttpError(
          403,
          "this browser does not hold the person's seat in this debate: only the browser that started it, or one that opened its seat link, may speak for the person",
        );
      }
      const { turn, text } = c.get('fields');
      if (typeof text !== 'string' || text.trim() === '') {
        throw new HttpError(400, 'the statement is empty: write what you want to say, then send it');
      }
      if (text.length > MOST_CHARACTERS) {
        throw new HttpError(400, `the statement is longer than ${MOST_CHARACTERS} characters; shorten it`);
      }
      const waiting = waitingTurn(runDir);
      if (!waiting) throw new HttpError(409, 'the debate is not waiting for the person to speak now');
      if (turn !== waiting.id) {
        throw new HttpError(
          409,
          'that statement was written for an earlier turn; reload the page for this one',
        );
      }
      // Of two statements for one turn, exactly one is taken: the other is refused, not lost unseen.
      if (!writePodiumAnswer(runDir, { id: waiting.id, text: text.trim() })) {
        throw new HttpError(
          409,
          'this turn has its statement already (sent a moment ago, perhaps from another tab); the debate goes on with that one',
        );
      }
      return c.json({ message: 'Sent: the debate goes on with your statement.' }, 202);
    })
    .get('/runs/:runId/seat', (c) => {
      const runId = c.req.param('runId');
      runs.runDir(runId);
      const token = c.req.query('token');
      if (!seatTokenMatches(runs.outDir, runId, token)) {
        throw new HttpError(
          403,
          "that link's seat token is wrong or was replaced; ask for the debate's current link",
        );
      }
      giveSeat(c, runId, token as string);
      return c.redirect(`/runs/${encodeURIComponent(runId)}`, 303);
    });
}
