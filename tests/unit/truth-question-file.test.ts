import { describe, expect, it } from 'vitest';
import { parseQuestionFile } from '../../src/config/question-file.js';
import { ConfigError } from '../../src/core/errors.js';

function problems(text: string, file: string): string[] {
  try {
    parseQuestionFile(text, file);
  } catch (error) {
    if (error instanceof ConfigError)
      return error.issues.map((issue) => `${issue.line ?? '-'} ${issue.path}: ${issue.message}`);
    throw error;
  }
  throw new Error('no problem was found');
}

describe('truth question files', () => {
  it('reads YAML lists and JSONL, numbers as answers, ids and passages', () => {
    const yaml = parseQuestionFile(
      [
        '- question: What is 6 times 7?',
        '  answer: 42',
        '  wrong_answer: 48',
        '  passage: Six sevens.',
        '- id: second',
        '  question: Capital of France?',
        '  answer: Paris',
        '  wrong_answer: Lyon',
      ].join('\n'),
      'mine.yaml',
    );
    expect(yaml).toEqual([
      { id: 'q1', question: 'What is 6 times 7?', answer: '42', wrong_answer: '48', passage: 'Six sevens.' },
      { id: 'second', question: 'Capital of France?', answer: 'Paris', wrong_answer: 'Lyon' },
    ]);
    const jsonl = parseQuestionFile(
      '{"question": "2+2?", "answer": 4, "wrong_answer": 5}\n\n{"question": "3+3?", "answer": "6", "wrong_answer": "7"}\n',
      'mine.jsonl',
    );
    expect(jsonl.map((question) => question.answer)).toEqual(['4', '6']);
    expect(
      parseQuestionFile('questions:\n  - {question: a?, answer: b, wrong_answer: c}\n', 'set.yml'),
    ).toHaveLength(1);
  });

  it('names the line, the field and the fix for every problem at once', () => {
    expect(
      problems(
        '{"question": "2+2?", "answer": 4, "wrong_answer": 5}\n{"question": "x?", "answer": "y"\n{"question": "3+3?", "answr": 6, "wrong_answer": 7}\n',
        'mine.jsonl',
      ),
    ).toEqual([expect.stringMatching(/^2 : is not a JSON object \(.*\); write one question a line/)]);
    expect(
      problems(
        [
          '- question: 2+2?',
          '  answer: 4',
          '- question: 3+3?',
          '  answr: 6',
          '  wrong_answer: 7',
          '- question: 1+1?',
          '  answer: two',
          '  wrong_answer: Two',
          '- 12',
        ].join('\n'),
        'mine.yaml',
      ),
    ).toEqual([
      '1 [0].wrong_answer: is missing; every question needs question, answer, wrong_answer',
      '3 [1].answr: is not a field of a question; the fields are id, question, answer, wrong_answer, passage, passage_file',
      '3 [1].answer: is missing; every question needs question, answer, wrong_answer',
      '6 [2].wrong_answer: is the same as answer ("two"); give the wrong answer a careless reasoner would give',
      '9 [3]: is not a question; write an object with question, answer and wrong_answer',
    ]);
    expect(problems('just: a mapping\n', 'mine.yaml')[0]).toMatch(/is not a list of questions/);
    expect(problems('[]', 'mine.yaml')[0]).toMatch(/holds no questions/);
    expect(
      problems(
        '- {id: a, question: x?, answer: y, wrong_answer: z}\n- {id: a, question: x?, answer: y, wrong_answer: z}\n',
        'f.yaml',
      )[0],
    ).toMatch(/\[1\]\.id: "a" is used by an earlier question/);
  });
});
