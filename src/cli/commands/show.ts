import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { runPlaces } from '../../store/run-places.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';

export async function showCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('show', argv, {
    out: { type: 'string' },
    json: { type: 'boolean' },
  });
  const runDir = findRunDir(positionals[0], runPlaces(io.cwd, values.out), 'show');
  const { format, state } = loadRun(runDir, formatNamed);
  io.stdout.write(
    values.json ? `${JSON.stringify(format.transcript(state), null, 2)}\n` : format.markdown(state),
  );
  return 0;
}
