/**
 * A format's state is a fold over what happened, not over how the log stores it: the hash chain's
 * `prev` and `hash` (store/event-chain.ts) differ between two runs of the same debate, since they
 * cover the events' times, so they are left out before an event reaches a format's fold, and so
 * never reach a transcript.
 */
import type { RunEvent } from '../core/events.js';
import type { FormatDefinition } from './format-definition.js';

export function withoutChainFields(event: RunEvent): RunEvent {
  if (event.hash === undefined && event.prev === undefined) return event;
  const { hash: _hash, prev: _prev, ...rest } = event;
  return rest as RunEvent;
}

export function foldingWithoutChain<State, Step extends { kind: string }>(
  format: FormatDefinition<State, Step>,
): FormatDefinition<State, Step> {
  return { ...format, fold: (state, event) => format.fold(state, withoutChainFields(event)) };
}
