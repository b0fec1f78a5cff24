/** Model text printed on a terminal: escape sequences removed whole, even when streamed in pieces. */
import { describe, expect, it } from 'vitest';
import { printable, printableDeep, StreamFilter, safeJson } from '../../src/render/terminal-safe.js';

const ESC = '\u001b';
const ATTACKS: Record<string, string> = {
  'clipboard write (OSC 52)': `${ESC}]52;c;ZXZpbA==\u0007`,
  'window title': `${ESC}]0;owned${ESC}\\`,
  hyperlink: `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`,
  'clear screen': `${ESC}[2J${ESC}[H`,
  'cursor move': `${ESC}[10;5H${ESC}[3A`,
  colour: `${ESC}[31;1m`,
  '8-bit CSI': '\u009b2J',
  'device control string': `${ESC}Pq#0;2;0;0;0${ESC}\\`,
  'carriage return and backspace': '\r\b',
};

describe('printable', () => {
  for (const [name, sequence] of Object.entries(ATTACKS)) {
    it(`removes a ${name}`, () => {
      const out = printable(`before ${sequence} after`);
      expect(out).toMatch(/^before +(click +)?after$/);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    });
  }

  it('keeps newlines, tabs and ordinary text, accents and emoji included', () => {
    expect(printable('a\tb\nçà ✓ 🙂 [1] ]x')).toBe('a\tb\nçà ✓ 🙂 [1] ]x');
  });

  it('cleans every string inside an event', () => {
    expect(printableDeep({ text: `x${ESC}[2Jy`, list: [`${ESC}]0;t\u0007z`], n: 3 })).toEqual({
      text: 'xy',
      list: ['z'],
      n: 3,
    });
  });
});

describe('StreamFilter', () => {
  it('removes a sequence cut across pieces, whatever the cut', () => {
    const whole = `one ${ATTACKS['clipboard write (OSC 52)']} two ${ATTACKS['clear screen']} three ${ATTACKS['window title']}`;
    for (let cut = 1; cut < whole.length; cut += 1) {
      const filter = new StreamFilter();
      const out = filter.push(whole.slice(0, cut)) + filter.push(whole.slice(cut)) + filter.flush();
      expect(out).toBe('one  two  three ');
    }
    const filter = new StreamFilter();
    const oneByOne = [...whole].map((char) => filter.push(char)).join('') + filter.flush();
    expect(oneByOne).toBe('one  two  three ');
  });

  it('does not hold back text without an escape', () => {
    expect(new StreamFilter().push('plain words')).toBe('plain words');
  });
});

describe('safeJson', () => {
  it('escapes C0 and C1 controls, and reads back as the same text', () => {
    const text = `${ESC}]52;c;x\u0007 \u009b2J`;
    const json = safeJson({ text });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(JSON.parse(json)).toEqual({ text });
  });
});
