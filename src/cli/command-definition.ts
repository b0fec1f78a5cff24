/**
 * What a command declares: its name, usage and description, its options with their help, and the
 * function that runs it with the parsed values. `program.ts` turns these into commander commands,
 * so the parsing, the help and the "did you mean" come from one declaration.
 */
import type { CliIo } from './io.js';

/** One option: `--name VALUE` when it takes a value, a switch otherwise. */
export interface OptionSpec {
  /** The value's name in the help (`--host URL`); absent for a switch. */
  value?: string;
  /** What the option does, one line. */
  help: string;
  /** Given more than once, every value is kept (`batch --host A --host B`). */
  multiple?: true;
  /** Left out of the help (set by the viewer on the processes it starts). */
  hidden?: true;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** One option's parsed value: text for `--name VALUE` (a list when repeatable), true for a switch. */
type OptionValue<S extends OptionSpec> = S extends { value: string }
  ? S extends { multiple: true }
    ? string[]
    : string
  : 'value' extends keyof S
    ? string | string[] | boolean
    : boolean;

/** The parsed values, by option name as typed (`run-id`, not `runId`). */
export type OptionValues<O extends OptionSpecs> = { [K in keyof O]?: OptionValue<O[K]> };

export interface CommandInput<O extends OptionSpecs> {
  values: OptionValues<O>;
  /** The arguments that are not options, in order; each command checks its own. */
  positionals: string[];
}

export interface CommandDefinition<O extends OptionSpecs = OptionSpecs> {
  name: string;
  /** Other names for the same command (`debate` for `run`). */
  aliases?: string[];
  /** What follows `agora <name>` in the usage line, e.g. `<scenario.yaml> [options]`. */
  usage: string;
  /** Further usage lines, each shown under the first. */
  moreUsage?: string[];
  /** How `agora help` lists it: the term (`run <scenario.yaml>`) and one line, or a few. */
  listing: { term: string; text: string[] };
  /** What it does, in a sentence or two, under the usage. */
  description: string;
  options: O;
  /**
   * A read-side command (`runs`, `show`...): with `--database`, the database's runs are copied into
   * a local folder first, and the command reads that folder as it reads any runs folder.
   */
  readsDatabaseCopy?: true;
  run(input: CommandInput<O>, io: CliIo): Promise<number>;
}

/** A command's declaration, typed by its options. */
export function defineCommand<O extends OptionSpecs>(definition: CommandDefinition<O>): CommandDefinition<O> {
  return definition;
}
