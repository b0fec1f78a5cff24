import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { parseTextMotions, parseYamlMotions } from '../../src/tournament/motions-file.js';

function issues(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (error instanceof ConfigError)
      return error.issues.map((issue) => `${issue.line}:${issue.column} ${issue.path} ${issue.message}`);
    throw error;
  }
  throw new Error('read without an error');
}

describe('a plain text motions file', () => {
  it('reads one motion a line, skipping blank lines and comments', () => {
    expect(parseTextMotions('# cup\nTea is better than coffee\n\n  Trains beat planes  \n', 'm.txt')).toEqual(
      [
        { id: '1', motion: 'Tea is better than coffee' },
        { id: '2', motion: 'Trains beat planes' },
      ],
    );
  });

  it('names the line and column of a repeated motion and of one too long', () => {
    expect(issues(() => parseTextMotions(`A\nB\n a.\n${'x'.repeat(501)}\n`, 'm.txt'))).toEqual([
      "4:1  the motion is longer than 500 characters, the limit for a topic; keep it to the motion itself and put longer material in a YAML entry's background",
      '3:2  this motion is the one on line 1 again; every motion is debated with both side orders already, so remove the repeat',
    ]);
  });
});

describe('a YAML motions file', () => {
  it('reads motions with positions, background and a persona for both sides or one each', () => {
    const motions = parseYamlMotions(
      [
        '- Tea is better than coffee',
        '- motion: Trains beat planes',
        '  positions: { a: Take the train, b: Take the plane }',
        '  background: Trips under 800 km.',
        '  persona: You are a travel writer.',
        '- motion: Cities should ban cars',
        '  persona: { b: You run a taxi firm. }',
      ].join('\n'),
      'm.yaml',
    );
    expect(motions).toEqual([
      { id: '1', motion: 'Tea is better than coffee' },
      {
        id: '2',
        motion: 'Trains beat planes',
        positions: { a: 'Take the train', b: 'Take the plane' },
        background: 'Trips under 800 km.',
        persona: { a: 'You are a travel writer.', b: 'You are a travel writer.' },
      },
      { id: '3', motion: 'Cities should ban cars', persona: { b: 'You run a taxi firm.' } },
    ]);
  });

  it('names the line and column of each problem', () => {
    expect(
      issues(() => parseYamlMotions('- motion: A\n  positions: { a: Yes }\n- backgrund: x\n', 'm.yaml')),
    ).toEqual([
      '2:14 [0].positions.b must be text (the second side’s label)',
      '3:3 [1].backgrund unknown field "backgrund"; an entry has motion, positions, background and persona',
    ]);
    expect(issues(() => parseYamlMotions('motion: A\n', 'm.yaml'))[0]).toMatch(
      /^1:1 {2}is not a list of motions/,
    );
    expect(issues(() => parseYamlMotions('[]\n', 'm.yaml'))[0]).toMatch(/^1:1 {2}holds no motion/);
  });
});
