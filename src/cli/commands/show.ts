/** `agora show <run> [--json]`: a run's transcript, rebuilt from its event log. */
import path from 'node:path';
import { knockoutTranscript } from '../../formats/knockout/transcript.js';
import { knockoutMarkdown } from '../../formats/knockout/transcript-markdown.js';
import { loadRun } from '../../manager/debate-manager.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';

export async function showCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('show', argv, {
    out: { type: 'string' },
    json: { type: 'boolean' },
  });
  const runDir = findRunDir(positionals[0], path.resolve(io.cwd, values.out ?? 'transcripts'), 'show');
  const transcript = knockoutTranscript(loadRun(runDir).state);
  io.stdout.write(values.json ? `${JSON.stringify(transcript, null, 2)}\n` : knockoutMarkdown(transcript));
  return 0;
}
