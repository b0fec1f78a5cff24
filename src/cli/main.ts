/** The `agora` command line: picks a command, and maps every error to one paragraph and an exit code. */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AgoraError, ExitCode } from '../core/errors.js';
import { printable } from '../render/terminal-safe.js';
import type { CommandDefinition, CommandInput, OptionSpecs } from './command-definition.js';
import { databaseCopy } from './database-copy.js';
import { type CliIo, processIo } from './io.js';
import {
  COMMAND_NAMES,
  commandHelp,
  findCommand,
  programHelp,
  runCommand,
  suggestCommand,
} from './program.js';
import { terminalLayout } from './terminal-layout.js';

export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    // `agora help run` is `agora run --help`.
    const asked = name === 'help' && rest[0] !== undefined ? commandHelp(rest[0]) : undefined;
    io.stdout.write(asked ?? programHelp(terminalLayout(io.stdout, io.env).width));
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === 'version' || name === '--version' || name === '-v') {
    io.stdout.write(`agora ${packageVersion()}\n`);
    return ExitCode.ok;
  }
  const definition = findCommand(name);
  if (!definition) {
    const meant = suggestCommand(name);
    io.stderr.write(
      `agora: unknown command "${name}"${meant ? ` (did you mean ${meant}?)` : ''}. Commands: ${COMMAND_NAMES.join(', ')}, help, version.\n`,
    );
    return ExitCode.usage;
  }
  const verbose = rest.includes('--verbose');
  try {
    return await runCommand(definition, rest, io, (input) => run(definition, input, io));
  } catch (error) {
    if (error instanceof AgoraError) {
      // A message may quote a model's answer or a scenario: printed without escape sequences.
      io.stderr.write(`agora ${name}: ${printable(error.message)}\n`);
      if (verbose && error.cause instanceof Error)
        io.stderr.write(`${error.cause.stack ?? error.cause.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(
      `agora ${name}: unexpected error: ${printable(message)}${verbose ? '' : ' (run with --verbose for details)'}\n`,
    );
    if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return ExitCode.internal;
  }
}

/** Runs a parsed command; a read-side command with `--database` reads a current copy of the database. */
async function run(definition: CommandDefinition, input: CommandInput<OptionSpecs>, io: CliIo) {
  if (!definition.readsDatabaseCopy) return definition.run(input, io);
  const copy = await databaseCopy(input.values as { database?: string; out?: string }, io);
  if (!copy) return definition.run(input, io);
  const code = await definition.run({ ...input, values: { ...input.values, out: copy.folder } }, io);
  if (copy.queued > 0 && definition.name === 'runs') {
    io.stderr.write(
      `${copy.queued} more debate${copy.queued === 1 ? ' is' : 's are'} queued in the database, waiting for a worker.\n`,
    );
  }
  return code;
}

/** The version in package.json, which sits two folders up from both src/cli and dist/cli. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

/**
 * Output piped into a reader that stops early (`agora runs | head`): the closed pipe ends the
 * output quietly, as it does for other command-line tools, instead of with an error.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stream.destroy();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  endQuietlyOnClosedPipe(process.stdout);
  process.exitCode = await runCli(process.argv.slice(2));
}
