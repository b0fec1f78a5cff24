/**
 * A throwaway Postgres cluster for the database tests: initdb + pg_ctl in a temp folder, on a free
 * loopback port, removed afterwards. As root (Postgres refuses to run as root) the cluster belongs
 * to and runs as `nobody`. Debian's `postgresql` package puts the programs in
 * /usr/lib/postgresql/<version>/bin; PG_BIN overrides. In CI a missing Postgres is a failure, not
 * a skip, as a missing Chromium is for the browser tests.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closedPort } from './cli.js';

const run = promisify(execFile);

function findBin(): string | undefined {
  const candidates = [process.env.PG_BIN];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(root, version, 'bin')));
  }
  return candidates.find(
    (dir): dir is string => typeof dir === 'string' && existsSync(path.join(dir, 'initdb')),
  );
}

export const postgresBin = findBin();
export const mustRunDatabaseTests = Boolean(process.env.CI);

export interface ThrowawayPostgres {
  url: string;
  port: number;
  /** Stops the server (fast: every session is ended), waits `downMs`, and starts it again. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const NOBODY = { uid: 65534, gid: 65534 };

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBin;
  if (!bin) throw new Error('Postgres is not installed: `apt-get install postgresql` (or set PG_BIN)');
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-pg-'));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? NOBODY : {};
  if (asRoot) {
    chownSync(dir, NOBODY.uid, NOBODY.gid);
    chmodSync(dir, 0o700);
  }
  const data = path.join(dir, 'data');
  const port = await closedPort();
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  await run(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'agora', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { env, cwd: dir, ...user },
  );
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const serve = () =>
    run(
      path.join(bin, 'pg_ctl'),
      ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start'],
      { env, cwd: dir, ...user },
    );
  await serve();
  return {
    url: `postgres://agora@127.0.0.1:${port}/postgres`,
    port,
    async restart(downMs = 0) {
      await run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'], {
        env,
        cwd: dir,
        ...user,
      });
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await serve();
    },
    async stop() {
      await run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], {
        env,
        cwd: dir,
        ...user,
      }).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
