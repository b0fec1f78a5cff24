/**
 * A seat taken by a person instead of a model. The person's statements go through the same
 * provider interface as a model's (under the reserved model name `person`), so every rule that
 * holds a model's statement (its cap, the speaking timer, the word limit, the judges, the claims
 * ledger, rotation) holds the person's too. Only the debater's statements are the person's: any
 * other call the seat's agent would make (a judge's vote, a note-taker's extraction) stays with the
 * agent's model.
 */
import { AgoraError, ExitCode } from './errors.js';

/** The model name a person's statements are recorded under. */
export const PERSON_MODEL = 'person';

/** The stop reason of a run that waits for the person at the podium to speak. */
export const AWAITING_PERSON = 'awaiting-person';

/**
 * The person's turn could not be taken (their input ended before they spoke). The run is paused,
 * not failed: everything before the turn is kept, and `resume` starts again with that turn.
 */
export class PersonAbsent extends AgoraError {
  override name = 'PersonAbsent';
  constructor(why: string) {
    super(why, { exitCode: ExitCode.interrupted });
  }
}

/** The model a seat's statements are asked of: the person's, when a person has taken the seat. */
export function seatModel(seat: { model: string; human?: boolean | undefined }): string {
  return seat.human === true ? PERSON_MODEL : seat.model;
}
