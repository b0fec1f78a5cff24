/**
 * The formal debate's fixed order (seed 001, requirement 3): preparation, opening statements,
 * rebuttals, cross-examination, closing statements, then an optional verdict.
 */
import type { FormalSide } from '../../config/formal-sides.js';

export interface PlannedStatement {
  kind: 'speak';
  index: number;
  phase: 'preparation' | 'opening' | 'rebuttal' | 'cross-question' | 'cross-answer' | 'closing';
  side: FormalSide;
}

export const PHASE_TITLES: Record<PlannedStatement['phase'], string> = {
  preparation: 'Preparation',
  opening: 'Opening statements',
  rebuttal: 'Rebuttals',
  'cross-question': 'Cross-examination',
  'cross-answer': 'Cross-examination',
  closing: 'Closing statements',
};

const ORDER: Array<Omit<PlannedStatement, 'kind' | 'index'>> = [
  { phase: 'preparation', side: 'affirmative' },
  { phase: 'preparation', side: 'negative' },
  { phase: 'opening', side: 'affirmative' },
  { phase: 'opening', side: 'negative' },
  { phase: 'rebuttal', side: 'affirmative' },
  { phase: 'rebuttal', side: 'negative' },
  // Affirmative asks, negative answers; negative asks, affirmative answers.
  { phase: 'cross-question', side: 'affirmative' },
  { phase: 'cross-answer', side: 'negative' },
  { phase: 'cross-question', side: 'negative' },
  { phase: 'cross-answer', side: 'affirmative' },
  { phase: 'closing', side: 'affirmative' },
  { phase: 'closing', side: 'negative' },
];

export const FORMAL_PLAN: PlannedStatement[] = ORDER.map((item, index) => ({
  kind: 'speak',
  index,
  ...item,
}));

export function opposite(side: FormalSide): FormalSide {
  return side === 'affirmative' ? 'negative' : 'affirmative';
}
