/** `agora show <run> [--json]`: a run's transcript, rebuilt from its event log, and its argument map. */
import { argumentMap } from '../../analytics/argument-map.js';
import { formatNamed } from '../../formats/index.js';
import { loadRun } from '../../manager/debate-manager.js';
import { argumentMapText } from '../../render/argument-map-text.js';
import { printable, safeJson } from '../../render/terminal-safe.js';
import { runPlaces } from '../../store/run-places.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import { DATABASE, OUT } from '../common-options.js';
import { findRunDir } from '../find-run.js';
import type { CliIo } from '../io.js';

const SHOW_OPTIONS = {
  out: OUT,
  database: DATABASE,
  json: { help: 'the transcript as JSON' },
} as const satisfies OptionSpecs;

export const showCommand = defineCommand({
  name: 'show',
  usage: '<run> [options]',
  listing: {
    term: 'show <run> [--json]',
    text: ["print a run's transcript and argument map as Markdown (or JSON)"],
  },
  description: "Prints a run's transcript as Markdown, then its argument map and argument scores.",
  options: SHOW_OPTIONS,
  readsDatabaseCopy: true,
  run: showRun,
});

async function showRun(
  { values, positionals }: CommandInput<typeof SHOW_OPTIONS>,
  io: CliIo,
): Promise<number> {
  const runDir = findRunDir(positionals[0], runPlaces(io.cwd, values.out), 'show');
  const { format, state, events, chain } = loadRun(runDir, formatNamed);
  // Model and scenario text is printed without the escape sequences it may hold; JSON escapes them.
  io.stdout.write(
    values.json
      ? `${safeJson(format.transcript(state), 2)}\n`
      : printable(format.markdown(state) + argumentMapText(argumentMap(events))),
  );
  if (chain.unchained > 0) {
    io.stderr.write(
      `note: ${chain.chained === 0 ? "this run's log was" : `the first ${chain.unchained} events of this run's log were`} written before events were chained, so a change to ${chain.chained === 0 ? 'it' : 'them'} cannot be detected (see \`agora verify\`)\n`,
    );
  }
  return 0;
}
