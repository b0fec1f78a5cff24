/** The live feed sends the argument map on its own, when a statement or its claims come in, not with every view. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/core/events.js';
import { tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { readEvents } from '../helpers/transcripts.js';
import { pageToken, readStream, runEnded, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();

describe('agora serve: the argument map, live', () => {
  it('streams the map and the argument scores as the claims come in, ending with every claim of the log', async () => {
    // Paced, the debate takes seconds after its worker starts, so the stream opened just after the
    // start is there while the claims come in, on a busy machine too (instant answers end it in
    // about a second). The debate must then end by itself, so no call can be held: a margin it is.
    const server = await mock({ speed: 0.05 });
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const runId = await startRun(web, await pageToken(web), {
      format: 'knockout',
      topic: 'Mapped live',
      rounds: 2,
    });
    const live = await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    // Followed live, the map came again and again as the debate went on.
    const liveMaps = live
      .filter((message) => message.event === 'map')
      .map((message) => String(message.data.map));
    expect(new Set(liveMaps).size).toBeGreaterThan(1);
    // Read again from the start, and a little past the end, for the last map.
    const messages = await readStream(
      web,
      runId,
      (seen) => seen.filter((message) => message.event === 'map').length >= 1 && runEnded(seen),
    );
    const maps = messages.filter((message) => message.event === 'map');
    const views = messages.filter((message) => message.event === 'view');
    expect(views.every((message) => !('map' in message.data))).toBe(true);
    const last = String(maps.at(-1)?.data.map);
    const log = readEvents(path.join(outDir, runId)) as unknown as RunEvent[];
    const claimed = log.flatMap((event) =>
      event.type === 'claims'
        ? event.claims.map((_claim, at) => `${event.position}${event.round}.${at + 1}`)
        : [],
    );
    expect(claimed.length).toBeGreaterThan(0);
    for (const id of claimed) expect(last).toContain(`data-claim="${id}"`);
    expect(String(maps.at(-1)?.data.argumentScores)).toContain('<table class="argument-scores stack">');
  }, 900_000);
});
