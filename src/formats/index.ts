/** The formats a scenario can name, by its `format:`: the registry every entry point runs them from. */
import { councilFormat } from './council/index.js';
import { critiqueFormat } from './critique/index.js';
import { duelFormat } from './duel/index.js';
import { foldingWithoutChain } from './fold-without-chain.js';
import { formalFormat } from './formal/index.js';
import type { AnyFormat } from './format-definition.js';
import { knockoutFormat } from './knockout/index.js';
import { withTokenUsage } from './token-usage-report.js';
import { truthFormat } from './truth/index.js';

const FORMATS: Record<string, AnyFormat> = {
  knockout: foldingWithoutChain(withTokenUsage(knockoutFormat)) as unknown as AnyFormat,
  duel: foldingWithoutChain(withTokenUsage(duelFormat)) as unknown as AnyFormat,
  formal: foldingWithoutChain(withTokenUsage(formalFormat)) as unknown as AnyFormat,
  critique: foldingWithoutChain(withTokenUsage(critiqueFormat)) as unknown as AnyFormat,
  council: foldingWithoutChain(withTokenUsage(councilFormat)) as unknown as AnyFormat,
  truth: foldingWithoutChain(withTokenUsage(truthFormat)) as unknown as AnyFormat,
};

export function formatNamed(name: string): AnyFormat | undefined {
  return Object.hasOwn(FORMATS, name) ? FORMATS[name] : undefined;
}

/** The names of every format, in the order they are offered. */
export function formatNames(): string[] {
  return Object.keys(FORMATS);
}
