/** Kendall's tau-b: how far two rankings of the same items agree, with ties allowed in either. */

/** Tau-b of two scores per item (higher is better in both); null below two items or when one ranking ties throughout. */
export function kendallTauB(first: readonly number[], second: readonly number[]): number | null {
  const n = Math.min(first.length, second.length);
  let concordant = 0;
  let discordant = 0;
  let tiedFirst = 0;
  let tiedSecond = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = Math.sign((first[i] ?? 0) - (first[j] ?? 0));
      const b = Math.sign((second[i] ?? 0) - (second[j] ?? 0));
      if (a === 0) tiedFirst += 1;
      if (b === 0) tiedSecond += 1;
      if (a * b > 0) concordant += 1;
      else if (a * b < 0) discordant += 1;
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedFirst) * (pairs - tiedSecond));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}
