/** A topic is a question, not a document: at most 500 characters (a critique's problem, 4000). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenario } from '../helpers/scenario.js';

describe.concurrent('the topic length limit', () => {
  it('refuses a 10,000-character topic in a file with exit 3, naming the file, line and field', async () => {
    const file = path.join(tempDir(), 'long-topic.yaml');
    writeFileSync(file, stringify({ ...testScenario(), topic: `Should ${'cities '.repeat(2000)}ban cars?` }));
    const result = await runAgora(['validate', file]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /long-topic\.yaml:1:\d+: topic: is longer than 500 characters, the limit for a topic/,
    );
  });

  it('refuses a --topic over the limit with exit 2, with or without a scenario file', async () => {
    const [withFile, withFormat] = await Promise.all([
      runAgora(['run', 'scenarios/abortion.yaml', '--topic', 'x'.repeat(501)]),
      runAgora(['run', '--format', 'duel', '--topic', 'x'.repeat(501)]),
    ]);
    for (const result of [withFile, withFormat]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /the topic is 501 characters, above the 500-character limit for a (knockout|duel) topic/,
      );
    }
  });

  it('accepts a critique problem of 1,000 characters: a problem statement may take a few paragraphs', async () => {
    const result = await runAgora(['run', '--format', 'critique', '--topic', 'Design it. '.repeat(90)]);
    expect(result.stderr).not.toMatch(/limit/);
    expect(result.code).toBe(4);
  });
});
