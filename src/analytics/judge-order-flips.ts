/**
 * Per judge model, from its readings of tournament debates: how often it contradicts itself when
 * the sides are presented the other way round, and how often it agrees with the rest of the panel.
 *
 * - **Order flip.** A reading asked both ways (`swapped` not null) is a side-swapped pair. It is a
 *   flip when one way picks the first side and the other the second: the judge followed the order,
 *   not the debate. A tie one way and a side the other is not a flip (a disagreement within a tie);
 *   it is counted apart as a half flip. Rate = flips / side-swapped pairs, ties included.
 * - **Panel agreement.** A reading's verdict is its two answers together: first +1, second −1, tie
 *   0, summed; the sign is the verdict (so a flip reads as a tie, and a tie one way leans to the
 *   side picked the other way). For each judged unit (`unit`, else the whole debate), each reading
 *   is compared with the verdict held by a strict majority of the unit's readings by other judge
 *   models; a unit with no such majority is left out for that reading.
 *   Agreement = agreeing readings / compared readings.
 */
import type { JudgeReading, SideChoice, TournamentMatch } from './tournament-match.js';

/** One judge model's consistency under side swap and agreement with the other judges. */
export interface JudgeConsistency {
  judgeModel: string;
  readings: number;
  /** Readings asked both ways round. */
  swappedPairs: number;
  /** Side-swapped pairs answered first one way and second the other. */
  orderFlips: number;
  /** Side-swapped pairs answered with a tie one way and a side the other. */
  halfFlips: number;
  /** orderFlips / swappedPairs; null without side-swapped pairs. */
  orderFlipRate: number | null;
  /** Readings compared with a majority of the other judges on the same unit. */
  panelCompared: number;
  panelAgreed: number;
  /** panelAgreed / panelCompared; null when nothing was compared. */
  panelAgreement: number | null;
}

const sideValue = (choice: SideChoice): number => (choice === 'first' ? 1 : choice === 'second' ? -1 : 0);

/** A reading's verdict from both its answers: the sign of their sum. */
export function readingVerdict(reading: JudgeReading): SideChoice {
  const total = sideValue(reading.inOrder) + (reading.swapped === null ? 0 : sideValue(reading.swapped));
  return total > 0 ? 'first' : total < 0 ? 'second' : 'tie';
}

/** Per judge model, sorted by name. */
export function judgeConsistency(matches: readonly TournamentMatch[]): JudgeConsistency[] {
  const tallies = new Map<string, JudgeConsistency>();
  const tallyOf = (judgeModel: string) => {
    let tally = tallies.get(judgeModel);
    if (!tally) {
      tally = {
        judgeModel,
        readings: 0,
        swappedPairs: 0,
        orderFlips: 0,
        halfFlips: 0,
        orderFlipRate: null,
        panelCompared: 0,
        panelAgreed: 0,
        panelAgreement: null,
      };
      tallies.set(judgeModel, tally);
    }
    return tally;
  };
  for (const match of matches) {
    const units = new Map<string, JudgeReading[]>();
    for (const reading of match.readings) {
      const tally = tallyOf(reading.judgeModel);
      tally.readings += 1;
      if (reading.swapped !== null) {
        tally.swappedPairs += 1;
        const product = sideValue(reading.inOrder) * sideValue(reading.swapped);
        if (product < 0) tally.orderFlips += 1;
        else if (product === 0 && reading.inOrder !== reading.swapped) tally.halfFlips += 1;
      }
      const unit = reading.unit ?? '';
      units.set(unit, [...(units.get(unit) ?? []), reading]);
    }
    for (const readings of units.values()) {
      for (const reading of readings) {
        const others = readings
          .filter((other) => other.judgeModel !== reading.judgeModel)
          .map(readingVerdict);
        const majority = (['first', 'second', 'tie'] as const).find(
          (verdict) => others.filter((other) => other === verdict).length * 2 > others.length,
        );
        if (majority === undefined) continue;
        const tally = tallyOf(reading.judgeModel);
        tally.panelCompared += 1;
        if (readingVerdict(reading) === majority) tally.panelAgreed += 1;
      }
    }
  }
  return [...tallies.values()]
    .map((tally) => ({
      ...tally,
      orderFlipRate: tally.swappedPairs === 0 ? null : tally.orderFlips / tally.swappedPairs,
      panelAgreement: tally.panelCompared === 0 ? null : tally.panelAgreed / tally.panelCompared,
    }))
    .sort((x, y) => (x.judgeModel < y.judgeModel ? -1 : x.judgeModel > y.judgeModel ? 1 : 0));
}
