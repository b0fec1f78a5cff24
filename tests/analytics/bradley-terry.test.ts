import { describe, expect, it } from 'vitest';
import { bradleyTerry, type Match } from '../../src/analytics/bradley-terry.js';

const times = (count: number, match: Match): Match[] => Array.from({ length: count }, () => ({ ...match }));

// Reference ratings from an independent Newton solve of the same objective (one virtual tie per player
// against a strength-1 opponent, ratings = 400 log10 s centred on 1500).
const league: Match[] = [
  ...times(3, { a: 'alice', b: 'bob', winner: 'a' }),
  { a: 'alice', b: 'bob', winner: 'b' },
  ...times(2, { a: 'alice', b: 'carol', winner: 'tie' }),
  ...times(2, { a: 'carol', b: 'dave', winner: 'a' }),
  { a: 'dave', b: 'bob', winner: 'a' },
  { a: 'bob', b: 'dave', winner: 'a' },
  { a: 'alice', b: 'dave', winner: 'a' },
  { a: 'carol', b: 'bob', winner: 'a' },
  { a: 'bob', b: 'carol', winner: 'tie' },
];

const byPlayer = (rows: ReturnType<typeof bradleyTerry>) => new Map(rows.map((row) => [row.player, row]));

describe('bradleyTerry', () => {
  it('returns nothing without matches', () => {
    expect(bradleyTerry([])).toEqual([]);
  });

  it('matches reference maximum a posteriori ratings, counting ties as half wins', () => {
    const rows = byPlayer(bradleyTerry(league, { bootstrap: 0 }));
    expect(rows.get('alice')?.rating).toBeCloseTo(1617.664374, 4);
    expect(rows.get('bob')?.rating).toBeCloseTo(1414.814221, 4);
    expect(rows.get('carol')?.rating).toBeCloseTo(1635.421398, 4);
    expect(rows.get('dave')?.rating).toBeCloseTo(1332.100007, 4);
  });

  it('sorts best first, centres ratings on 1500 and reports each record', () => {
    const rows = bradleyTerry(league, { bootstrap: 50 });
    expect(rows.map((row) => row.player)).toEqual(['carol', 'alice', 'bob', 'dave']);
    const mean = rows.reduce((total, row) => total + row.rating, 0) / rows.length;
    expect(mean).toBeCloseTo(1500, 9);
    expect(
      rows.map(({ player, wins, losses, ties, matches }) => ({ player, wins, losses, ties, matches })),
    ).toEqual([
      { player: 'carol', wins: 3, losses: 0, ties: 3, matches: 6 },
      { player: 'alice', wins: 4, losses: 1, ties: 2, matches: 7 },
      { player: 'bob', wins: 2, losses: 5, ties: 1, matches: 8 },
      { player: 'dave', wins: 1, losses: 4, ties: 0, matches: 5 },
    ]);
  });

  it('ranks a player who beats everyone first', () => {
    const others = ['b', 'c', 'd', 'e'];
    const matches: Match[] = others.map((other) => ({ a: other, b: 'champ', winner: 'b' }));
    for (let i = 0; i < others.length; i++) {
      for (let j = i + 1; j < others.length; j++) {
        matches.push({ a: others[i] ?? '', b: others[j] ?? '', winner: (i + j) % 2 === 0 ? 'a' : 'b' });
      }
    }
    const rows = bradleyTerry(matches, { bootstrap: 20 });
    expect(rows[0]?.player).toBe('champ');
    expect(rows[0]?.wins).toBe(4);
    expect(rows[0]?.losses).toBe(0);
    expect(Number.isFinite(rows[0]?.rating)).toBe(true);
    for (const row of rows.slice(1)) expect(row.rating).toBeLessThan(rows[0]?.rating ?? 0);
  });

  it('keeps unbeaten and winless players finite', () => {
    const rows = byPlayer(bradleyTerry(times(50, { a: 'x', b: 'y', winner: 'a' }), { bootstrap: 10 }));
    const x = rows.get('x');
    const y = rows.get('y');
    expect(Number.isFinite(x?.rating)).toBe(true);
    expect(Number.isFinite(y?.rating)).toBe(true);
    expect(x?.rating).toBeGreaterThan(y?.rating ?? Number.POSITIVE_INFINITY);
    // The two ratings mirror each other around 1500.
    expect((x?.rating ?? 0) + (y?.rating ?? 0)).toBeCloseTo(3000, 6);
  });

  it('gives symmetric players equal ratings', () => {
    const cycle = bradleyTerry(
      [
        { a: 'p', b: 'q', winner: 'a' },
        { a: 'q', b: 'r', winner: 'a' },
        { a: 'r', b: 'p', winner: 'a' },
      ],
      { bootstrap: 0 },
    );
    for (const row of cycle) expect(row.rating).toBeCloseTo(1500, 9);

    const drawn = bradleyTerry(times(4, { a: 'u', b: 'v', winner: 'tie' }), { bootstrap: 0 });
    expect(drawn.map((row) => row.rating)).toEqual([1500, 1500]);
    expect(drawn.map((row) => row.ties)).toEqual([4, 4]);
  });

  it('puts disconnected groups on one finite scale', () => {
    const matches = [
      ...times(3, { a: 'A', b: 'B', winner: 'a' }),
      ...times(3, { a: 'C', b: 'D', winner: 'a' }),
    ];
    const list = bradleyTerry(matches, { bootstrap: 30 });
    // Equal ratings are listed by name.
    expect(list.map((row) => row.player)).toEqual(['A', 'C', 'B', 'D']);
    const rows = byPlayer(list);
    for (const row of rows.values()) {
      expect(Number.isFinite(row.rating)).toBe(true);
      expect(Number.isFinite(row.low)).toBe(true);
      expect(Number.isFinite(row.high)).toBe(true);
    }
    expect(rows.get('A')?.rating).toBeCloseTo(rows.get('C')?.rating ?? 0, 9);
    expect(rows.get('B')?.rating).toBeCloseTo(rows.get('D')?.rating ?? 0, 9);
    expect(rows.get('A')?.rating).toBeGreaterThan(rows.get('B')?.rating ?? Number.POSITIVE_INFINITY);
  });

  it('lists a player who only met themselves at 1500 with an empty record', () => {
    expect(bradleyTerry([{ a: 'solo', b: 'solo', winner: 'a' }])).toEqual([
      { player: 'solo', rating: 1500, low: 1500, high: 1500, wins: 0, losses: 0, ties: 0, matches: 0 },
    ]);
  });

  it('is deterministic for a seed and varies the interval with the seed', () => {
    const first = bradleyTerry(league, { seed: 42 });
    const again = bradleyTerry(league, { seed: 42 });
    const other = bradleyTerry(league, { seed: 43 });
    expect(again).toEqual(first);
    expect(other.map((row) => row.rating)).toEqual(first.map((row) => row.rating));
    expect(other.map((row) => [row.low, row.high])).not.toEqual(first.map((row) => [row.low, row.high]));
  });

  it('gives intervals that contain the rating and collapse without resampling', () => {
    for (const row of bradleyTerry(league)) {
      expect(row.low).toBeLessThanOrEqual(row.rating);
      expect(row.high).toBeGreaterThanOrEqual(row.rating);
      expect(row.high).toBeGreaterThan(row.low);
    }
    for (const row of bradleyTerry(league, { bootstrap: 0 })) {
      expect(row.low).toBe(row.rating);
      expect(row.high).toBe(row.rating);
    }
  });

  it('narrows intervals with a lower level and with more evidence', () => {
    const wide = byPlayer(bradleyTerry(league, { level: 0.95 }));
    const narrow = byPlayer(bradleyTerry(league, { level: 0.5 }));
    const more = byPlayer(bradleyTerry(Array.from({ length: 10 }, () => league).flat()));
    for (const [player, row] of wide) {
      const width = row.high - row.low;
      const narrowRow = narrow.get(player);
      const moreRow = more.get(player);
      expect((narrowRow?.high ?? 0) - (narrowRow?.low ?? 0)).toBeLessThan(width);
      expect((moreRow?.high ?? 0) - (moreRow?.low ?? 0)).toBeLessThan(width);
    }
  });

  it('rejects invalid options and results', () => {
    expect(() => bradleyTerry(league, { bootstrap: -1 })).toThrow(RangeError);
    expect(() => bradleyTerry(league, { bootstrap: 1.5 })).toThrow(RangeError);
    expect(() => bradleyTerry(league, { level: 1 })).toThrow(RangeError);
    expect(() => bradleyTerry(league, { seed: Number.NaN })).toThrow(RangeError);
    const bad = [{ a: 'x', b: 'y', winner: 'draw' }] as unknown as Match[];
    expect(() => bradleyTerry(bad)).toThrow(RangeError);
  });
});
