/** Scenario files as editors really save them: UTF-16, Latin-1, tabs, and a misspelt key. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgora, tempDir } from '../helpers/cli.js';
import { testScenarioYaml } from '../helpers/scenario.js';

function scenarioFile(content: string | Buffer): string {
  const file = path.join(tempDir(), 'scenario.yaml');
  writeFileSync(file, content);
  return file;
}

async function validate(content: string | Buffer) {
  const file = scenarioFile(content);
  const result = await runAgora(['validate', file]);
  return { ...result, file };
}

describe.concurrent('scenario encodings', () => {
  it('names UTF-16 (with and without a byte-order mark) and says to save as UTF-8', async () => {
    const text = testScenarioYaml();
    const results = await Promise.all([
      validate(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])),
      validate(Buffer.from(text, 'utf16le')),
    ]);
    for (const result of results) {
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`${result.file}: is saved as UTF-16; save the file as UTF-8`);
      expect(result.stderr).not.toMatch(/binary/);
    }
  });

  it('refuses Latin-1 text with the line of the first byte that is not UTF-8', async () => {
    const text = testScenarioYaml().replace('Xavier', 'Zoë');
    const line = text.split('\n').findIndex((row) => row.includes('Zoë')) + 1;
    const result = await validate(Buffer.from(text, 'latin1'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`is not valid UTF-8 (line ${line} has a byte that is not UTF-8`);
    expect(result.stderr).toContain('save the file as UTF-8');
  });

  it('still accepts UTF-8 with accents', async () => {
    const result = await validate(testScenarioYaml().replace('Xavier', 'Zoë'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe.concurrent('scenario typing mistakes', () => {
  it('reports one tab used for indentation once, with its line and column', async () => {
    const lines = testScenarioYaml().split('\n');
    const at = lines.findIndex((row) => row.startsWith('  - name: Xavier'));
    lines[at] = `\t${lines[at]?.slice(2)}`;
    const result = await validate(lines.join('\n'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Invalid configuration (1 problem)');
    expect(result.stderr).toContain(
      `${result.file}:${at + 1}:1: YAML syntax error: a tab indents this line; YAML does not allow tabs for indentation; use spaces`,
    );
  });

  it('suggests the closest allowed key for a misspelt one', async () => {
    const text = testScenarioYaml()
      .replace(/^rotation:/m, 'rotaton:')
      .replace('model: llama3', 'modle: llama3');
    const result = await validate(text);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /rotaton: unknown field "rotaton" \(did you mean "rotation"\?\); allowed here: /,
    );
    expect(result.stderr).toMatch(/modle: unknown field "modle" \(did you mean "model"\?\); allowed here: /);
  });
});
