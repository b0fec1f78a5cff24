/**
 * The command line on commander: each declared command becomes a commander command with its
 * options, its help in Agora's layout (one line per option) and its parse errors turned into usage
 * errors (exit 2) that name the flag and suggest the one that was probably meant.
 */
import { Command, CommanderError, Help, Option } from 'commander';
import { closestName } from '../config/closest-name.js';
import { UsageError } from '../core/errors.js';
import { wrapLine } from '../render/wrap-text.js';
import type { CommandDefinition, CommandInput, OptionSpecs, OptionValues } from './command-definition.js';
import { COMMANDS } from './command-list.js';
import type { CliIo } from './io.js';

export { COMMANDS } from './command-list.js';

/** Every name a command answers to, aliases included, for the help texts and the tests. */
export const COMMAND_NAMES = COMMANDS.flatMap((definition) => [
  definition.name,
  ...(definition.aliases ?? []),
]);

/** The command a name (or an alias) stands for. */
export function findCommand(name: string): CommandDefinition | undefined {
  return COMMANDS.find((definition) => definition.name === name || definition.aliases?.includes(name));
}

/** The command meant by a misspelt name, if one is close enough. */
export function suggestCommand(name: string): string | undefined {
  return closestName(name, [...COMMAND_NAMES, 'help', 'version']);
}

/** One option's term in the help: `--host URL`. */
const optionTerm = (name: string, spec: OptionSpecs[string]) =>
  `--${name}${spec.value ? ` ${spec.value}` : ''}`;

/** `  --host URL            Ollama address ...`: the term in a column of its own, then the help. */
export function helpLine(term: string, text: string): string {
  const [first = '', ...rest] = wrapLine(text, HELP_WIDTH - HELP_INDENT);
  const head = `  ${term.padEnd(21)} `;
  // A long term pushes its text along; the rest hangs under the text column.
  return [`${head}${first}`, ...rest.map((line) => `${' '.repeat(HELP_INDENT)}${line}`)].join('\n');
}

/** Help fits a terminal of 80 columns. */
const HELP_WIDTH = 80;
const HELP_INDENT = 24;

/** The usage of one command, or undefined for a name that is not a command. */
export function commandHelp(name: string): string | undefined {
  const definition = findCommand(name);
  if (!definition) return undefined;
  const options = Object.entries(definition.options).filter(([, spec]) => !spec.hidden);
  const usage = `Usage: agora ${definition.name} ${definition.usage}`;
  return [
    // Too wide for 80 columns: the npm spelling goes on a line of its own.
    ...(usage.length <= HELP_WIDTH
      ? [usage]
      : usage.split(/ {2,}(?=\()/).map((part, at) => (at === 0 ? part : `       ${part}`))),
    ...(definition.moreUsage ?? []).map((line) => `       agora ${definition.name} ${line}`),
    '',
    // Each line of a description is a paragraph of its own, wrapped on its own.
    ...definition.description.split('\n').flatMap((paragraph) => wrapLine(paragraph, HELP_WIDTH)),
    '',
    'Options',
    ...options.map(([option, spec]) => helpLine(optionTerm(option, spec), spec.help)),
    helpLine('--help', 'this text (also -h)'),
    '',
  ].join('\n');
}

/**
 * `agora help`: every command with a line or two, then the shared database, exit codes and colour,
 * wrapped once to `width` (the terminal's; 80 in a pipe). A term too long for its column goes on a
 * line of its own, the text under the text column.
 */
export function programHelp(width = HELP_WIDTH): string {
  const room = Math.max(40, width);
  const listing = (term: string, text: readonly string[]) => {
    const lines = wrapLine(text.join(' '), room - HELP_INDENT);
    const indent = ' '.repeat(HELP_INDENT);
    if (term.length > HELP_INDENT - 3)
      return [`  ${term}`, ...lines.map((line) => `${indent}${line}`)].join('\n');
    return lines.map((line, at) => `  ${(at === 0 ? term : '').padEnd(HELP_INDENT - 3)} ${line}`).join('\n');
  };
  const paragraph = (text: string) => wrapLine(text, room).join('\n');
  return [
    'agora — offline debates between local Ollama models',
    '',
    paragraph('Usage: agora <command> [options]     (npm run agora -- <command> [options])'),
    '',
    'Commands',
    ...COMMANDS.map((definition) => listing(definition.listing.term, definition.listing.text)),
    listing('help [command]', ["this text; agora <command> --help shows one command's options"]),
    listing('version', ['the version (also --version)']),
    '',
    paragraph(
      '--database URL (or AGORA_DATABASE_URL) also works with run and resume (the run is kept in the database step by step), batch (queues the debates), stop, runs, show, leaderboard, query, export and reindex.',
    ),
    '',
    paragraph(
      'Exit codes: 0 ok, 1 internal error, 2 usage error (also a port in use), 3 invalid configuration, 4 Ollama unreachable, 5 model missing, 6 run failed, 7 damaged run log, 8 run in use by another process, 9 degraded, 10 files could not be written or read, 11 database unreachable, refused or of another schema version, 130 stopped (Ctrl-C, SIGTERM or agora stop).',
    ),
    '',
    paragraph(
      'Colour: the live view is coloured on a terminal; NO_COLOR=1 turns colour off, FORCE_COLOR=1 turns it on for a pipe or a file, FORCE_COLOR=0 turns it off. NO_COLOR wins.',
    ),
    '',
  ].join('\n');
}

/** The values under the names the command declared (`run-id`), from commander's (`runId`). */
function valuesOf(command: Command, options: OptionSpecs): Record<string, unknown> {
  const parsed = command.opts();
  const values: Record<string, unknown> = {};
  for (const option of command.options) {
    const name = option.long?.slice(2);
    if (name && name in options && parsed[option.attributeName()] !== undefined) {
      values[name] = parsed[option.attributeName()];
    }
  }
  return values;
}

/** A commander command for one declared command, that hands the parsed input to `run`. */
function commanderFor(
  definition: CommandDefinition,
  io: CliIo,
  run: (input: CommandInput<OptionSpecs>) => Promise<void>,
) {
  const command = new Command(definition.name)
    .exitOverride()
    .allowExcessArguments(true)
    .showSuggestionAfterError(false)
    .helpOption('-h, --help')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: () => undefined,
      outputError: () => undefined,
    });
  command.configureHelp({
    formatHelp: () => commandHelp(definition.name) ?? new Help().formatHelp(command, new Help()),
  });
  for (const [name, spec] of Object.entries(definition.options)) {
    const option = new Option(spec.value ? `--${name} <value>` : `--${name}`, spec.help);
    if (spec.multiple)
      option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.addOption(option);
  }
  command.action(async (_options: unknown, self: Command) => {
    await run({
      values: valuesOf(self, definition.options) as OptionValues<OptionSpecs>,
      positionals: self.args,
    });
  });
  return command;
}

/**
 * Parses `argv` (what follows the command's name) and runs the command; `--help` prints its
 * usage instead. A parse error is a UsageError naming the flag.
 */
export async function runCommand(
  definition: CommandDefinition,
  argv: string[],
  io: CliIo,
  run: (input: CommandInput<OptionSpecs>) => Promise<number>,
): Promise<number> {
  let code = 0;
  const command = commanderFor(definition, io, async (input) => {
    code = await run(input);
  });
  try {
    await command.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.help') return 0;
    throw usageError(error, definition);
  }
}

/** A parse error in words a user can act on: the flag, the one probably meant, where the options are. */
function usageError(error: CommanderError, definition: CommandDefinition): UsageError {
  const more = `Run \`agora ${definition.name} --help\` for the options.`;
  const flag = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  const names = Object.entries(definition.options).filter(([, spec]) => !spec.hidden);
  if (error.code === 'commander.unknownOption') {
    const [given = flag, value] = flag.split(/=(.*)/s);
    const known = names.find(([name]) => `--${name}` === given);
    if (known && value !== undefined)
      return new UsageError(`${given} takes no value; got "${flag}". ${more}`);
    const meant = closestName(
      given.replace(/^-+/, ''),
      names.map(([name]) => name),
    );
    return new UsageError(`Unknown option '${given}'${meant ? ` (did you mean --${meant}?)` : ''}. ${more}`);
  }
  if (error.code === 'commander.optionMissingArgument') {
    const name = flag.replace(/^--/, '').split(' ')[0] ?? '';
    const spec = definition.options[name];
    return new UsageError(`--${name} needs a value${spec?.value ? ` (${spec.value})` : ''}. ${more}`);
  }
  return new UsageError(`${error.message.replace(/^error: /, '')}. ${more}`);
}
