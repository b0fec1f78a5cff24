/**
 * Cohen's kappa: how far two raters agree beyond what their own answer rates would give by chance,
 * for nominal answers. 1 is agreement throughout, 0 no better than chance, below 0 worse.
 */

/** Kappa over the pairs of answers the two raters gave to the same items; null when it is not defined. */
export function cohenKappa(pairs: ReadonlyArray<readonly [string, string]>): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let agreeing = 0;
  for (const [a, b] of pairs) {
    if (a === b) agreeing += 1;
    first.set(a, (first.get(a) ?? 0) + 1);
    second.set(b, (second.get(b) ?? 0) + 1);
  }
  let expected = 0;
  for (const [answer, count] of first) expected += (count / n) * ((second.get(answer) ?? 0) / n);
  // Both raters always giving the one same answer leaves nothing for chance to be corrected against.
  if (1 - expected < 1e-12) return null;
  return (agreeing / n - expected) / (1 - expected);
}

/** Landis and Koch's (1977) words for a kappa, for a report that says what the number means. */
export function kappaWords(kappa: number): string {
  if (kappa < 0) return 'worse than chance';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}
