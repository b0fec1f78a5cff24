/** `agora validate <file...>`: checks scenarios without running them. */
import { loadScenario } from '../../config/load-scenario.js';
import { describeScenario } from '../../config/scenario-overrides.js';
import { stopConditionsText } from '../../config/stop-conditions-text.js';
import { ConfigError, ExitCode, formatConfigIssue, UsageError } from '../../core/errors.js';
import { type CommandInput, defineCommand, type OptionSpecs } from '../command-definition.js';
import type { CliIo } from '../io.js';

const VALIDATE_OPTIONS = {} as const satisfies OptionSpecs;

export const validateCommand = defineCommand({
  name: 'validate',
  usage: '<file...>',
  listing: { term: 'validate <file...>', text: ['check scenario files without running them'] },
  description: 'Checks scenario files without running them.',
  options: VALIDATE_OPTIONS,
  run: validate,
});

async function validate({ positionals }: CommandInput<typeof VALIDATE_OPTIONS>, io: CliIo): Promise<number> {
  if (positionals.length === 0)
    throw new UsageError('name at least one scenario file, e.g. `agora validate scenarios/*.yaml`');
  let failed = 0;
  for (const file of positionals) {
    try {
      const scenario = await loadScenario(file);
      const seed = scenario.randomSeed ? 'seed: random per run' : `seed: ${scenario.seed}`;
      io.stdout.write(
        `ok ${file}: ${describeScenario(scenario)}\n   ${seed}\n   ${stopConditionsText(scenario)}\n`,
      );
      for (const warning of scenario.warnings) io.stderr.write(`warning ${formatConfigIssue(warning)}\n`);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      failed += 1;
      io.stderr.write(`${error.message}\n`);
    }
  }
  return failed === 0 ? ExitCode.ok : ExitCode.config;
}
