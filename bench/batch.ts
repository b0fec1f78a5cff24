/**
 * Batch throughput and memory, measured on the real command: `agora batch --repeat N` on
 * scenarios/abortion.yaml against the mock Ollama's instant profile (in a process of its own), so
 * the figures are the batch process's alone. Its resident memory is read from /proc every 250 ms,
 * with the debates finished so far (from its progress lines), and its peak (VmHWM) at the end.
 *
 * It measures the command both ways it is run: through tsx, as `npm run agora -- batch` does, and
 * compiled, as the installed `agora` does (built first with `npm run build`).
 *
 * `npm run bench:batch [-- N concurrency which]` (defaults 200, 4 and both; which is `tsx`,
 * `compiled` or `both`); writes bench/batch-results.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMockProcess } from './mock-process.js';

const debates = Number(process.argv[2] ?? 200);
const concurrency = Number(process.argv[3] ?? 4);
const which = process.argv[4] ?? 'both';

interface Sample {
  done: number;
  rssMb: number;
}

/** A field of /proc/<pid>/status in MiB (`VmRSS`, `VmHWM`), or null off Linux or once it ended. */
function procStatusMb(pid: number, field: string): number | null {
  try {
    const found = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return found ? Number(found[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function measure(label: string, command: string[], url: string) {
  const out = mkdtempSync(path.join(tmpdir(), 'agora-bench-batch-'));
  const args = [
    ...command,
    'batch',
    'scenarios/abortion.yaml',
    '--repeat',
    String(debates),
    '--concurrency',
    String(concurrency),
    '--parallel',
    String(concurrency),
    '--host',
    url,
    '--out',
    out,
    '--json',
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid as number;
  let done = 0;
  let stdout = '';
  let peakMb = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  let pendingLine = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = (pendingLine + chunk.toString()).split('\n');
    pendingLine = lines.pop() ?? '';
    for (const line of lines) {
      const progress = /^progress: (\d+)\//.exec(line);
      if (progress) done = Number(progress[1]);
    }
  });
  const samples: Sample[] = [];
  const sampler = setInterval(() => {
    const rssMb = procStatusMb(pid, 'VmRSS');
    const hwm = procStatusMb(pid, 'VmHWM');
    if (hwm !== null) peakMb = Math.max(peakMb, hwm);
    if (rssMb !== null) samples.push({ done, rssMb });
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  rmSync(out, { recursive: true, force: true });
  if (code !== 0) throw new Error(`${label}: agora batch exited with ${code}`);
  const summary = JSON.parse(stdout) as { completed: number; failed: number };
  // Resident memory in each quarter of the batch (by debates finished): the mean shows a trend
  // through the garbage collector's ups and downs, the maximum the worst moment.
  const quarters = [0.25, 0.5, 0.75, 1].map((end, position) => {
    const start = position * 0.25;
    const inQuarter = samples.filter(
      (sample) => sample.done >= start * debates && (sample.done < end * debates || end === 1),
    );
    const values = inQuarter.map((sample) => sample.rssMb);
    return {
      quarter: `${start * 100}-${end * 100}%`,
      meanRssMb: values.length
        ? Math.round(values.reduce((sum, value) => sum + value, 0) / values.length)
        : null,
      maxRssMb: values.length ? Math.round(Math.max(...values)) : null,
    };
  });
  return {
    run: label,
    completed: summary.completed,
    failed: summary.failed,
    seconds: Math.round(seconds * 10) / 10,
    debatesPerSecond: Math.round((summary.completed / seconds) * 100) / 100,
    peakRssMb: samples.length ? Math.round(peakMb) : null,
    quarters,
  };
}

const build = spawnSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('npm run build failed');

const { url, process: mock } = await startMockProcess();
const results = [];
try {
  if (which !== 'compiled') {
    results.push(await measure('tsx (npm run agora -- batch)', ['--import', 'tsx', 'src/cli/main.ts'], url));
  }
  if (which !== 'tsx') results.push(await measure('compiled (installed agora)', ['bin/agora.js'], url));
} finally {
  mock.kill('SIGINT');
}
const report = {
  debates,
  concurrency,
  profile: 'instant',
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  memory: process.platform === 'linux' ? 'from /proc/<pid>/status' : 'not measured off Linux',
  results,
};
writeFileSync('bench/batch-results.json', `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report, null, 2));
