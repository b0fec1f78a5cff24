import { describe, expect, it } from 'vitest';
import { foldTournament, type TournamentEntry } from '../../src/tournament/tournament-log.js';

const start = (database?: string): TournamentEntry =>
  ({
    type: 'tournament-start',
    at: '2026-01-01T00:00:00.000Z',
    id: 't1',
    spec: {
      models: ['m1', 'm2', 'm3'],
      motions: [{ id: '1', motion: 'Tea is better than coffee' }],
      format: 'duel',
      rounds: 1,
      seed: 1,
      schedule: 'round-robin',
      budget: 6,
      judges: null,
    },
    motionsFile: 'motions.txt',
    simulated: true,
    notices: [],
    ...(database ? { database } : {}),
  }) as TournamentEntry;

const end = (runId: string, status: 'completed' | 'failed'): TournamentEntry => ({
  type: 'debate-end',
  at: '2026-01-01T00:01:00.000Z',
  index: 1,
  runId,
  status,
  result: null,
  error: status === 'failed' ? 'the host went away' : null,
  match: null,
  outputTokens: 0,
});

describe('the tournament log folded', () => {
  it('counts a debate that failed here as not ended, so the next run resumes it', () => {
    const state = foldTournament([start(), end('r1', 'completed'), end('r2', 'failed')], 'log');
    expect([...state.ended.keys()]).toEqual(['r1']);
  });

  it('counts a debate that failed and then finished on a later run as ended', () => {
    const state = foldTournament([start(), end('r2', 'failed'), end('r2', 'completed')], 'log');
    expect(state.ended.get('r2')?.status).toBe('completed');
  });

  it('keeps a debate that failed on a worker of the shared database as ended', () => {
    const state = foldTournament([start('postgres://agora@db/agora'), end('r2', 'failed')], 'log');
    expect(state.ended.get('r2')?.status).toBe('failed');
  });
});
