/** The run page's map before the run's log has its start: "No claims yet", never "no two sides". */
import { describe, expect, it } from 'vitest';
import { argumentPanels } from '../../src/web/argument-map-html.js';
import { logOf, scenarioOf, turn } from '../helpers/run-events.js';

describe('the argument map of a debate that has not started', () => {
  it('says there are no claims yet while the log is empty, and "no two sides" only for a format without them', async () => {
    expect(argumentPanels([]).map).toContain('No claims yet.');
    expect(argumentPanels([]).map).not.toContain('no two sides');
    const knockout = logOf(await scenarioOf('knockout'), [turn(1, 'Xavier', 'X', 'Cities breathe.')]);
    expect(argumentPanels(knockout).map).not.toContain('no two sides');
    const critique = logOf(await scenarioOf('critique'), []);
    expect(argumentPanels(critique).map).toContain('This format has no two sides to map.');
  });
});
