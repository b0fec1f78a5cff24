/** Small valid scenarios for tests, as YAML text. */
import { stringify } from 'yaml';

export interface TestScenarioOptions {
  rounds?: number;
  yCount?: number;
  seed?: number;
  threshold?: number;
  limit?: number;
  contextWindow?: number;
  maxTokens?: number;
  secondsPerSide?: number;
  extra?: Record<string, unknown>;
}

export const Y_NAMES = ['Yara', 'Yusuf', 'Yvonne', 'Yannick', 'Yoko', 'Yael'];

export function testScenario(options: TestScenarioOptions = {}): Record<string, unknown> {
  const yCount = options.yCount ?? 4;
  return {
    topic: 'Should cities ban cars from their centres?',
    positions: { x: 'Car-free', y: 'Car-friendly' },
    seed: options.seed ?? 11,
    background: { knowledge: { key_concepts: ['congestion pricing', 'air quality', 'retail footfall'] } },
    agents: [
      { name: 'Xavier', position: 'X', model: 'llama3', role: 'You argue for car-free city centres.' },
      ...Y_NAMES.slice(0, yCount).map((name) => ({
        name,
        position: 'Y',
        model: 'mistral',
        role: `You are ${name} and defend access by car to city centres.`,
      })),
    ],
    debate: { rounds: options.rounds ?? 6, starting_position: 'X' },
    rotation: { threshold: options.threshold ?? 2, limit: options.limit ?? 3 },
    timer: { seconds_per_side: options.secondsPerSide ?? 300, tokens_per_second: 3.75 },
    model_options: {
      temperature: 0.7,
      max_tokens: options.maxTokens ?? 1024,
      context_window: options.contextWindow ?? 8192,
    },
    ...options.extra,
  };
}

export function testScenarioYaml(options: TestScenarioOptions = {}): string {
  return stringify(testScenario(options));
}
