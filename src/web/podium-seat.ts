/**
 * Who may speak for the person at the podium from a browser: whoever holds the run's seat token.
 * The viewer gives it, as a cookie, to the browser that started (or resumed) the debate, and shows
 * that browser a link carrying it, to open on another device. Only a hash of it is kept, in
 * `<runs folder>/.serve/<run id>.seat`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import { writeFileAtomic } from '../store/write-files.js';
import { cookie, type ViewerEnv } from './request-guards.js';
import { SERVE_FOLDER } from './start-record.js';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const seatFile = (outDir: string, runId: string) => path.join(outDir, SERVE_FOLDER, `${runId}.seat`);

/** The cookie that carries run `runId`'s seat token. */
export function seatCookieName(runId: string): string {
  return `agora_seat_${runId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** A new seat token for the run (the previous one, if any, stops working). */
export function issueSeatToken(outDir: string, runId: string): string {
  const token = randomBytes(24).toString('base64url');
  mkdirSync(path.join(outDir, SERVE_FOLDER), { recursive: true });
  writeFileAtomic(seatFile(outDir, runId), `${hashOf(token)}\n`);
  return token;
}

export function hasSeatToken(outDir: string, runId: string): boolean {
  return existsSync(seatFile(outDir, runId));
}

export function seatTokenMatches(outDir: string, runId: string, token: string | undefined): boolean {
  if (!token) return false;
  let kept: string;
  try {
    kept = readFileSync(seatFile(outDir, runId), 'utf8').trim();
  } catch {
    return false;
  }
  const given = Buffer.from(hashOf(token));
  const expected = Buffer.from(kept);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Gives this browser the seat: a cookie only this viewer's pages send back. */
export function giveSeat(c: Context<ViewerEnv>, runId: string, token: string): void {
  c.header('set-cookie', `${seatCookieName(runId)}=${token}; HttpOnly; SameSite=Strict; Path=/`, {
    append: true,
  });
}

/** The seat token this browser holds for the run, if any. */
export function seatTokenOf(c: Context<ViewerEnv>, runId: string): string | undefined {
  return cookie(c, seatCookieName(runId));
}
