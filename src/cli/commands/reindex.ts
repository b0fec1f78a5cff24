/** `agora reindex [--check]`: rebuilds the run index from the event logs (or checks that it matches them). */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { formatNamed } from '../../formats/index.js';
import { rebuildIndex } from '../../manager/indexing.js';
import { INDEX_FILE, RunIndex } from '../../store/run-index.js';
import { runPlaces, runSearchFolders } from '../../store/run-places.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { DATABASE, OUT } from '../common-options.js';
import type { CliIo } from '../io.js';

const REINDEX_OPTIONS = {
  out: OUT,
  database: DATABASE,
  check: { help: 'compare the index with the logs instead of rebuilding it' },
} as const satisfies OptionSpecs;

export const reindexCommand = defineCommand({
  name: 'reindex',
  usage: '[options]',
  listing: {
    term: 'reindex [--check]',
    text: ['rebuild the run index from the event logs (or compare with it)'],
  },
  description: 'Rebuilds the run index from the event logs.',
  options: REINDEX_OPTIONS,
  readsDatabaseCopy: true,
  run: reindex,
});

async function reindex({ values }: CommandInput<typeof REINDEX_OPTIONS>, io: CliIo): Promise<number> {
  const places = runPlaces(io.cwd, values.out);
  const outDir = places.runs;
  const more = runSearchFolders(places);
  const target = path.join(outDir, INDEX_FILE);
  if (values.check) {
    const scratch = mkdtempSync(path.join(tmpdir(), 'agora-reindex-'));
    try {
      const { index: rebuilt } = rebuildIndex(outDir, formatNamed, path.join(scratch, INDEX_FILE), more);
      const current = existsSync(target) ? RunIndex.open(target, { readonly: true }) : undefined;
      const same = current !== undefined && JSON.stringify(current.dump()) === JSON.stringify(rebuilt.dump());
      current?.close();
      rebuilt.close();
      io.stdout.write(
        same
          ? `The index matches the event logs.\n`
          : `The index differs from the event logs; run \`agora reindex\`.\n`,
      );
      return same ? ExitCode.ok : ExitCode.runFailed;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const { index, skipped } = rebuildIndex(outDir, formatNamed, target, more);
  const runs = index.query('SELECT COUNT(*) FROM runs').rows[0]?.[0];
  index.close();
  for (const line of skipped) io.stderr.write(`skipped ${line}\n`);
  io.stdout.write(`Indexed ${runs} runs into ${target}.\n`);
  return ExitCode.ok;
}
