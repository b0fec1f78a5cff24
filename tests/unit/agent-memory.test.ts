/**
 * What a debater's memory tells it: each claim once, its own points even when the ledger holds none
 * of them, and that it has not spoken only when it has not.
 */
import { describe, expect, it } from 'vitest';
import {
  addClaims,
  describeLedgerMemory,
  type LedgerClaim,
  memoryFromLedger,
} from '../../src/agents/claims-ledger.js';
import { buildMemory, describeMemory } from '../../src/agents/memory.js';
import type { ClaimsEvent } from '../../src/core/events.js';

function event(
  round: number,
  agent: string,
  position: 'X' | 'Y',
  claims: ClaimsEvent['claims'],
): ClaimsEvent {
  return {
    type: 'claims',
    round,
    agent,
    position,
    source: 'model',
    claims,
    promptTokens: 0,
    promptChars: 0,
    outputTokens: 0,
    realMs: 0,
    attempts: 1,
  };
}

const NOT_SPOKEN = 'You have not spoken yet';

describe('memory from the ledger', () => {
  it('lists a rebutted claim once, among the rebutted ones', () => {
    let ledger: LedgerClaim[] = [];
    ledger = addClaims(
      ledger,
      event(1, 'Xavier', 'X', [
        { claim: 'Cars choke centres.', kind: 'new', answers: null },
        { claim: 'Shops gain footfall.', kind: 'new', answers: null },
      ]),
    );
    ledger = addClaims(
      ledger,
      event(1, 'Yara', 'Y', [{ claim: 'Oslo lost shoppers.', kind: 'new', answers: 'X1.2' }]),
    );
    const text = describeLedgerMemory(memoryFromLedger(ledger, 'Xavier', 'X'));
    expect(text.split('Shops gain footfall.')).toHaveLength(2);
    expect(text).toMatch(/rebutted[^\n]*:\n- Xavier, round 1: "Shops gain footfall\."/);
    expect(text).toMatch(/Claims you have made so far[^\n]*:\n- Xavier, round 1: "Cars choke centres\."/);
    expect(text).toContain('Yara, round 1: "Oslo lost shoppers."');
  });

  it('names the open claims left "other" when the most pressing one was taken out to be the focus', () => {
    const ledger = addClaims(
      [],
      event(1, 'Yara', 'Y', [
        { claim: 'Oslo lost shoppers.', kind: 'new', answers: null },
        { claim: 'Deliveries take longer.', kind: 'new', answers: null },
      ]),
    );
    const memory = memoryFromLedger(ledger, 'Xavier', 'X');
    const [focus, ...others] = memory.openOpponentClaims;
    const text = describeLedgerMemory(
      { ...memory, openOpponentClaims: others },
      Number.POSITIVE_INFINITY,
      { hasSpoken: false, ownKeySentences: [] },
      true,
    );
    expect(text).toMatch(
      /^Your opponent's other claims that your side has not answered yet:\n- Yara, round 1: "/,
    );
    expect(text).not.toContain(focus?.claim ?? '(none)');
    expect(describeLedgerMemory(memory)).toMatch(/^Your opponent's strongest claims/);
  });

  it('without a claim of its own in the ledger, a debater who has spoken is reminded of its key sentences', () => {
    const empty = memoryFromLedger([], 'Xavier', 'X');
    const spoken = describeLedgerMemory(empty, Number.POSITIVE_INFINITY, {
      hasSpoken: true,
      ownKeySentences: ['Congestion charges cut traffic by a fifth in Stockholm.'],
    });
    expect(spoken).toContain('Points you have made so far');
    expect(spoken).toContain('- Congestion charges cut traffic by a fifth in Stockholm.');
    expect(spoken).not.toContain(NOT_SPOKEN);
    // Nothing to list, or no room for it: still not told it has not spoken.
    const nothing = describeLedgerMemory(empty, 10, {
      hasSpoken: true,
      ownKeySentences: ['A long sentence that does not fit.'],
    });
    expect(nothing).not.toContain(NOT_SPOKEN);
    expect(nothing).toMatch(/already spoken/);
    // Only a debater that has not spoken hears it.
    expect(
      describeLedgerMemory(empty, Number.POSITIVE_INFINITY, { hasSpoken: false, ownKeySentences: [] }),
    ).toContain(NOT_SPOKEN);
  });
});

describe('memory from key sentences', () => {
  it('tells a debater whose statements gave no key sentence that it has spoken', () => {
    const memory = buildMemory('Xavier', 'X', [{ round: 1, agent: 'Xavier', position: 'X', text: 'Yes.' }]);
    expect(describeMemory(memory)).not.toContain(NOT_SPOKEN);
    expect(describeMemory(memory, true)).toMatch(/already spoken/);
    expect(describeMemory(buildMemory('Xavier', 'X', []))).toContain(NOT_SPOKEN);
  });
});
