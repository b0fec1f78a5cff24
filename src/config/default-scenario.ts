/**
 * Scenarios built from a format and a topic alone (`agora run --format duel --topic "..."`), with
 * each format's defaults, checked by the same schema as a file.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { parseScenario } from './load-scenario.js';
import type { Scenario } from './scenario.js';
import type { FormatName } from './scenario-schema.js';

const GENERIC_ROLE = (side: string) =>
  `You argue ${side} the motion. Build a clear case with evidence and reasoning, answer your opponent directly, and keep a respectful tone while firmly defending your position.`;

export function defaultScenarioData(format: FormatName, topic: string): Record<string, unknown> {
  switch (format) {
    case 'knockout':
      return {
        format,
        topic,
        positions: { x: 'For', y: 'Against' },
        agents: [
          { name: 'Xen', position: 'X', model: 'llama3', role: GENERIC_ROLE('for') },
          ...['Yara', 'Yusuf', 'Yvonne', 'Yannick'].map((name) => ({
            name,
            position: 'Y',
            model: 'mistral',
            role: GENERIC_ROLE('against'),
          })),
        ],
      };
    case 'formal':
      // No debaters: two distinct models are picked (by seed) from those the server has. A debate
      // started from a topic alone is judged: the verdict names a winner, on a third model if any.
      return { format, topic, verdict: { enabled: true } };
    case 'critique':
    case 'council':
      return { format, topic };
    case 'duel':
      return {
        format,
        topic,
        debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
        // A judge on a debater's model may favour its own side: the judge gets a third model.
        judge: { name: 'Judge', model: 'qwen2.5' },
      };
    case 'truth':
      return {
        format,
        topic,
        debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
        judge: { name: 'Judge', model: 'qwen2.5' },
      };
  }
}

export async function defaultScenario(format: FormatName, topic: string, cwd: string): Promise<Scenario> {
  const label = path.join(cwd, `(${format} defaults)`);
  return parseScenario(stringify(defaultScenarioData(format, topic)), label, `--format ${format} --topic`);
}
