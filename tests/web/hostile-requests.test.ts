/**
 * Requests a browser on a hostile page, or anyone on the network, could send the viewer: rebound host
 * names, malformed Host headers and request targets, broken percent-encoding. Each gets a 4xx, and
 * the server keeps answering.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { pageToken, rawRequest, readStream, runEnded, startRun, useViewers } from '../helpers/viewer.js';

const mock = useMockServers();
const viewer = useViewers();

describe('agora serve: hostile requests', () => {
  it('answers only to exact loopback host names, for pages and for votes alike', async () => {
    const server = await mock();
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: server.url });
    const token = await pageToken(web);
    const runId = await startRun(web, token, { format: 'knockout', topic: 'Rebinding', rounds: 1 });
    await readStream(web, runId, runEnded, { timeoutMs: 600_000 });
    const port = web.port;

    // Names that merely start like a loopback address resolve wherever their owner wants.
    for (const host of [
      `127.evil.com:${port}`,
      `127.0.0.1.nip.io:${port}`,
      'localhost.evil.com',
      'evil.example',
    ]) {
      const reply = await rawRequest(port, { target: `/runs/${runId}`, host });
      expect(reply.status, host).toBe(421);
      expect(reply.body).not.toContain(token);
    }
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `127.0.0.2:${port}`,
      `[::1]:${port}`,
      'localhost',
    ]) {
      const reply = await rawRequest(port, { target: `/runs/${runId}`, host });
      expect(reply.status, host).toBe(200);
      expect(reply.body).toContain(token);
    }

    const vote = (host: string, origin: string) =>
      rawRequest(port, {
        method: 'POST',
        target: `/api/runs/${runId}/votes`,
        host,
        headers: { 'content-type': 'application/json', 'x-agora-token': token, origin },
        body: JSON.stringify({ round: 1, choice: 'rotate', voter: 'voter-rebound' }),
      });
    const rebound = `127.evil.com:${port}`;
    expect((await vote(rebound, `http://${rebound}`)).status).toBe(421);
    expect((await vote(`127.0.0.1.nip.io:${port}`, `http://127.0.0.1.nip.io:${port}`)).status).toBe(421);
    // A loopback Host with a foreign origin, or another loopback name as origin, is refused too.
    expect((await vote(`127.0.0.1:${port}`, `http://${rebound}`)).status).toBe(403);
    expect((await vote(`127.0.0.1:${port}`, `http://localhost:${port}`)).status).toBe(403);
    expect((await vote(`127.0.0.1:${port}`, `http://127.0.0.1:${port}`)).status).toBe(201);
  }, 900_000);

  it('on a token-guarded bind, lets the token decide whatever the Host', async () => {
    const outDir = tempDir();
    const web = await viewer({
      outDir,
      ollamaHost: 'http://127.0.0.1:9',
      bind: '0.0.0.0',
      accessToken: 'a-long-enough-secret',
    });
    const bearer = { authorization: 'Bearer a-long-enough-secret' };
    expect(
      (await rawRequest(web.port, { target: '/', host: 'viewer.example.org', headers: bearer })).status,
    ).toBe(200);
    expect((await rawRequest(web.port, { target: '/', host: '127.evil.com' })).status).toBe(401);
    // A cookie with broken percent-encoding is a wrong token, not a server error.
    const broken = await rawRequest(web.port, {
      target: '/',
      host: `127.0.0.1:${web.port}`,
      headers: { cookie: 'agora_access=%E0%A4%A' },
    });
    expect(broken.status).toBe(401);
    // The redirect that takes the token out of the address stays on this site.
    const granted = await rawRequest(web.port, {
      target: '/a/..//evil.example/?access=a-long-enough-secret',
      host: `127.0.0.1:${web.port}`,
    });
    expect(granted.status).toBe(303);
    expect(granted.headers).toMatch(/^location: \/evil\.example\/$/im);
  });

  it('answers a path with broken percent-encoding with a 400 that says so', async () => {
    const outDir = tempDir();
    const web = await viewer({ outDir, ollamaHost: 'http://127.0.0.1:9' });
    const token = await pageToken(web);
    for (const target of [
      '/runs/%E0%A4%A',
      '/runs/%E0%A4%A/export',
      '/api/runs/%E0%A4%A',
      '/api/runs/%E0%A4%A/stream',
      '/assets/%',
    ]) {
      const reply = await fetch(`${web.url}${target}`);
      expect(reply.status, target).toBe(400);
      expect(await reply.json()).toEqual({ error: `the path ${target} is not valid percent-encoding` });
    }
    const page = await fetch(`${web.url}/runs/%E0%A4%A`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('the path /runs/%E0%A4%A is not valid percent-encoding');
    const stop = await fetch(`${web.url}/api/runs/%ZZ/stop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-token': token },
      body: '{}',
    });
    expect(stop.status).toBe(400);
  });

  it.each([
    ['on loopback', [] as string[]],
    ['on a token-guarded bind', ['--bind', '0.0.0.0', '--token', 'a-long-enough-secret']],
  ])('survives malformed Host headers and request targets %s', async (_name, flags) => {
    const cwd = tempDir();
    const { child, result } = startAgora(
      ['serve', '--port', '0', '--out', path.join(cwd, 'runs'), '--host', 'http://127.0.0.1:9', ...flags],
      { cwd, timeoutMs: 600_000 },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    // Until the viewer says where it listens, or the process ends (then the port check below fails).
    while (!/viewer at http:\/\/[^:]+:\d+/.test(stdout) && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const port = Number(/viewer at http:\/\/[^:]+:(\d+)/.exec(stdout)?.[1]);
    expect(port).toBeGreaterThan(0);
    try {
      for (const host of ['a b', '%', '[', 'a:b:c', '[::1', 'localhost:99999', '']) {
        const reply = await rawRequest(port, { target: '/', host });
        expect([400, 421], `Host "${host}"`).toContain(reply.status);
      }
      for (const target of ['//a b/', '//[/', 'http://[/', '/runs/%E0%A4%A']) {
        const reply = await rawRequest(port, { target, host: `127.0.0.1:${port}` });
        expect([400, 401], target).toContain(reply.status);
      }
      // Still serving, and still running.
      const after = await rawRequest(port, {
        target: '/',
        host: `127.0.0.1:${port}`,
        headers: { authorization: 'Bearer a-long-enough-secret' },
      });
      expect(after.status).toBe(200);
      expect(child.exitCode).toBe(null);
    } finally {
      child.kill('SIGTERM');
    }
    expect((await result).code).toBe(0);
  });
});
