/** Finds a run folder from what the user typed: a path, or a run id in the places runs are kept. */
import { findRunFolder } from '../store/find-run.js';
import { type RunPlaces, singlePlace } from '../store/run-places.js';

export function findRunDir(
  reference: string | undefined,
  where: string | RunPlaces,
  _command: string,
): string {
  return findRunFolder(reference, typeof where === 'string' ? singlePlace(where) : where);
}
