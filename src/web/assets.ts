/** The viewer's browser files (`web/app.js`, `web/style.css`), read from the package's `web/` folder. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Two folders up from here is the package root, from the sources and from the compiled `dist/` alike.
const WEB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

export function readWebAsset(name: 'app.js' | 'podium.js' | 'style.css'): string {
  return readFileSync(path.join(WEB_DIR, name), 'utf8');
}
