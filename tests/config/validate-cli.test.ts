import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

const CONFIG_ERROR = 3;

function scenarioFile(data: unknown, name = 'scenario.yaml'): { dir: string; file: string } {
  const dir = tempDir();
  const file = path.join(dir, name);
  writeFileSync(file, typeof data === 'string' ? data : stringify(data));
  return { dir, file };
}

async function expectRefused(data: unknown, ...patterns: RegExp[]) {
  const { file } = scenarioFile(data);
  const result = await runAgora(['validate', file]);
  expect(result.code).toBe(CONFIG_ERROR);
  expect(result.stderr).toContain(file);
  for (const pattern of patterns) expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/); // no stack trace
  return result;
}

describe.concurrent('agora validate', () => {
  it('accepts every shipped scenario', async () => {
    const result = await runAgora([
      'validate',
      'scenarios/abortion.yaml',
      'scenarios/god-exists.yaml',
      'scenarios/universal-healthcare.yaml',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.match(/^ok /gm)).toHaveLength(3);
  });

  it('shortens a long council or critique topic at a word boundary, marked with an ellipsis', async () => {
    const shipped = readFileSync('scenarios/council-billing-database.yaml', 'utf8');
    const topic =
      'Should the billing service move from MySQL 5.7 to PostgreSQL 16 this year, given the migration risks?';
    const { file } = scenarioFile(shipped.replace(/^topic:.*$/m, `topic: ${JSON.stringify(topic)}`));
    const result = await runAgora(['validate', file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('council, "Should the billing service move from MySQL 5.7 to…"');
  });

  it('refuses an empty topic and a whitespace-only topic', async () => {
    await expectRefused({ ...testScenario(), topic: '' }, /topic: must not be empty or only spaces/);
    await expectRefused({ ...testScenario(), topic: '   \t ' }, /:\d+:\d+: topic: must not be empty/);
  });

  it('refuses criteria weights that do not add up to 1', async () => {
    const data = testScenario({
      extra: { judging: { criteria: { logic: { weight: 0.5 }, style: { weight: 0.4 } } } },
    });
    await expectRefused(data, /judging\.criteria: weights must add up to 1, they add up to 0\.9/);
  });

  it('refuses fewer than two Position Y agents', async () => {
    await expectRefused(testScenario({ yCount: 1 }), /agents: needs at least 2 agents with position Y/);
  });

  it('refuses zero or two Position X agents', async () => {
    const data = testScenario();
    const agents = data.agents as Array<Record<string, unknown>>;
    await expectRefused(
      { ...data, agents: agents.slice(1) },
      /needs exactly one agent with position X, found 0/,
    );
    await expectRefused(
      { ...data, agents: [...agents, { ...agents[0], name: 'Xena' }] },
      /needs exactly one agent with position X, found 2/,
    );
  });

  it('refuses duplicate agent names, naming both places', async () => {
    const data = testScenario();
    const agents = data.agents as Array<Record<string, unknown>>;
    await expectRefused(
      { ...data, agents: [...agents.slice(0, 2), { ...agents[2], name: 'yara' }, ...agents.slice(3)] },
      /agents\[2\]\.name: duplicate agent name "yara" \(also agents\[1\]\)/,
    );
  });

  it('refuses fewer than one round', async () => {
    await expectRefused(testScenario({ rounds: 0 }), /debate\.rounds: must be at least 1 \(got 0\)/);
  });

  it('refuses negative and non-numeric limits', async () => {
    await expectRefused(testScenario({ limit: -1 }), /rotation\.limit: must be 0 or more \(got -1\)/);
    const data = testScenario();
    await expectRefused(
      { ...data, timer: { seconds_per_side: 'five minutes', tokens_per_second: 3.75 } },
      /timer\.seconds_per_side: must be a number \(got "five minutes"\)/,
    );
  });

  it('refuses a missing context file, one outside the folder, and a folder given as a file', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'notes'));
    writeFileSync(path.join(path.dirname(dir), 'outside.md'), 'secret');
    const data = testScenario({
      extra: { background: { files: ['missing.md', '../outside.md', 'notes'] } },
    });
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(file, stringify(data));
    const result = await runAgora(['validate', file]);
    expect(result.code).toBe(CONFIG_ERROR);
    expect(result.stderr).toMatch(/background\.files\[0\]: context file "missing\.md" not found/);
    expect(result.stderr).toMatch(
      /background\.files\[1\]: context file "\.\.\/outside\.md" is outside the scenario's folder/,
    );
    expect(result.stderr).toMatch(/background\.files\[2\]: context file "notes" is not a regular file/);
    expect(result.stderr).toMatch(/Invalid configuration \(3 problems\)/);
  });

  it('refuses an unreadable context file', async () => {
    const dir = tempDir();
    const secret = path.join(dir, 'locked.md');
    writeFileSync(secret, 'text');
    chmodSync(secret, 0o000);
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(file, stringify(testScenario({ extra: { background: { files: ['locked.md'] } } })));
    const result = await runAgora(['validate', file]);
    // Root reads any file regardless of its mode; everyone else must get a clear refusal.
    if (process.getuid?.() === 0) expect(result.code).toBe(0);
    else {
      expect(result.code).toBe(CONFIG_ERROR);
      expect(result.stderr).toMatch(/context file "locked\.md" cannot be read \(EACCES\)/);
    }
  });

  it('reports YAML syntax errors with line and column', async () => {
    const result = await expectRefused('topic: "unterminated\npositions: [x\n', /YAML syntax error/);
    expect(result.stderr).toMatch(/scenario\.yaml:\d+:\d+: YAML syntax error/);
  });

  it('refuses a file that is not YAML at all', async () => {
    await expectRefused(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]).toString('latin1'),
      /is not a text file/,
    );
    await expectRefused('just a sentence, not a scenario\n', /is not a scenario: expected a YAML mapping/);
  });

  it('refuses a huge file before parsing it', async () => {
    await expectRefused(`topic: x\n# ${'a'.repeat(1024 * 1024 + 10)}\n`, /above the 1048576-byte limit/);
  });

  it('refuses unknown fields, naming the allowed ones and where the typo is', async () => {
    const result = await expectRefused(
      { ...testScenario(), rotaton: { limit: 2 } },
      /rotaton: unknown field "rotaton" \(did you mean "rotation"\?\); allowed here: title, topic, seed, .*format, positions, agents, debate, rotation/,
    );
    expect(result.stderr).toMatch(/scenario\.yaml:\d+:1: rotaton/);
  });

  it('reports several problems at once', async () => {
    const data = { ...testScenario({ rounds: 0, limit: -2 }), topic: ' ' };
    const result = await expectRefused(data, /\(3 problems\)/);
    expect(result.stderr).toMatch(/topic:/);
    expect(result.stderr).toMatch(/debate\.rounds:/);
    expect(result.stderr).toMatch(/rotation\.limit:/);
  });

  it('refuses a missing file and a folder', async () => {
    const missing = await runAgora(['validate', 'scenarios/nope.yaml']);
    expect(missing.code).toBe(CONFIG_ERROR);
    expect(missing.stderr).toMatch(/scenarios\/nope\.yaml: file not found/);
    const folder = await runAgora(['validate', 'scenarios']);
    expect(folder.code).toBe(CONFIG_ERROR);
    expect(folder.stderr).toMatch(/is a folder, not a scenario file/);
  });

  it('accepts valid but unusual values with warnings', async () => {
    const { file } = scenarioFile(testScenario({ threshold: 5, extra: {} }));
    const result = await runAgora(['validate', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /warning .*rotation\.threshold: is 5 but only 3 judges vote, so no rotation can happen/,
    );
  });

  it('exits with the usage code when no file is named', async () => {
    const result = await runAgora(['validate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/name at least one scenario file/);
  });
});
