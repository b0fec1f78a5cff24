/** The argument map read from a log: links, each claim's status, the debaters' scores. */
import { describe, expect, it } from 'vitest';
import { isIntroduction } from '../../src/agents/introductions.js';
import { argumentMap } from '../../src/analytics/argument-map.js';
import { mapSourceText } from '../../src/analytics/argument-map-words.js';
import { contentWords } from '../../src/analytics/key-sentence-links.js';
import { claims, logOf, scenarioOf, statement, turn } from '../helpers/run-events.js';

describe('the argument map from a claims ledger', () => {
  it('marks each claim open, answered or dropped and scores each debater from the links', async () => {
    const scenario = await scenarioOf('knockout');
    const map = argumentMap(
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'Round one for X.'),
        claims(1, 'Xavier', 'X', [{ claim: 'Cars choke centres.' }, { claim: 'Shops gain footfall.' }]),
        turn(1, 'Yara', 'Y', 'Round one for Y.'),
        claims(1, 'Yara', 'Y', [
          { claim: 'Congestion pricing fixed it.', answers: 'X1.1' },
          { claim: 'Footfall fell in Oslo.', answers: 'X1.2' },
        ]),
        turn(2, 'Xavier', 'X', 'Round two for X.'),
        claims(2, 'Xavier', 'X', [{ claim: 'Pricing only moved the traffic.', answers: 'Y1.1' }]),
        turn(2, 'Yara', 'Y', 'Round two for Y.'),
        claims(2, 'Yara', 'Y', [
          { claim: 'Traffic fell, it did not move.', answers: 'X2.1' },
          { claim: 'Footfall fell in Oslo.', kind: 'restated' },
          // A link to a claim of its own side, or to none that exists, is no link.
          { claim: 'We said so.', answers: 'Y1.2' },
          { claim: 'As nobody said.', answers: 'X9.9' },
        ]),
      ]),
    );
    expect(map?.source).toBe('ledger');
    expect(map?.rows.map((row) => row.title)).toEqual(['Round 1', 'Round 2']);
    const status = Object.fromEntries(map?.claims.map((claim) => [claim.id, claim.status]) ?? []);
    expect(status).toEqual({
      // X answered Y's answer: the exchange went on.
      'X1.1': 'answered',
      // Y answered it, X spoke again and let it go.
      'X1.2': 'dropped',
      'Y1.1': 'answered',
      'Y1.2': 'open',
      // Answered in the last statement: X had no turn left to reply.
      'X2.1': 'answered',
      'Y2.1': 'open',
      'Y2.2': 'open',
      'Y2.3': 'open',
      'Y2.4': 'open',
    });
    expect(map?.edges).toEqual([
      { from: 'Y1.1', to: 'X1.1' },
      { from: 'Y1.2', to: 'X1.2' },
      { from: 'X2.1', to: 'Y1.1' },
      { from: 'Y2.1', to: 'X2.1' },
    ]);
    expect(map?.claims.find((claim) => claim.id === 'X1.1')?.answeredBy).toEqual(['Y1.1']);
    expect(map?.scores).toEqual([
      { speaker: 'Xavier', side: 'X', made: 3, answeredByOther: 3, answersGiven: 1, leftOpen: 0, dropped: 1 },
      // The restated claim is shown, not counted again.
      { speaker: 'Yara', side: 'Y', made: 5, answeredByOther: 1, answersGiven: 3, leftOpen: 4, dropped: 0 },
    ]);
  });

  it('counts a debater who spoke without a readable claim, and says how many statements went unread', async () => {
    const scenario = await scenarioOf('knockout');
    const failed = { ...claims(1, 'Yara', 'Y', []), source: 'failed' } as const;
    const map = argumentMap(
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'Round one for X.'),
        claims(1, 'Xavier', 'X', [{ claim: 'Cars choke centres.' }]),
        turn(1, 'Yara', 'Y', 'Round one for Y.'),
        failed,
      ]),
    );
    expect(map?.unread).toBe(1);
    expect(map?.scores.find((score) => score.speaker === 'Yara')).toMatchObject({ made: 0, answersGiven: 0 });
    // Y had the floor after X's claim and did not answer it: it is open, not answered.
    expect(map?.claims[0]?.status).toBe('open');
  });
});

describe('the argument map from key sentences', () => {
  it("links a formal rebuttal's sentence to the opponent's sentence it shares most words with, never an opening's", async () => {
    const scenario = await scenarioOf('formal');
    const map = argumentMap(
      logOf(scenario, [
        statement(
          1,
          'preparation',
          'Ada',
          'affirmative',
          'Private notes about tram networks and parking revenue.',
        ),
        statement(
          3,
          'opening',
          'Ada',
          'affirmative',
          'Tram networks carry commuters faster than any parking garage.',
        ),
        statement(
          4,
          'opening',
          'Blaise',
          'negative',
          'Parking garages fund tram networks through municipal revenue.',
        ),
        statement(
          5,
          'rebuttal',
          'Ada',
          'affirmative',
          'Municipal revenue from parking garages is shrinking every single year.\n\nWeather patterns matter for cyclists and pedestrians alike.',
        ),
        statement(
          6,
          'rebuttal',
          'Blaise',
          'negative',
          'Commuters still choose the garage when trams are late.',
        ),
      ]),
    );
    expect(map?.source).toBe('key-sentences');
    expect(map?.rows.map((row) => row.key)).toEqual(['opening', 'rebuttal']);
    const answers = Object.fromEntries(map?.claims.map((claim) => [claim.id, claim.answers]) ?? []);
    expect(answers).toEqual({
      // Openings answer nothing, even when they share words (the format shows them nothing).
      'A3.1': null,
      'N4.1': null,
      // "municipal", "revenue", "parking", "garage": the negative's opening.
      'A5.1': 'N4.1',
      // No two shared words with anything: no link.
      'A5.2': null,
      'N6.1': 'A3.1',
    });
    const status = Object.fromEntries(map?.claims.map((claim) => [claim.id, claim.status]) ?? []);
    // The negative spoke again after the affirmative's answer and did not reply to it.
    expect(status['N4.1']).toBe('dropped');
    // Answered in the last statement: the affirmative had no turn left.
    expect(status['A3.1']).toBe('answered');
    // Preparation is private to its side: never on the map.
    expect(map?.claims.some((claim) => claim.text.includes('Private notes'))).toBe(false);
  });

  it('counts arguments, not sentences: no introductions, a repeat merged into its claim, answers to questions, support links', async () => {
    const scenario = await scenarioOf('formal');
    const trams = 'Tram networks carry commuters faster than any parking garage.';
    const map = argumentMap(
      logOf(scenario, [
        // The old rule took the introduction (it has "must") as the opening's claim.
        statement(
          3,
          'opening',
          'Ada',
          'affirmative',
          `I am Ada, and I will argue that trams must replace cars. ${trams}`,
        ),
        statement(
          4,
          'opening',
          'Blaise',
          'negative',
          'Good evening, everyone. Parking garages fund tram networks through municipal revenue.',
        ),
        statement(
          5,
          'rebuttal',
          'Ada',
          'affirmative',
          `${trams}\n\nElectric tram networks also cut roadside pollution near schools.`,
        ),
        statement(
          6,
          'rebuttal',
          'Blaise',
          'negative',
          'Commuters still choose the garage when trams are late.',
        ),
        statement(
          7,
          'cross-question',
          'Ada',
          'affirmative',
          'Why should drivers pay nothing for the kerb space they occupy?',
        ),
        // Not a word in common with the question, and still its answer.
        statement(
          8,
          'cross-answer',
          'Blaise',
          'negative',
          'Because residents already pay council taxes for those roads.',
        ),
        statement(11, 'closing', 'Ada', 'affirmative', trams),
      ]),
    );
    const rows = map?.claims.map((claim) => [
      claim.id,
      claim.text,
      claim.answers,
      claim.supports,
      claim.restatedIn,
      claim.status,
    ]);
    expect(rows).toEqual([
      // Said again word for word in the rebuttal and the closing: one claim, restated there.
      ['A3.1', trams, null, null, ['A5', 'A11'], 'dropped'],
      ['N4.1', 'Parking garages fund tram networks through municipal revenue.', null, null, [], 'dropped'],
      // Shares "tram" and "network" with N4.1 (an answer) and with A3.1 (its own side's: a support).
      [
        'A5.1',
        'Electric tram networks also cut roadside pollution near schools.',
        'N4.1',
        'A3.1',
        [],
        'open',
      ],
      // "commuter", "garage", "tram" with A3.1; "garage", "tram" with its own side's N4.1.
      ['N6.1', 'Commuters still choose the garage when trams are late.', 'A3.1', 'N4.1', [], 'open'],
      ['A7.1', 'Why should drivers pay nothing for the kerb space they occupy?', null, null, [], 'dropped'],
      ['N8.1', 'Because residents already pay council taxes for those roads.', 'A7.1', null, [], 'open'],
    ]);
    expect(map?.edges).toEqual([
      { from: 'A5.1', to: 'N4.1' },
      { from: 'N6.1', to: 'A3.1' },
      { from: 'N8.1', to: 'A7.1' },
    ]);
    expect(map?.supports).toEqual([
      { from: 'A5.1', to: 'A3.1' },
      { from: 'N6.1', to: 'N4.1' },
    ]);
    // Three claims a side, where the sentences were five and three.
    expect(
      map?.scores.map((score) => [
        score.speaker,
        score.made,
        score.answersGiven,
        score.leftOpen,
        score.dropped,
      ]),
    ).toEqual([
      ['Ada', 3, 1, 1, 2],
      ['Blaise', 3, 2, 2, 1],
    ]);
    expect(isIntroduction('I am Blaise, and I will argue that the motion fails.')).toBe(true);
    expect(isIntroduction('Speaking as Ada, I want to make the case for the motion plainly.')).toBe(true);
    expect(isIntroduction('I will argue that cars must go because the air kills.')).toBe(false);
    expect(isIntroduction('As London shows, cars must go.')).toBe(false);
  });

  it("maps a knockout that kept no ledger from its statements' key sentences, each answering the opponent's earlier ones", async () => {
    const scenario = await scenarioOf('knockout');
    const map = argumentMap(
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'Congestion charges cleared London streets within a single year.'),
        turn(1, 'Yara', 'Y', 'London congestion charges hurt small shops more than anyone admits.'),
        turn(2, 'Xavier', 'X', 'Small shops gained customers once pavements were widened.'),
        { ...turn(2, 'Yara', 'Y', 'Emergency text.'), degraded: true } as ReturnType<typeof turn>,
      ]),
    );
    expect(map?.source).toBe('key-sentences');
    expect(map?.claims.map((claim) => [claim.id, claim.answers])).toEqual([
      ['X1.1', null],
      ['Y1.1', 'X1.1'],
      ['X2.1', 'Y1.1'],
    ]);
    // The emergency statement is the engine's text: no claims, counted as unread.
    expect(map?.unread).toBe(1);
    expect(map ? mapSourceText(map) : '').toContain('could not be read');
  });

  it('says so when a ledger holds key sentences rather than a note-taker’s claims', async () => {
    const scenario = await scenarioOf('knockout');
    const heuristic = {
      ...claims(1, 'Xavier', 'X', [{ claim: 'A key sentence.' }]),
      source: 'heuristic',
    } as const;
    const map = argumentMap(
      logOf(scenario, [
        turn(1, 'Xavier', 'X', 'A key sentence.'),
        heuristic,
        turn(1, 'Yara', 'Y', 'Round one for Y.'),
        claims(1, 'Yara', 'Y', [{ claim: 'Congestion pricing fixed it.' }]),
      ]),
    );
    expect(map?.source).toBe('ledger');
    expect(map?.unlinked).toBe(1);
    expect(map ? mapSourceText(map) : '').toContain('For 1 statement the ledger holds key sentences instead');
  });

  it('does not call a ledger of key sentences only a note-taker’s, and gives a statement left without claims its key sentences', async () => {
    const scenario = await scenarioOf('knockout');
    const xavier = 'Congestion charges cleared London streets within a single year.';
    const yara = 'London congestion charges hurt small shops more than anyone admits.';
    const heuristic = { ...claims(1, 'Xavier', 'X', [{ claim: xavier }]), source: 'heuristic' } as const;
    const keySentences = argumentMap(logOf(scenario, [turn(1, 'Xavier', 'X', xavier), heuristic]));
    expect(keySentences?.source).toBe('key-sentences');
    expect(keySentences ? mapSourceText(keySentences) : '').not.toContain(
      'claims ledger: after each statement',
    );
    // A log written when every quote of an answer could be dropped: the statement is not left empty.
    const emptied = argumentMap(
      logOf(scenario, [
        turn(1, 'Xavier', 'X', xavier),
        claims(1, 'Xavier', 'X', [{ claim: xavier }]),
        turn(1, 'Yara', 'Y', yara),
        claims(1, 'Yara', 'Y', []),
      ]),
    );
    expect(emptied?.source).toBe('ledger');
    expect(emptied?.claims.map((claim) => [claim.id, claim.text])).toEqual([
      ['X1.1', xavier],
      ['Y1.1', yara],
    ]);
    expect(emptied?.unlinked).toBe(1);
  });

  it('ignores short and common words and the motion’s own words when it compares wording', () => {
    expect([
      ...contentWords(
        'The cars cannot ban private centres because buses are faster',
        contentWords('ban private cars from city centres'),
      ),
    ]).toEqual(['buse', 'faster']);
  });

  it('has no map for a format without two sides', async () => {
    const scenario = await scenarioOf('critique');
    expect(argumentMap(logOf(scenario, []))).toBeNull();
  });
});
