/**
 * The style differences the style-controlled rating holds constant, first side minus second:
 *
 * - **length**: log2 of the ratio of output tokens per statement (first over second), so its
 *   coefficient is the change in log-odds of winning for speaking twice as long, the same whichever
 *   side is longer and whatever the debates' typical length. A side with no tokens counts as one.
 * - **markdown**: the difference in markdown elements (headings, list items, bold or italic spans)
 *   per statement; its coefficient is the change in log-odds per extra element per statement.
 *
 * Neither is standardised, so the coefficients read in those units; a feature that is not a finite
 * number on either side contributes no difference for that debate.
 */
import type { TournamentMatch } from './tournament-match.js';

/** A style covariate's name and the unit its coefficient is in. */
export interface StyleCovariate {
  name: 'length' | 'markdown';
  unit: string;
}

/** The covariates, in the order {@link styleDifferences} gives them. */
export const STYLE_COVARIATES: readonly StyleCovariate[] = [
  { name: 'length', unit: 'log-odds per doubling of tokens per statement' },
  { name: 'markdown', unit: 'log-odds per markdown element per statement' },
];

const finiteOr = (value: number, fallback: number) => (Number.isFinite(value) ? value : fallback);

/** [length, markdown] differences of one debate, first side minus second. */
export function styleDifferences(style: TournamentMatch['style']): [number, number] {
  const firstTokens = style.first.tokensPerStatement;
  const secondTokens = style.second.tokensPerStatement;
  const length =
    Number.isFinite(firstTokens) && Number.isFinite(secondTokens)
      ? Math.log2(Math.max(firstTokens, 1) / Math.max(secondTokens, 1))
      : 0;
  const markdown = finiteOr(style.first.markdownPerStatement - style.second.markdownPerStatement, 0);
  return [length, markdown];
}
