/**
 * The tournament whose folder the viewer shows (`agora serve --out DIR`, DIR a tournament's folder):
 * its id, models and finished debates, read from the lines of its `tournament.jsonl`. The viewer
 * sits beside the tournament's code, not above it, so it reads the log's lines itself, as it reads a
 * run's events; a line being written (the last, torn) is left for the next look.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TournamentMatch } from '../analytics/tournament-match.js';

export interface TournamentView {
  id: string;
  models: string[];
  motions: number;
  /** The tournament's seed, which the standings' bootstrap takes too. */
  seed: number;
  /** Debates planned so far. */
  planned: number;
  /** The finished debates the standings read. */
  matches: TournamentMatch[];
}

interface LogLine {
  type?: string;
  id?: string;
  spec?: { models?: string[]; motions?: unknown[]; seed?: number };
  matches?: unknown[];
  status?: string;
  match?: TournamentMatch | null;
}

export function readTournamentView(folder: string): TournamentView | null {
  const file = path.join(folder, 'tournament.jsonl');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
  const entries = lines.flatMap((line): LogLine[] => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
  const start = entries[0];
  if (start?.type !== 'tournament-start' || !start.id) return null;
  const ended = new Map<string, TournamentMatch>();
  for (const entry of entries)
    if (entry.type === 'debate-end' && entry.status !== 'failed' && entry.match)
      ended.set(entry.match.runId, entry.match);
  return {
    id: start.id,
    models: start.spec?.models ?? [],
    motions: start.spec?.motions?.length ?? 0,
    seed: start.spec?.seed ?? 1,
    planned: entries.reduce(
      (sum, entry) => sum + (entry.type === 'matches-planned' ? (entry.matches?.length ?? 0) : 0),
      0,
    ),
    matches: [...ended.values()],
  };
}
