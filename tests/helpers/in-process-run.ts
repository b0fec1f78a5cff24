/**
 * A debate run in this process, as the CLI's runner would drive it, for tests that read its log:
 * a run folder in a temporary directory, the scenario's format, no logging.
 */
import pino from 'pino';
import type { Scenario } from '../../src/config/scenario.js';
import type { Clock } from '../../src/core/clock.js';
import type { RunEvent } from '../../src/core/events.js';
import { formatNamed } from '../../src/formats/index.js';
import type { ModelProvider } from '../../src/llm/provider.js';
import { createRunDir, driveDebate } from '../../src/manager/debate-manager.js';
import { readEventLog } from '../../src/store/event-log.js';
import { tempDir } from './cli.js';

/** Runs `scenario` to its end against `provider` and returns its event log. */
export async function inProcessRun(
  scenario: Scenario,
  provider: ModelProvider,
  options: { clock?: Clock } = {},
): Promise<RunEvent[]> {
  const format = formatNamed(scenario.format);
  if (format === undefined) throw new Error(`no format ${scenario.format}`);
  const { runId, paths } = createRunDir(tempDir(), scenario);
  await driveDebate({
    format,
    paths,
    start: { runId, scenario },
    provider,
    logger: pino({ enabled: false }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return readEventLog(paths.events).events;
}
