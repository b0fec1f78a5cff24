/** `agora stop <run>`: asks a run in another process to stop after the step in flight. */
import path from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { lockOwner } from '../../store/run-lock.js';
import { requestStop } from '../../store/stop-request.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';
import { parseCommand } from '../parse.js';

export async function stopCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand('stop', argv, { out: { type: 'string' } });
  const runDir = findRunDir(positionals[0], path.resolve(io.cwd, values.out ?? 'transcripts'), 'stop');
  const owner = lockOwner(runDir);
  if (owner === null) {
    io.stdout.write(`No process is running ${runDir}; nothing to stop.\n`);
    return ExitCode.ok;
  }
  requestStop(runDir);
  io.stdout.write(`Asked process ${owner} to stop ${path.basename(runDir)} after the step in flight.\n`);
  return ExitCode.ok;
}
