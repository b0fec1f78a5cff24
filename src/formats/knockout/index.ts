/** The knockout challenge (seed 004) as a format the runner can drive. */
import type { FormatDefinition } from '../../core/format.js';
import { executeKnockoutStep } from './executor.js';
import { nextKnockoutStep } from './planner.js';
import { foldKnockout, type KnockoutState } from './state.js';
import type { KnockoutStep } from './steps.js';

export const knockoutFormat: FormatDefinition<KnockoutState, KnockoutStep> = {
  name: 'knockout',
  fold: foldKnockout,
  next: nextKnockoutStep,
  execute: executeKnockoutStep,
  isFinished: (state) => state.end !== null,
};
