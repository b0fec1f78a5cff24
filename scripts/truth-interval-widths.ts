/**
 * `npx tsx scripts/truth-interval-widths.ts`: the 95% interval half-widths a truth run gets at 100,
 * 400 and 1,000 questions, computed with the functions `show` uses (docs/truth.md quotes them): a
 * condition's accuracy near 50% (Wilson, on questions); a paired difference of zero decided by 40%
 * of the questions, 20% each way (Newcombe); and the same difference with four questions to a
 * passage, by the bootstrap over passages, once with each passage's questions shuffled in at random
 * and once with a passage's four questions all going the same way (the worst case).
 */
import { clusteredDifference } from '../src/analytics/clustered-difference.js';
import { createRandomStream } from '../src/analytics/random-stream.js';
import { accuracyInterval, pairedDifference } from '../src/analytics/truth-accuracy.js';

const points = (low: number, high: number) => `±${((100 * (high - low)) / 2).toFixed(1)}`;

/** `n` paired verdicts: 20% right only first, 20% only second, the rest right under both or neither. */
function pairsOf(n: number): Array<[boolean, boolean]> {
  const split = Math.round(n * 0.2);
  const rest = n - 2 * split;
  return [
    ...Array.from({ length: split }, (): [boolean, boolean] => [true, false]),
    ...Array.from({ length: split }, (): [boolean, boolean] => [false, true]),
    ...Array.from({ length: Math.ceil(rest / 2) }, (): [boolean, boolean] => [true, true]),
    ...Array.from({ length: Math.floor(rest / 2) }, (): [boolean, boolean] => [false, false]),
  ];
}

const lines = [
  '| Questions | Accuracy near 50% | Difference, questions independent | Passages of four, questions mixed | Passages of four, deciding together |',
  '|---|---|---|---|---|',
];
for (const n of [100, 400, 1000]) {
  const accuracy = accuracyInterval(n / 2, n);
  const pairs = pairsOf(n);
  const paired = pairedDifference(pairs);
  // In order, four consecutive pairs share a passage: a passage's questions go the same way.
  const together = clusteredDifference(
    pairs.map(([first, second], at) => ({ cluster: `p${Math.floor(at / 4)}`, first, second })),
    { seed: 1 },
  );
  const random = createRandomStream(7);
  const order = pairs.map((_, at) => at);
  for (let at = order.length - 1; at > 0; at -= 1) {
    const other = Math.floor(random() * (at + 1));
    [order[at], order[other]] = [order[other] as number, order[at] as number];
  }
  const mixed = clusteredDifference(
    order.map((from, at) => {
      const [first, second] = pairs[from] as [boolean, boolean];
      return { cluster: `p${Math.floor(at / 4)}`, first, second };
    }),
    { seed: 1 },
  );
  if (!accuracy || !paired || !together || !mixed) throw new Error('no interval');
  lines.push(
    `| ${n.toLocaleString('en')} | ${points(accuracy.low, accuracy.high)} | ${points(paired.low, paired.high)} | ${points(mixed.low, mixed.high)} | ${points(together.low, together.high)} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
