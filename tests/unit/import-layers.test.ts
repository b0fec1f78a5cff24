import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importFindings } from '../../scripts/import-layers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('import layers', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A made-up checkout whose src/ holds these files. */
  function tree(files: Record<string, string>): string {
    const folder = mkdtempSync(path.join(tmpdir(), 'agora-layers-'));
    folders.push(folder);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(folder, 'src', file)), { recursive: true });
      writeFileSync(path.join(folder, 'src', file), text);
    }
    return folder;
  }

  it('finds no import cycle and no import up the layers in src/', () => {
    expect(importFindings(root)).toEqual([]);
  });

  it('names a cycle through a type-only import, an import up the layers, and a folder on no layer', () => {
    const folder = tree({
      'core/events.ts': "import type { Scenario } from '../config/scenario.js';\nexport type E = Scenario;\n",
      'config/scenario.ts':
        "import type { E } from '../core/events.js';\nexport type Scenario = { e?: E };\n",
      'store/rows.ts': "export type { Row } from './row-kinds.js';\n",
      'store/row-kinds.ts': "import type { Row as R } from './rows.js';\nexport type Row = R | string;\n",
      'config/load.ts': "export const load = () => import('../store/rows.js');\n",
      'extras/thing.ts': 'export const thing = 1;\n',
    });
    expect(importFindings(folder).sort()).toEqual(
      [
        'import up the layers: src/config/load.ts -> src/store/rows.ts (src/config/ may import only layers below it)',
        'import up the layers: src/core/events.ts -> src/config/scenario.ts (src/core/ may import only layers below it)',
        'src/extras/ is on no layer: add it to LAYERS in scripts/import-layers.ts',
        'import cycle of 2 file(s): src/config/scenario.ts -> src/core/events.ts, src/core/events.ts -> src/config/scenario.ts',
        'import cycle of 2 file(s): src/store/row-kinds.ts -> src/store/rows.ts, src/store/rows.ts -> src/store/row-kinds.ts',
      ].sort(),
    );
  });

  it('names an import between two folders of one layer', () => {
    const folder = tree({
      'judging/criteria.ts': "import { rows } from '../store/rows.js';\nexport const criteria = rows;\n",
      'store/rows.ts': 'export const rows = 1;\n',
    });
    expect(importFindings(folder)).toEqual([
      'import on the same layer: src/judging/criteria.ts -> src/store/rows.ts (src/judging/ may import only layers below it)',
    ]);
  });
});
