import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, commandHelp, programHelp } from '../../src/cli/program.js';

describe('command help', () => {
  it.each(COMMAND_NAMES)('has a usage text for %s, one line per option', (name) => {
    const text = commandHelp(name) ?? '';
    expect(text).toMatch(new RegExp(`^Usage: agora ${name === 'debate' ? 'run' : name}\\b`));
    for (const line of text.split('\n').filter((line) => line.startsWith('  -'))) {
      expect(line).toMatch(/^ {2}--[a-z-]+( \S+)? +\S/);
    }
  });

  it('fits 80 columns, for every command and for agora help', () => {
    const wide = (text: string) => text.split('\n').filter((line) => line.length > 80);
    for (const name of COMMAND_NAMES) expect(wide(commandHelp(name) ?? ''), name).toEqual([]);
    expect(wide(programHelp())).toEqual([]);
    // Wrapped help keeps its words: an option's text hangs under its own column.
    expect(commandHelp('run')).toMatch(/\n {2}--topic "TEXT" +debate another motion[^\n]*\n {24}\S/);
  });

  it('verify says what the chain does not catch: a rewritten folder, a cut-off tail', () => {
    const text = (commandHelp('verify') ?? '').replace(/\s+/g, ' ');
    expect(text).toContain(
      'anyone who can write the run folder can rewrite a line and every line after it, hashes included, and the log checks again',
    );
    expect(text).toContain('lines cut off the end leave a shorter log that checks');
    expect(text).toContain('`agora resume` redoes those steps');
  });

  it('agora help is wrapped once, to the width it is given: every command line indented, its text in one column', () => {
    for (const width of [80, 120]) {
      const text = programHelp(width);
      const lines = text.split('\n');
      expect(lines.filter((line) => line.length > width)).toEqual([]);
      const commands = lines.slice(
        lines.indexOf('Commands') + 1,
        lines.indexOf('', lines.indexOf('Commands')),
      );
      expect(commands.length).toBeGreaterThan(20);
      for (const line of commands) expect(line, line).toMatch(/^ {2}\S|^ {24}\S/);
      // Text that continues a command's line hangs under the text column, never at the margin.
      for (const line of commands.filter((item) => /^ {24}/.test(item))) expect(line).toMatch(/^ {24}\S/);
    }
    // A wider terminal gets longer lines, and so fewer of them.
    expect(
      programHelp(120)
        .split('\n')
        .some((line) => line.length > 80),
    ).toBe(true);
    expect(programHelp(120).split('\n').length).toBeLessThan(programHelp(80).split('\n').length);
  });
});
