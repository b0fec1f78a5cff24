import path from 'node:path';

/** Run ids read well in a folder listing: `20261122-153000-should-abortion-be-legal-s42`. */

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

/** A run id safe to use as a folder name and in a URL: no separators, no `..`, no leading dot. */
export function isRunId(text: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/.test(text) && !text.includes('..');
}

/** How to start, in the same folder, a run that never started (its scenario was never recorded). */
export function startAdvice(runDir: string): string {
  return `start it in the same folder with \`agora run <scenario.yaml> --run-id ${path.basename(runDir)} --out ${path.dirname(runDir)}\``;
}
