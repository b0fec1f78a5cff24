/** A port already taken is a usage problem with a fix (another --port), not an unexpected error. */
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';

const taken: Server[] = [];
afterEach(async () => {
  await Promise.all(taken.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function takePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  taken.push(server);
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

describe('a port in use', () => {
  it('serve and mock-ollama name the port and --port, with exit 2', async () => {
    const port = await takePort();
    const [serve, mockOllama] = await Promise.all([
      runAgora(['serve', '--port', String(port), '--out', path.join(tempDir(), 'runs')]),
      runAgora(['mock-ollama', '--port', String(port)]),
    ]);
    for (const [name, result] of [
      ['serve', serve],
      ['mock-ollama', mockOllama],
    ] as const) {
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toBe(
        `agora ${name}: port ${port} on 127.0.0.1 is already in use by another program; choose another with --port N, or --port 0 for any free port\n`,
      );
    }
  }, 900_000);
});
