/** Which stop conditions a scenario puts in force, in words, for `validate`, a run's start and its transcript. */

import { plural } from '../core/plural.js';
import { describeStopConditions } from '../core/stop-conditions.js';
import type { Scenario } from './scenario.js';

function roundsOf(scenario: Scenario): string {
  switch (scenario.format) {
    case 'knockout':
      return `${plural(scenario.debate.rounds, 'round')} (or the rotation rules)`;
    case 'duel':
      return plural(scenario.max_rounds, 'round');
    case 'critique':
      return `${plural(scenario.rounds, 'round')} (or the judge's confidence)`;
    case 'formal':
      return 'the end of the closing speeches';
    case 'council':
      return 'the Final Packet (the budget cuts model states, never the packet)';
    default:
      return 'the format’s end';
  }
}

export function stopConditionsText(scenario: Scenario): string {
  // The council never stops on failures (seed 003 §3): a failing role is recorded and it goes on.
  return describeStopConditions(scenario, roundsOf(scenario), {
    failureLimit: scenario.format !== 'council',
  });
}
