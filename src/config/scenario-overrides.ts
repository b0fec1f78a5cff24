/** Command-line overrides of a scenario (--seed, --rounds, --topic), checked like the file itself. */
import { randomInt } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { plural } from '../core/plural.js';
import { clipText } from '../core/text-layout.js';
import { checkBackgroundFits } from './background-fit.js';
import type { Scenario } from './scenario.js';
import { topicLimit } from './topic-limit.js';
import { switchTopic } from './topic-switch.js';

/** A topic given on the command line: not blank, and within the format's length limit (exit 2). */
export function checkTopicFlag(topic: string, format: string): void {
  const text = topic.trim();
  if (text === '') throw new UsageError('--topic must not be empty or only spaces');
  const limit = topicLimit(format);
  if (text.length > limit) {
    throw new UsageError(
      `--topic or --problem-file: the topic is ${text.length} characters, above the ${limit}-character limit for a ${format} topic; keep it to the question itself and put longer material in a scenario's background`,
    );
  }
}

/** `--positions "FOR,AGAINST"`: the two positions' labels. */
export function parsePositions(text: string): [string, string] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 2 || parts.some((part) => part === '')) {
    throw new UsageError(
      `--positions takes the two positions' labels separated by a comma, e.g. --positions "Atheist,Theist"; got "${text}"`,
    );
  }
  return [parts[0] as string, parts[1] as string];
}

export function applyOverrides(
  scenario: Scenario,
  overrides: {
    seed?: number | undefined;
    rounds?: number | undefined;
    topic?: string | undefined;
    positions?: [string, string] | undefined;
  },
  /** Told what a topic switch replaced, in one sentence. */
  notify: (notice: string) => void = () => {},
): Scenario {
  let result: Scenario = scenario;
  if (overrides.seed !== undefined) result = withSeed(result, overrides.seed);
  if (overrides.positions && !['knockout', 'duel', 'formal'].includes(result.format)) {
    throw new UsageError(`--positions does not apply to a ${result.format}: it has no two sides`);
  }
  if (overrides.topic !== undefined) {
    checkTopicFlag(overrides.topic, result.format);
    const topic = overrides.topic.trim();
    if (topic !== result.topic.trim()) {
      const switched = switchTopic(result, topic, overrides.positions);
      result = switched.scenario;
      if (switched.notice) notify(switched.notice);
    } else if (overrides.positions) {
      result = switchTopic(result, topic, overrides.positions).scenario;
    }
    result = { ...result, topic };
    // The file's own topic was checked when it was loaded; the new one travels with every call too.
    const tooLong = checkBackgroundFits(result, result.contextFiles);
    if (tooLong) throw new UsageError(`--topic or --problem-file: ${tooLong.message}`);
  } else if (overrides.positions) {
    throw new UsageError('--positions goes with --topic: the positions of a new debate');
  }
  if (overrides.rounds !== undefined) {
    if (result.format === 'knockout')
      result = { ...result, debate: { ...result.debate, rounds: overrides.rounds } };
    else if (result.format === 'duel' || result.format === 'truth')
      result = { ...result, max_rounds: overrides.rounds };
    else if (result.format === 'critique') result = { ...result, rounds: overrides.rounds };
    else if (result.format === 'council')
      throw new UsageError('--rounds does not apply to a council: its three rounds are fixed');
    else throw new UsageError('--rounds does not apply to a formal debate: its phases are fixed');
  }
  return result;
}

/** The scenario with its seed fixed (no longer drawn per run). */
export function withSeed(scenario: Scenario, seed: number): Scenario {
  const { randomSeed: _drawn, ...fixed } = scenario;
  return { ...fixed, seed } as Scenario;
}

/**
 * A new run's seed: the one given, or, without one, a fresh draw (a non-negative 32-bit integer,
 * so every model server takes it), recorded in the run like a given one.
 */
export function settleSeed(scenario: Scenario): Scenario {
  return scenario.randomSeed ? { ...scenario, seed: randomInt(0, 2 ** 31) } : scenario;
}

/** The seed line at the start of a run; a drawn seed says how to repeat the run. */
export function seedText(scenario: Scenario): string {
  return scenario.randomSeed
    ? `Seed: ${scenario.seed} (random; --seed ${scenario.seed} repeats this run)`
    : `Seed: ${scenario.seed}`;
}

/** One line that says what a scenario is, for `validate` and the start of a run. */
export function describeScenario(scenario: Scenario): string {
  switch (scenario.format) {
    case 'knockout':
      return `knockout, "${scenario.topic}", ${plural(scenario.agents.length, 'agent')}, ${plural(scenario.debate.rounds, 'round')}`;
    case 'formal':
      return `formal, "${scenario.topic}", ${scenario.debaters ? scenario.debaters.map((debater) => debater.model).join(' vs ') : 'models picked from the server'}`;
    case 'duel':
      return `duel, "${scenario.topic}", ${scenario.debaters.a.model} vs ${scenario.debaters.b.model}, judged by ${scenario.judge.model}, up to ${plural(scenario.max_rounds, 'round')}`;
    case 'council':
      return `council, "${clipText(scenario.topic, 60)}", ${Object.values(scenario.participants)
        .map((participant) => participant.model)
        .join('/')}, ${scenario.output_type}`;
    case 'critique':
      return `critique, "${clipText(scenario.topic, 60)}", ${scenario.agents.map((agent) => agent.role).join(', ')}, ${plural(scenario.rounds, 'round')}`;
    case 'truth':
      return `truth, ${Array.isArray(scenario.questions) ? plural(scenario.questions.length, 'question') : `${plural(scenario.questions, 'generated question')}`} under ${scenario.conditions.join(', ')}, ${scenario.debaters.a.model} and ${scenario.debaters.b.model} debating, judged by ${scenario.judge.model}`;
  }
}
