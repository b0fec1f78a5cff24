/**
 * The run folder, its lock and its writes: a run that never started, a lock held by a process that
 * has died, a lost event log, and a file system that refuses writes (denied, full, read-only).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { answerLate, useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { canMountSmallDisk, type SmallDisk, smallDisk } from '../helpers/small-disk.js';
import { comparable, onlyRunDir, readEvents, readTranscript } from '../helpers/transcripts.js';

const mock = useMockServers();

/** Round 2's judges get no answer: a 2-round run on this server never ends by itself. */
const HOLD_ROUND_2 = { match: { text: '## Your task: evaluate round 2\n' }, fault: 'hang' } as const;

const FAST_RETRIES = {
  attempts: 3,
  backoff_ms: 5,
  max_backoff_ms: 20,
  request_timeout_seconds: 600,
  max_consecutive_failures: 3,
};

/** A scenario file in a fresh folder, and a runs folder beside it (`out`, not created). */
function writeScenario(rounds: number, dir = tempDir()) {
  const data = testScenario({ rounds });
  data.reliability = FAST_RETRIES;
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(data));
  return { dir, file, out: path.join(dir, 'runs') };
}

/** Every file under `dir` whose name ends in `.tmp`. */
function strayTempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'));
}

describe('a run that never started', () => {
  it.each([
    ['an empty log', ''],
    [
      'a torn first line',
      '{"seq":0,"at":"2026-11-23T10:00:00.000Z","type":"run-start","runId":"fresh","form',
    ],
  ])('%s: resume says how to start it, runs lists it, run --run-id starts it there', async (_, log) => {
    const server = await mock();
    const scenario = writeScenario(1);
    // What a kill -9 between creating the log and writing its first line leaves behind.
    const runDir = path.join(scenario.out, 'fresh');
    mkdirSync(runDir, { recursive: true });
    writeFileSync(path.join(runDir, 'events.jsonl'), log);
    writeFileSync(path.join(runDir, 'run.log'), '{"level":30,"msg":"run segment start"}\n');
    writeFileSync(path.join(runDir, 'run.lock'), '2147483646\n');

    const resumed = await runAgora(['resume', 'fresh', '--out', scenario.out, '--host', server.url]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/never started/);
    expect(resumed.stderr).toContain(`agora run <scenario.yaml> --run-id fresh --out ${scenario.out}`);
    expect(resumed.stderr).not.toMatch(/\n\s+at /);

    const runs = await runAgora(['runs', '--out', scenario.out, '--json']);
    expect(JSON.parse(runs.stdout)).toEqual([
      expect.objectContaining({
        runId: 'fresh',
        status: 'unstarted',
        stopReason: expect.stringMatching(/--run-id fresh/),
      }),
    ]);

    const started = await runAgora([
      'run',
      scenario.file,
      '--run-id',
      'fresh',
      '--out',
      scenario.out,
      '--host',
      server.url,
      '--quiet',
    ]);
    expect(started.code).toBe(0);
    const events = readEvents(runDir);
    expect(events[0]).toMatchObject({ seq: 0, type: 'run-start', runId: 'fresh' });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(readTranscript(runDir).status).toBe('completed');
  });
});

describe('the run lock', () => {
  it.skipIf(process.platform !== 'linux')(
    'a lock naming a zombie (a process that ended but was not reaped) is taken over by resume',
    async () => {
      const server = await mock({ speed: 0.05 });
      const scenario = writeScenario(2);
      // The killed run is still going when the kill lands, however late: its server never answers
      // round 2's judges. It is resumed on `server`.
      const held = await mock({ speed: 0.05, script: [HOLD_ROUND_2] });
      const { child, result } = startAgora([
        'run',
        scenario.file,
        '--host',
        held.url,
        '--out',
        scenario.out,
        '--quiet',
      ]);
      await waitForEvents(scenario.out, 3);
      child.kill('SIGKILL');
      await result;
      const runDir = onlyRunDir(scenario.out);

      // A real zombie: the shell's background child exits, and the shell, replaced by `sleep`,
      // never waits for it.
      const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 60'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const zombie = Number(
          await new Promise<string>((resolve) =>
            parent.stdout?.once('data', (chunk) => resolve(String(chunk))),
          ),
        );
        const status = () => readFileSync(`/proc/${zombie}/status`, 'utf8');
        while (!/^State:\s+Z/m.test(status())) await new Promise((resolve) => setTimeout(resolve, 10));
        writeFileSync(path.join(runDir, 'run.lock'), `${zombie}\n`);

        const runs = await runAgora(['runs', '--out', scenario.out, '--json']);
        expect(JSON.parse(runs.stdout)).toEqual([expect.objectContaining({ status: 'interrupted' })]);
        const resumed = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
        expect(resumed.stderr).not.toMatch(/being written by process/);
        expect(resumed.code).toBe(0);
        expect(readTranscript(runDir).status).toBe('completed');
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );
});

describe('a run folder is never written over', () => {
  it('a run whose log was deleted is listed as damaged, refused by show, resume and run --run-id', async () => {
    const server = await mock();
    const scenario = writeScenario(1);
    const first = await runAgora([
      'run',
      scenario.file,
      '--run-id',
      'lost',
      '--out',
      scenario.out,
      '--host',
      server.url,
      '--quiet',
    ]);
    expect(first.code).toBe(0);
    const runDir = path.join(scenario.out, 'lost');
    const transcript = readFileSync(path.join(runDir, 'transcript.json'), 'utf8');
    rmSync(path.join(runDir, 'events.jsonl'));

    const runs = await runAgora(['runs', '--out', scenario.out, '--json']);
    expect(JSON.parse(runs.stdout)).toEqual([
      expect.objectContaining({
        runId: 'lost',
        status: 'damaged',
        stopReason: expect.stringMatching(/events\.jsonl is missing/),
      }),
    ]);
    const shown = await runAgora(['show', 'lost', '--out', scenario.out]);
    expect(shown.code).toBe(7);
    expect(shown.stderr).toMatch(/events\.jsonl is missing/);
    const resumed = await runAgora(['resume', 'lost', '--out', scenario.out, '--host', server.url]);
    expect(resumed.code).toBe(7);
    expect(resumed.stderr).toMatch(/events\.jsonl is missing/);

    const again = await runAgora([
      'run',
      scenario.file,
      '--run-id',
      'lost',
      '--out',
      scenario.out,
      '--host',
      server.url,
      '--quiet',
    ]);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain(runDir);
    expect(again.stderr).toMatch(/not written over/);
    expect(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')).toBe(transcript);
    expect(existsSync(path.join(runDir, 'events.jsonl'))).toBe(false);
  });

  it('run --run-id refuses a folder that is not a run, naming it, and leaves it alone', async () => {
    const server = await mock();
    const scenario = writeScenario(1);
    const folder = path.join(scenario.out, 'notes');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'mine.txt'), 'my notes\n');
    const refused = await runAgora([
      'run',
      scenario.file,
      '--run-id',
      'notes',
      '--out',
      scenario.out,
      '--host',
      server.url,
      '--quiet',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${folder} already exists and is not a run folder`);
    expect(readdirSync(folder)).toEqual(['mine.txt']);
  });
});

/** As root, permissions deny nothing: the CLI then runs as `nobody`, for whom they do. */
const unprivileged = process.getuid?.() === 0 ? { user: { uid: 65534, gid: 65534 } } : {};

describe('file-system refusals', () => {
  it('a denied folder: exit 10 naming the path and the cause, for run and for resume', async () => {
    const server = await mock();
    const dir = tempDir();
    const scenario = writeScenario(1, dir);
    const done = await runAgora([
      'run',
      scenario.file,
      '--run-id',
      'done',
      '--out',
      scenario.out,
      '--host',
      server.url,
      '--quiet',
    ]);
    expect(done.code).toBe(0);
    // Readable, but not writable, by the user the CLI runs as.
    chmodSync(dir, 0o555);
    chmodSync(scenario.out, 0o555);
    chmodSync(path.join(scenario.out, 'done'), 0o555);
    try {
      const denied = path.join(dir, 'elsewhere');
      const run = await runAgora(
        ['run', scenario.file, '--out', denied, '--host', server.url, '--quiet'],
        unprivileged,
      );
      expect(run.code).toBe(10);
      expect(run.stderr).toContain(`could not create the runs folder ${denied}: permission denied (EACCES)`);
      expect(run.stderr).not.toMatch(/unexpected error/);

      const resume = await runAgora(
        ['resume', 'done', '--out', scenario.out, '--host', server.url],
        unprivileged,
      );
      expect(resume.code).toBe(10);
      expect(resume.stderr).toContain(
        `${path.join(scenario.out, 'done', 'run.lock')}: permission denied (EACCES)`,
      );
    } finally {
      chmodSync(path.join(scenario.out, 'done'), 0o755);
      chmodSync(scenario.out, 0o755);
      chmodSync(dir, 0o755);
    }
  });

  describe.skipIf(!canMountSmallDisk)('on a real small disk (tmpfs)', () => {
    let disk: SmallDisk | undefined;
    afterEach(() => {
      disk?.unmount();
      disk = undefined;
    });

    it('a full disk mid-run: exit 10 naming the file, no temp file left, a clean log, and resume finishes the same debate', async () => {
      const server = await mock({ speed: 0.05 });
      const scenario = writeScenario(2);
      const reference = await runAgora([
        'run',
        scenario.file,
        '--host',
        server.url,
        '--out',
        `${scenario.out}-reference`,
        '--quiet',
      ]);
      expect(reference.code).toBe(0);
      disk = smallDisk(1024);
      const out = path.join(disk.dir, 'runs');
      // Round 2's first judge answers a minute late here, so the run has more to write when the disk
      // fills unless that is a minute late (a call that never answered would leave nothing to write).
      const slowed = await mock({
        speed: 0.05,
        script: [answerLate({ text: '## Your task: evaluate round 2\n' }, 1)],
      });
      const { result } = startAgora(['run', scenario.file, '--host', slowed.url, '--out', out, '--quiet']);
      await waitForEvents(out, 3);
      disk.fill();
      const full = await result;
      expect(full.code).toBe(10);
      expect(full.stderr).toMatch(
        /could not (write|append to) \S+: the disk is full \(no space left on the device\) \(ENOSPC\)/,
      );
      const runDir = onlyRunDir(out);
      expect(strayTempFiles(disk.dir)).toEqual([]);
      // Every line of the log is a whole event: nothing half-written is left for the fold.
      const before = readEvents(runDir);
      expect(before.map((event) => event.seq)).toEqual(before.map((_, index) => index));

      disk.free();
      const resumed = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
      expect(resumed.code).toBe(0);
      expect(readEvents(runDir).slice(0, before.length)).toEqual(before);
      expect(comparable(readTranscript(runDir))).toEqual(
        comparable(readTranscript(onlyRunDir(`${scenario.out}-reference`))),
      );
    });

    // No room at all: the run's lock is refused. One page: the lock takes it, then the run log's
    // first line and the run-start event find none.
    it.each([
      [0, 'could not create', 'run.lock'],
      [4096, 'could not append to', 'events.jsonl'],
    ])(
      'a disk full from the start (%i bytes free): exit 10, listed as never started, and run --run-id starts it there once there is room',
      async (free, action, file) => {
        const server = await mock();
        const scenario = writeScenario(1);
        disk = smallDisk(256);
        disk.fill(free);
        const out = path.join(disk.dir, 'runs');
        const full = await runAgora(['run', scenario.file, '--host', server.url, '--out', out, '--quiet']);
        expect(full.code).toBe(10);
        const [runId] = readdirSync(out);
        const runDir = path.join(out, String(runId));
        expect(full.stderr).toContain(`${action} ${path.join(runDir, file)}: the disk is full`);
        const runs = await runAgora(['runs', '--out', out, '--json']);
        expect(JSON.parse(runs.stdout)).toEqual([
          expect.objectContaining({
            runId,
            status: 'unstarted',
            stopReason: expect.stringContaining(`--run-id ${runId} --out ${out}`),
          }),
        ]);

        disk.free();
        const started = await runAgora([
          'run',
          scenario.file,
          '--run-id',
          String(runId),
          '--host',
          server.url,
          '--out',
          out,
          '--quiet',
        ]);
        expect(started.code).toBe(0);
        expect(readEvents(runDir)[0]).toMatchObject({ seq: 0, type: 'run-start', runId });
        expect(readTranscript(runDir).status).toBe('completed');
      },
    );

    it('a full disk under --output: exit 10 naming the file, and no temp file left beside it', async () => {
      const server = await mock();
      const scenario = writeScenario(1);
      disk = smallDisk(64);
      disk.fill();
      const output = path.join(disk.dir, 'result.md');
      const run = await runAgora([
        'run',
        scenario.file,
        '--host',
        server.url,
        '--out',
        scenario.out,
        '--output',
        output,
        '--quiet',
      ]);
      expect(run.code).toBe(10);
      expect(run.stderr).toContain(`could not write ${output}: the disk is full`);
      expect(readdirSync(disk.dir)).toEqual(['filler']);
    });

    it('a read-only file system: resume exits 10 naming the lock file, and resumes once writable', async () => {
      const server = await mock({ speed: 0.05 });
      const scenario = writeScenario(2);
      disk = smallDisk(1024);
      const out = path.join(disk.dir, 'runs');
      // Never answered round 2's judges, the killed run has not ended when the kill lands.
      const held = await mock({ speed: 0.05, script: [HOLD_ROUND_2] });
      const { child, result } = startAgora([
        'run',
        scenario.file,
        '--host',
        held.url,
        '--out',
        out,
        '--quiet',
      ]);
      await waitForEvents(out, 3);
      child.kill('SIGKILL');
      await result;
      const runDir = onlyRunDir(out);
      disk.readOnly(true);
      const refused = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
      expect(refused.code).toBe(10);
      expect(refused.stderr).toContain(
        `${path.join(runDir, 'run.lock')}: the file system is read-only (EROFS)`,
      );
      disk.readOnly(false);
      const resumed = await runAgora(['resume', runDir, '--host', server.url, '--quiet']);
      expect(resumed.code).toBe(0);
      expect(readTranscript(runDir).status).toBe('completed');
    });
  });
});
