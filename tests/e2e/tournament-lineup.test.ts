/**
 * `agora tournament --models FILE`: the models from a line-up file (YAML, or JSON), each with its
 * optional family and think; and every mistake in the file refused before anything starts, with the
 * file, the line and column, the field and the fix, exit code 3.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TournamentEntry } from '../../src/tournament/tournament-log.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';

const mock = useMockServers();

const MOTIONS = 'Tea is better than coffee\n';

async function refused(name: string, lineup: string | null) {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'motions.txt'), MOTIONS);
  if (lineup !== null) writeFileSync(path.join(dir, name), lineup);
  const out = path.join(dir, 'cup');
  const result = await runAgora(
    ['tournament', '--demo', '--models', name, '--motions', 'motions.txt', '--out', out],
    { cwd: dir },
  );
  // Nothing started, nothing written, one paragraph and no stack.
  expect(existsSync(out)).toBe(false);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.code).toBe(3);
  return result.stderr;
}

describe('agora tournament --models FILE', () => {
  it('takes the models, their families and think from a YAML line-up, against the mock server as a host', async () => {
    // Three names of one family ("m"): without the file's families the judges would share it.
    const server = await mock({ models: ['m1', 'm2', 'm3'] });
    const dir = tempDir();
    writeFileSync(path.join(dir, 'motions.txt'), MOTIONS);
    writeFileSync(
      path.join(dir, 'lineup.yaml'),
      '# the models, each of its own family\n- model: m1\n  family: alpha\n- model: m2\n  family: beta\n  think: true\n- { model: m3, family: gamma }\n',
    );
    const result = await runAgora(
      [
        'tournament',
        '--host',
        server.url,
        '--models',
        'lineup.yaml',
        '--motions',
        'motions.txt',
        '--rounds',
        '1',
        '--out',
        'cup',
      ],
      { cwd: dir },
    );
    expect([0, 9]).toContain(result.code);
    expect(result.stderr).not.toContain('No judge of another family is left');
    const log = readFileSync(path.join(dir, 'cup', 'tournament.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TournamentEntry);
    const planned = log.flatMap((entry) => (entry.type === 'matches-planned' ? entry.matches : []));
    expect(planned).toHaveLength(6);
    expect(planned.every((match) => match.judgeRule === 'other-family')).toBe(true);
    expect(log.filter((entry) => entry.type === 'debate-end')).toHaveLength(6);
    for (const model of ['m1', 'm2', 'm3'])
      expect(result.stdout).toMatch(new RegExp(`^\\s*${model}\\b`, 'm'));
    // m2 thinks where it debates, and only m2.
    const chats = server.requests
      .filter((request) => request.path === '/api/chat')
      .map((request) => request.body as { model: string; think?: boolean });
    const thinking = chats.filter((body) => body.think === true);
    expect(thinking.length).toBeGreaterThan(0);
    expect(new Set(thinking.map((body) => body.model))).toEqual(new Set(['m2']));
  });

  it('a missing file', async () => {
    const stderr = await refused('lineup.yaml', null);
    expect(stderr).toContain('lineup.yaml: file not found');
    expect(stderr).toContain('--models names the models as A,B,C, or a line-up file');
  });

  it('malformed YAML, with line and column', async () => {
    const stderr = await refused('lineup.yaml', '- m1\n- model: [m2\n- m3\n');
    expect(stderr).toMatch(/lineup\.yaml:\d+:\d+: syntax error/);
  });

  it('an unknown field, with its line, column and the fields there are', async () => {
    const stderr = await refused('lineup.yml', '- m1\n- model: m2\n  temprature: 0.3\n');
    expect(stderr).toContain('lineup.yml:3:3: [1].temprature: unknown field "temprature"');
    expect(stderr).toContain('an entry has model, family and think');
  });

  it('a field of the wrong kind in a JSON line-up', async () => {
    const stderr = await refused('lineup.json', '[{"model": "m1", "think": "yes"}, "m2"]');
    expect(stderr).toContain('lineup.json:1:27: [0].think: must be true or false');
  });

  it('fewer than two models', async () => {
    const stderr = await refused('lineup.yaml', '- model: m1\n  family: alpha\n');
    expect(stderr).toContain('lineup.yaml:1:1: names only m1; a tournament compares at least two models');
  });

  it('a model named twice', async () => {
    const stderr = await refused('lineup.yaml', '- m1\n- model: m2\n- model: m1\n  family: alpha\n');
    expect(stderr).toContain('lineup.yaml:3:10: [2].model: names m1 again (first at line 1)');
    expect(stderr).toContain('name each model once');
  });
});
