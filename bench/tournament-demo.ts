/**
 * The engine's cost for a whole tournament: a 64-debate demo tournament (two debaters and a third
 * model judging, 32 motions, both side orders, duels of 3 rounds, 4 debates at a time) on the
 * built-in simulator at zero delay, run in this process as `agora tournament --demo` runs it.
 * Reports the wall time, and the heap after every 16 finished debates (after a collection, when
 * node runs with --expose-gc) to show whether memory grows per finished debate.
 * `npm run bench:tournament-demo [-- debates-per-side-order]`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../src/cli/main.js';

const motions = Number(process.argv[2] ?? 32);
const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-tournament-'));
const motionsFile = path.join(dir, 'motions.txt');
writeFileSync(
  motionsFile,
  `${Array.from({ length: motions }, (_, at) => `Policy number ${at + 1} does more good than harm`).join('\n')}\n`,
);
const collect = (globalThis as { gc?: () => void }).gc;
const heap: Array<{ debates: number; heapMb: number }> = [];
let finished = 0;
const sink = (onLine: (line: string) => void) =>
  new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) onLine(line);
      done();
    },
  });
const stderr = sink((line) => {
  if (!/^(completed|degraded): /.test(line)) return;
  finished += 1;
  if (finished % 16 === 0) {
    collect?.();
    heap.push({ debates: finished, heapMb: Math.round(process.memoryUsage().heapUsed / 1e5) / 10 });
  }
});
let standings = '';
const stdout = sink((line) => {
  standings += `${line}\n`;
});
const started = performance.now();
try {
  const code = await runCli(
    [
      'tournament',
      '--demo',
      '--models',
      'm1,m2',
      '--judges',
      'm3',
      '--motions',
      motionsFile,
      '--concurrency',
      '4',
      '--out',
      path.join(dir, 'cup'),
    ],
    { stdout, stderr, env: { ...process.env, NO_COLOR: '1' }, cwd: dir },
  );
  const wallSeconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify(
      {
        debates: finished,
        exitCode: code,
        wallSeconds: Math.round(wallSeconds * 10) / 10,
        heapAfterEvery16: heap,
        gcBeforeEachSample: collect !== undefined,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1000),
      },
      null,
      2,
    ),
  );
  if (code !== 0) console.log(standings);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
