/**
 * What a folder under the runs folder holds, judged from its files alone: a run (its log holds
 * events), a run that never started, a run whose log is gone, or something that is not a run.
 * Starting a run in a folder, listing runs and reading one all go by this, so a run folder is
 * never written over and a lost log is reported instead of ignored.
 */
import { closeSync, existsSync, openSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { holdsAnEvent } from './event-log.js';
import { LIVE_FILE } from './live-log.js';
import { LOCK_FILE } from './run-lock.js';
import { SPECTATOR_FILE } from './spectator-votes.js';
import { STOP_FILE } from './stop-request.js';
import { guardStorage } from './storage-failure.js';

export const EVENTS_FILE = 'events.jsonl';

/** What a run writes in its folder before its first event: only these mean "never started". */
const BEFORE_START = new Set([EVENTS_FILE, 'run.log', LIVE_FILE, LOCK_FILE, STOP_FILE]);
/** What only a started run leaves: with no events beside them, the log was lost. */
const AFTER_START = ['transcript.json', 'transcript.md', SPECTATOR_FILE];

/** A run folder's state; `reason` says in words what is wrong with a damaged one. */
export type RunFolderState =
  | { kind: 'missing' }
  | { kind: 'empty' }
  | { kind: 'started' }
  | { kind: 'unstarted' }
  | { kind: 'damaged'; reason: string }
  | { kind: 'other'; files: string[] };

export function inspectRunFolder(runDir: string): RunFolderState {
  if (!existsSync(runDir)) return { kind: 'missing' };
  if (!statSync(runDir).isDirectory()) return { kind: 'other', files: [path.basename(runDir)] };
  const files = guardStorage(runDir, 'read the folder', () => readdirSync(runDir)).sort();
  if (files.length === 0) return { kind: 'empty' };
  const left = AFTER_START.filter((name) => files.includes(name));
  if (files.includes(EVENTS_FILE)) {
    const log = path.join(runDir, EVENTS_FILE);
    const descriptor = guardStorage(log, 'read', () => openSync(log, 'r'));
    let started: boolean;
    try {
      started = holdsAnEvent(descriptor);
    } finally {
      closeSync(descriptor);
    }
    if (started) return { kind: 'started' };
    if (left.length > 0) {
      return {
        kind: 'damaged',
        reason: `its event log ${EVENTS_FILE} holds no event, yet ${left.join(' and ')} ${left.length === 1 ? 'is' : 'are'} there: the log was emptied and the run cannot be read or resumed`,
      };
    }
  } else if (left.length > 0) {
    return {
      kind: 'damaged',
      reason: `its event log ${EVENTS_FILE} is missing (only ${left.join(' and ')} ${left.length === 1 ? 'is' : 'are'} left); the log is the run's record, so the run cannot be read or resumed`,
    };
  }
  if (files.every((name) => BEFORE_START.has(name))) return { kind: 'unstarted' };
  return { kind: 'other', files };
}
