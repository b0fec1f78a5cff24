/**
 * The suite leaves the checkout as it found it: every run, index, database copy and record a test
 * makes goes under a temporary folder. Whatever the tests' own processes create in the checkout's
 * runs folders while the suite runs fails it, naming what was left.
 *
 * Only what the tests made is blamed. The folders are compared with a snapshot taken at setup, and
 * each entry that appears meanwhile is traced to the process writing it (the pid in a run's lock,
 * or a process holding one of its files open, as an open viewer holds its SQLite files): an entry
 * written by a process outside the suite (a person's own `agora run`, an open `agora serve`) is
 * theirs, and left out of the verdict.
 */
import { existsSync, type FSWatcher, readdirSync, readFileSync, readlinkSync, watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The folders the CLI writes to when a command names none: runs, council records, database copies. */
const WATCHED = [
  'transcripts',
  path.join('transcripts', '.database'),
  'records',
  path.join('records', 'debates'),
];

function entries(root: string): Set<string> {
  const found = new Set<string>();
  for (const folder of WATCHED) {
    const dir = path.join(root, folder);
    if (existsSync(dir)) for (const name of readdirSync(dir)) found.add(path.join(folder, name));
  }
  return found;
}

function parentOf(pid: number): number | null {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: the fields after it are plain.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Whether `pid` is this process (the suite's main process) or one it started, at any depth. */
function fromTheSuite(pid: number): boolean {
  for (let at: number | null = pid, depth = 0; at !== null && at > 1 && depth < 64; depth += 1) {
    if (at === process.pid) return true;
    at = parentOf(at);
  }
  return false;
}

/** The processes writing `entry` now: the pid in its run lock, and any holding a file in it open. */
function writersOf(root: string, entry: string): number[] {
  const target = path.join(root, entry);
  const pids = new Set<number>();
  try {
    const locked = Number(readFileSync(path.join(target, 'run.lock'), 'utf8').trim());
    if (Number.isInteger(locked) && locked > 0) pids.add(locked);
  } catch {
    // Not a run folder, or its lock is gone.
  }
  let processes: string[] = [];
  try {
    processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [...pids];
  }
  for (const pid of processes) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      try {
        const file = readlinkSync(`/proc/${pid}/fd/${descriptor}`);
        if (file === target || file.startsWith(`${target}/`) || file.startsWith(`${target}-`)) {
          pids.add(Number(pid));
          break;
        }
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return [...pids];
}

export default function setup() {
  const judge = watchCheckout(checkout);
  return () => {
    try {
      judge();
    } catch (error) {
      // Vitest reports an error thrown here but keeps its exit code: the suite must fail too.
      process.exitCode = 1;
      throw error;
    }
  };
}

/** Snapshots and watches the runs folders under `root`; the function returned judges what was left. */
export function watchCheckout(root: string): () => void {
  const before = entries(root);
  /** New entries traced to a process outside the suite. */
  const theirs = new Set<string>();
  /** New entries traced to the suite: never taken out again, whoever writes them later. */
  const ours = new Set<string>();
  const trace = (entry: string) => {
    if (before.has(entry) || ours.has(entry)) return;
    const writers = writersOf(root, entry);
    if (writers.length === 0) return;
    if (writers.some(fromTheSuite)) {
      ours.add(entry);
      theirs.delete(entry);
    } else theirs.add(entry);
  };
  const watchers: FSWatcher[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (entry: string, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      trace(entry);
    }, ms);
    timers.add(timer);
  };
  for (const folder of ['', ...WATCHED]) {
    const dir = path.join(root, folder);
    if (!existsSync(dir)) continue;
    try {
      const watcher = watch(dir, (_event, name) => {
        if (name === null) return;
        const entry = folder === '' ? String(name) : path.join(folder, String(name));
        if (folder === '' && !WATCHED.includes(entry)) return;
        // A run takes its lock and opens its log just after its folder appears: looked at again.
        trace(entry);
        later(entry, 200);
        later(entry, 2000);
      });
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch {
      // Unwatchable: whatever appears there is judged by the snapshot alone.
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
    for (const timer of timers) clearTimeout(timer);
    const appeared = [...entries(root)].filter((entry) => !before.has(entry));
    // Traced once more at the end: a viewer or run still open outside the suite is theirs.
    for (const entry of appeared) trace(entry);
    const left = appeared.filter((entry) => !theirs.has(entry));
    if (left.length > 0) {
      throw new Error(
        `the tests left ${left.join(', ')} in the checkout; a test must give the CLI --out DIR or a temporary working folder`,
      );
    }
  };
}
