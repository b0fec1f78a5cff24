import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandHelp } from '../../src/cli/program.js';

describe('command help', () => {
  it.each(COMMAND_NAMES)('has a usage text for %s, one line per option', (name) => {
    const text = commandHelp(name) ?? '';
    expect(text).toMatch(new RegExp(`^Usage: agora ${name === 'debate' ? 'run' : name}\\b`));
    for (const line of text.split('\n').filter((line) => line.startsWith('  -'))) {
      expect(line).toMatch(/^ {2}--[a-z-]+( \S+)? +\S/);
    }
  });
});
