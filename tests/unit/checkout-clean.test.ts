/**
 * The suite's check that tests leave the checkout clean blames only what the tests made: a run a
 * process of the suite writes in the runs folder is named; files that a process outside the suite
 * writes there meanwhile (a person's own run, an open viewer's SQLite files) are not.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { watchCheckout } from '../helpers/checkout-clean.js';
import { tempDir } from '../helpers/cli.js';

/** Makes `folder`, writes its pid in `folder/run.lock` and keeps `folder/file` open until killed. */
const WRITER = `
const fs = require('node:fs');
const [folder, file] = process.argv.slice(1);
fs.mkdirSync(folder, { recursive: true });
fs.writeFileSync(folder + '/run.lock', process.pid + '\\n');
const fd = fs.openSync(folder + '/' + file, 'w');
fs.writeFileSync(folder + '/ready', String(process.pid));
setInterval(() => fs.fsyncSync(fd), 1000);
`;

const started: number[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** Waits for the writer to say it is ready, up to a minute (the machine may be busy). */
async function ready(folder: string): Promise<number> {
  const marker = path.join(folder, 'ready');
  for (const begun = Date.now(); Date.now() - begun < 60_000; await delay(50)) {
    if (existsSync(marker)) {
      const pid = Number(readFileSync(marker, 'utf8'));
      if (pid > 0) return pid;
    }
  }
  throw new Error(`${folder} never became ready`);
}

describe('the checkout-clean check', () => {
  it("names a run the suite's own process left, and not the files a process outside the suite writes", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'transcripts'));
    const judge = watchCheckout(root);

    // A process of the suite (a child of this one) writes a run.
    const ours = path.join(root, 'transcripts', 'run-from-a-test');
    const child = spawn(process.execPath, ['-e', WRITER, ours, 'events.jsonl'], { stdio: 'ignore' });
    children.push(child);
    await ready(ours);

    // A process outside the suite (its parent gone, so it belongs to no process of the suite)
    // keeps an index's SQLite file open, as an open viewer does.
    const theirs = path.join(root, 'transcripts', 'index.sqlite-wal-folder');
    const shell = spawn(
      'sh',
      [
        '-c',
        `"${process.execPath}" -e "$1" "$2" "$3" >/dev/null 2>&1 &`,
        'sh',
        WRITER,
        theirs,
        'index.sqlite',
      ],
      { stdio: 'ignore', detached: true },
    );
    await new Promise((resolve) => shell.once('close', resolve));
    started.push(await ready(theirs));

    // The watcher looks again 200 ms and 2 s after an entry appears; the verdict also looks at the end.
    expect(() => judge()).toThrow(
      'the tests left transcripts/run-from-a-test in the checkout; a test must give the CLI --out DIR or a temporary working folder',
    );
  });

  it('passes when only processes outside the suite wrote there', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'transcripts'));
    const judge = watchCheckout(root);
    const theirs = path.join(root, 'transcripts', 'a-persons-own-run');
    const shell = spawn(
      'sh',
      [
        '-c',
        `"${process.execPath}" -e "$1" "$2" "$3" >/dev/null 2>&1 &`,
        'sh',
        WRITER,
        theirs,
        'events.jsonl',
      ],
      { stdio: 'ignore', detached: true },
    );
    await new Promise((resolve) => shell.once('close', resolve));
    started.push(await ready(theirs));
    expect(() => judge()).not.toThrow();
  });
});
