/** One small scenario per format for end-to-end tests, with `llama3` and `mistral` on opposite sides. */
import { testScenario } from './scenario.js';

type Json = Record<string, unknown>;

/** Fast retries, so fault tests take milliseconds, not seconds. */
export const FAST_RETRIES = {
  attempts: 2,
  backoff_ms: 5,
  max_backoff_ms: 10,
  request_timeout_seconds: 60,
  max_consecutive_failures: 3,
};

/** Each format's smallest useful debate; `mistral` is one side (or role), `llama3` the rest. */
export const SMALL_SCENARIOS: Record<string, (extra?: Json) => Json> = {
  knockout: (extra = {}) => ({ ...testScenario({ rounds: 2 }), ...extra }),
  duel: (extra = {}) => ({
    format: 'duel',
    topic: 'Remote work is better than the office',
    seed: 5,
    debaters: { a: { name: 'Ada', model: 'llama3' }, b: { name: 'Blaise', model: 'mistral' } },
    judge: { name: 'Judge', model: 'llama3' },
    max_rounds: 2,
    stop: { judge_early_stop: false },
    ...extra,
  }),
  formal: (extra = {}) => ({
    format: 'formal',
    topic: 'This house would ban private cars from city centres',
    seed: 3,
    debaters: [
      { name: 'Ada', model: 'llama3' },
      { name: 'Blaise', model: 'mistral' },
    ],
    ...extra,
  }),
  critique: (extra = {}) => ({
    format: 'critique',
    topic: 'Design a cache for product pages',
    seed: 3,
    agents: [
      { name: 'Ada', role: 'architect', model: 'llama3' },
      { name: 'Per', role: 'performance', model: 'mistral' },
    ],
    judge: { model: 'llama3' },
    rounds: 1,
    ...extra,
  }),
  council: (extra = {}) => ({
    format: 'council',
    topic: 'Should we move the billing database to PostgreSQL?',
    seed: 3,
    constraints: ['30 minutes of downtime at most'],
    participants: {
      proponent: { model: 'llama3' },
      critic: { model: 'mistral' },
      analyst: { model: 'llama3' },
      synthesizer: { model: 'llama3' },
      judge: { model: 'llama3' },
    },
    ...extra,
  }),
};
