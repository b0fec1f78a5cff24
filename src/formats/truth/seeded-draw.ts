/** A seeded source of the generators' choices: the same seed string gives the same draws. */
import seedrandom from 'seedrandom';

export interface Draw {
  /** A whole number from `low` to `high`, both included. */
  int(low: number, high: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` different items of `items`, in drawn order. */
  some<T>(items: readonly T[], count: number): T[];
}

export function draw(seed: string): Draw {
  const next = seedrandom(seed);
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  return {
    int,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    some: (items, count) => {
      const left = [...items];
      const chosen: (typeof items)[number][] = [];
      while (chosen.length < count && left.length > 0) {
        chosen.push(left.splice(int(0, left.length - 1), 1)[0] as (typeof items)[number]);
      }
      return chosen;
    },
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const DAY_MS = 86_400_000;

/** A day as "March 3, 2026", from a UTC day count in milliseconds. */
export function dateText(date: Date): string {
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** The UTC midnight `days` days after `from`. */
export function daysAfter(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** A drawn day between 2019 and 2031 (day 1-28, so every month has it). */
export function drawDay(d: Draw): Date {
  return new Date(Date.UTC(d.int(2019, 2031), d.int(0, 11), d.int(1, 28)));
}
