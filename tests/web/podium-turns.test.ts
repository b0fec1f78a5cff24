/**
 * The person's turn in the viewer over real HTTP, with the debate in a real worker process: a turn
 * takes exactly one statement however close together two arrive, and Stop pauses a debate that
 * waits for the person at once, resumable from the same page.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { readEvents } from '../helpers/transcripts.js';
import { pageToken, postJson, useViewers } from '../helpers/viewer.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const viewer = useViewers();
type Viewer = Awaited<ReturnType<typeof viewer>>;

/** Generous waits: worker processes start slowly on a busy machine. */
const WAIT = { timeout: 600_000, interval: 100 };

/** Starts a knockout with the person in Position X; returns its id and the seat's cookie. */
async function startSeated(web: Viewer, token: string, rounds: number) {
  const response = await postJson(
    web,
    '/api/runs',
    { format: 'knockout', topic: 'Should cities ban private cars?', rounds, human: 'x' },
    token,
  );
  expect(response.status).toBe(202);
  const { runId } = (await response.json()) as { runId: string };
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  expect(cookie).toMatch(/^agora_seat_/);
  return { runId, cookie };
}

/** What the podium endpoint says to the seat's browser. */
async function podium(web: Viewer, runId: string, cookie: string) {
  const response = await fetch(`${web.url}/api/runs/${encodeURIComponent(runId)}/podium`, {
    headers: { cookie },
  });
  return (await response.json()) as { waiting: boolean; status: string | null; turn?: { id: string } };
}

/** The turn the debate waits for, once it waits (read from the viewer, as the page reads it). */
async function waitingTurn(web: Viewer, runId: string, cookie: string, not?: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      id = (await podium(web, runId, cookie)).turn?.id;
      return id !== undefined && id !== not;
    }, WAIT)
    .toBe(true);
  return id as string;
}

function speak(web: Viewer, token: string, runId: string, cookie: string, turn: string, text: string) {
  return fetch(`${web.url}/api/runs/${encodeURIComponent(runId)}/podium`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-agora-token': token, cookie },
    body: JSON.stringify({ turn, text }),
  });
}

const personTurns = (runDir: string) =>
  readEvents(runDir)
    .filter((event) => event.type === 'turn-end' && event.model === 'person')
    .map((event) => String(event.text));

describe('the person’s turn in the viewer', () => {
  it('takes exactly one of two statements sent together for a turn: the one answered 202', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const rounds = 3;
    const { runId, cookie } = await startSeated(web, token, rounds);
    const runDir = path.join(outDir, runId);
    const accepted: string[] = [];
    let previous: string | undefined;
    for (let round = 1; round <= rounds; round += 1) {
      const turn = await waitingTurn(web, runId, cookie, previous);
      previous = turn;
      const texts = [`First tab, round ${round}: cars out.`, `Second tab, round ${round}: cars out now.`];
      const answers = await Promise.all(texts.map((text) => speak(web, token, runId, cookie, turn, text)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([202, 409]);
      const refused = answers.find((answer) => answer.status === 409);
      // Refused because the turn has its statement, or because the run took it already.
      expect(await refused?.text()).toMatch(/this turn has its statement already|not waiting for the person/);
      accepted.push(texts[answers.findIndex((answer) => answer.status === 202)] as string);
      // The statement recorded for the turn is the one that was answered 202.
      await expect.poll(() => personTurns(runDir).length, WAIT).toBe(round);
      expect(personTurns(runDir)).toEqual(accepted);
    }
    await expect.poll(() => readEvents(runDir).at(-1)?.type, WAIT).toBe('run-end');
    expect(readEvents(runDir).at(-1)).toMatchObject({ status: 'completed' });
    // The page is told the debate has ended, not that it is "not your turn yet".
    await expect.poll(async () => (await podium(web, runId, cookie)).status, WAIT).toBe('completed');
  });

  it('pauses at once when Stop is pressed while the debate waits for the person, and Resume asks again', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const { runId, cookie } = await startSeated(web, token, 1);
    const runDir = path.join(outDir, runId);
    const first = await waitingTurn(web, runId, cookie);
    const stop = await postJson(web, `/api/runs/${runId}/stop`, {}, token);
    expect(stop.status).toBe(202);
    // The worker stops waiting: the log says where the run paused, and no process holds it.
    await expect.poll(() => readEvents(runDir).at(-1)?.type, WAIT).toBe('run-end');
    expect(readEvents(runDir).at(-1)).toMatchObject({ status: 'stopped', stopReason: 'awaiting-person' });
    await expect
      .poll(
        async () => ((await (await fetch(`${web.url}/api/runs/${runId}`)).json()) as { live: boolean }).live,
        WAIT,
      )
      .toBe(false);
    expect(await podium(web, runId, cookie)).toMatchObject({ waiting: false, status: 'stopped' });
    expect((await speak(web, token, runId, cookie, first, 'Too late.')).status).toBe(409);
    // Resume goes on from the person's turn: a new turn, and the statement sent for it is taken.
    const resume = await postJson(web, `/api/runs/${runId}/resume`, {}, token);
    expect(resume.status).toBe(202);
    const again = await waitingTurn(web, runId, cookie, first);
    const text = 'Cars out of the centre: fewer injuries, cleaner air.';
    expect((await speak(web, token, runId, cookie, again, text)).status).toBe(202);
    await expect
      .poll(() => readEvents(runDir).filter((event) => event.type === 'run-end').length, WAIT)
      .toBe(2);
    expect(personTurns(runDir)).toEqual([text]);
    expect(readEvents(runDir).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
  });
});
