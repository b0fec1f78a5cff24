/** Run ids read well in a folder listing: `20261122-153000-should-abortion-be-legal-s42`. */
import { randomInt } from 'node:crypto';
import path from 'node:path';

export function slugify(text: string, maxLength = 40): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, maxLength).replace(/-+$/, '') || 'debate';
}

export function makeRunId(at: Date, topic: string, seed: number): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${slugify(topic)}-s${seed}`;
}

const SUFFIX_CHARACTERS = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A council run's id in the Final Packet's form, `debate_20261123_062656_k3x` (UTC time and three
 * random characters): the same id names the folder, the packet, the decision record and the index row.
 */
export function makeCouncilRunId(at: Date, suffix: string = randomSuffix()): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  return `debate_${stamp}_${suffix}`;
}

function randomSuffix(): string {
  return Array.from({ length: 3 }, () => SUFFIX_CHARACTERS[randomInt(SUFFIX_CHARACTERS.length)]).join('');
}

/** A run id safe to use as a folder name and in a URL: no separators, no `..`, no leading dot. */
export function isRunId(text: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/.test(text) && !text.includes('..');
}

/** How to start, in the same folder, a run that never started (its scenario was never recorded). */
export function startAdvice(runDir: string): string {
  return `start it in the same folder with \`agora run <scenario.yaml> --run-id ${path.basename(runDir)} --out ${path.dirname(runDir)}\``;
}
