/**
 * The viewer's side of a person's turn, kept in the run's folder: the run writes the turn it waits
 * for (`podium-turn.json`), the viewer writes the person's statement for that turn
 * (`podium-answer.json`), and the run takes it and removes the turn. The answer stays until the
 * next turn is asked: it is created only if there is none, so a turn takes exactly one statement
 * and a second one sent for it is refused, however close together they come. The files say nothing
 * the log does not: the statement becomes a `turn-end` event like any other, and a run that stops
 * while waiting asks again for the turn when it resumes.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { storageFailure } from './storage-failure.js';
import { writeFileAtomic } from './write-files.js';

export const PODIUM_TURN_FILE = 'podium-turn.json';
export const PODIUM_ANSWER_FILE = 'podium-answer.json';

export interface PodiumTurn {
  /** Names this turn, so an answer meant for an earlier one is never taken for it. */
  id: string;
  askedAt: string;
  speaker: string;
  /** The task as a person reads it (motion, side, opponent, task text). */
  task: unknown;
  /** The statement is cut after about this many words. */
  limitWords: number;
  /** Seconds of speaking time a word uses, when the debate has a speaking timer. */
  secondsPerWord?: number;
}

export interface PodiumAnswer {
  id: string;
  text: string;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writePodiumTurn(runDir: string, turn: PodiumTurn): void {
  rmSync(path.join(runDir, PODIUM_ANSWER_FILE), { force: true });
  writeFileAtomic(path.join(runDir, PODIUM_TURN_FILE), `${JSON.stringify(turn, null, 2)}\n`);
}

export function readPodiumTurn(runDir: string): PodiumTurn | undefined {
  return readJson<PodiumTurn>(path.join(runDir, PODIUM_TURN_FILE));
}

/**
 * Writes the statement for turn `answer.id`, unless that turn has one already: `false` then. An
 * answer left from an earlier turn is replaced. The file appears whole (written beside it, then
 * linked), and a link never replaces a file, so of two statements for a turn exactly one is kept.
 */
export function writePodiumAnswer(runDir: string, answer: PodiumAnswer): boolean {
  const file = path.join(runDir, PODIUM_ANSWER_FILE);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(answer)}\n`);
    for (let attempt = 0; ; attempt += 1) {
      try {
        linkSync(temporary, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
        if (readJson<PodiumAnswer>(file)?.id === answer.id) return false;
        rmSync(file, { force: true });
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw storageFailure(error, file, 'write');
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * The answer to turn `id`, when the viewer has written it; the turn is then over. The answer stays,
 * so that no other statement is taken for the turn, until the next turn is asked.
 */
export function takePodiumAnswer(runDir: string, id: string): string | undefined {
  const file = path.join(runDir, PODIUM_ANSWER_FILE);
  if (!existsSync(file)) return undefined;
  const answer = readJson<PodiumAnswer>(file);
  if (answer?.id !== id || typeof answer.text !== 'string') return undefined;
  rmSync(path.join(runDir, PODIUM_TURN_FILE), { force: true });
  return answer.text;
}

export function clearPodium(runDir: string): void {
  rmSync(path.join(runDir, PODIUM_TURN_FILE), { force: true });
  rmSync(path.join(runDir, PODIUM_ANSWER_FILE), { force: true });
}
