/** Word wrapping for the terminal: whole lines of prose, and text that arrives in pieces (a stream). */

// Colour and style escapes take no room on screen.
const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** How many columns a piece of text takes on screen, escapes excluded. */
export function visibleLength(text: string): number {
  return [...text.replace(ESCAPE, '')].length;
}

/**
 * Wraps one line at spaces so that no piece is wider than `width`. A word wider than the line is
 * cut only when `breakWords` is set (table cells); prose keeps it whole, so a path stays usable.
 */
export function wrapLine(line: string, width: number, breakWords = false): string[] {
  if (visibleLength(line) <= width) return [line];
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(/ +/).filter((item) => item !== '')) {
    const pieces: string[] = [];
    if (breakWords && visibleLength(word) > width) {
      const characters = [...word];
      for (let start = 0; start < characters.length; start += width)
        pieces.push(characters.slice(start, start + width).join(''));
    } else {
      pieces.push(word);
    }
    for (const piece of pieces) {
      if (current === '') current = piece;
      else if (visibleLength(current) + 1 + visibleLength(piece) <= width) current = `${current} ${piece}`;
      else {
        lines.push(current);
        current = piece;
      }
    }
  }
  if (current !== '') lines.push(current);
  return lines.length > 0 ? lines : [''];
}

/**
 * Re-wraps every line of a text that is wider than `width` at word boundaries, continuation lines
 * indented by two spaces. Lines that already fit (tables drawn to the width) are left alone.
 */
export function fitLines(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (visibleLength(line) <= width) return [line];
      const [first = '', ...rest] = wrapLine(line, width);
      const restLines =
        rest.length === 0 ? [] : wrapLine(rest.join(' '), width - 2).map((item) => `  ${item}`);
      return [first, ...restLines];
    })
    .join('\n');
}

/**
 * Wraps text written in pieces (a model's statement as it streams) at word boundaries. A word is
 * held back until the space or newline after it shows whether it still fits on the line.
 */
export function createStreamWrapper(width: number) {
  let column = 0;
  let word = '';
  let spaces = '';
  const place = (): string => {
    if (word === '') return '';
    const length = visibleLength(word);
    let out: string;
    if (column > 0 && column + visibleLength(spaces) + length > width) {
      out = `\n${word}`;
      column = length;
    } else {
      out = `${spaces}${word}`;
      column += visibleLength(spaces) + length;
    }
    word = '';
    spaces = '';
    return out;
  };
  return {
    /** The part of `text` that can be shown now. */
    push(text: string): string {
      let out = '';
      for (const character of text) {
        if (character === '\n') {
          out += `${place()}\n`;
          column = 0;
          spaces = '';
        } else if (character === ' ' || character === '\t') {
          out += place();
          spaces += character;
        } else {
          word += character;
        }
      }
      return out;
    },
    /** Whatever is held back, for when something else is about to be written. */
    flush(): string {
      const out = place();
      spaces = '';
      return out;
    },
  };
}
