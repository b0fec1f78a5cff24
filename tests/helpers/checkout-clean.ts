/**
 * The suite leaves the checkout as it found it: every run, index, database copy and record a test
 * makes goes under a temporary folder. Whatever appears in the checkout's runs folders while the
 * suite runs fails it, naming what was left.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The folders the CLI writes to when a command names none: runs, council records, database copies. */
const WATCHED = [
  'transcripts',
  path.join('transcripts', '.database'),
  'records',
  path.join('records', 'debates'),
];

function entries(): Set<string> {
  const found = new Set<string>();
  for (const folder of WATCHED) {
    const dir = path.join(root, folder);
    if (existsSync(dir)) for (const name of readdirSync(dir)) found.add(path.join(folder, name));
  }
  return found;
}

export default function setup() {
  const before = entries();
  return () => {
    const left = [...entries()].filter((entry) => !before.has(entry));
    if (left.length > 0) {
      // Vitest reports an error thrown here but keeps its exit code: the suite must fail too.
      process.exitCode = 1;
      throw new Error(
        `the tests left ${left.join(', ')} in the checkout; a test must give the CLI --out DIR or a temporary working folder`,
      );
    }
  };
}
