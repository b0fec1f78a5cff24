import { describe, expect, it } from 'vitest';
import { personTask, personTaskText } from '../../src/render/person-task.js';

const messages = [
  {
    content:
      'This is a knockout debate.\nMotion: Should cities ban cars?\nPosition X: Car-free\n\n## Rules\n- One X.',
  },
  {
    content:
      '## Debate so far\n\n### Round 1\n\n**Xavier** (Position X, Car-free):\nMy first point.\n\n**Yara** (Position Y, Car-friendly):\nShops need parking.\nDeliveries need roads.\n\nModerator: Yusuf takes the floor for Position Y.',
  },
  {
    content:
      'Your name: Xavier\nYou argue for: Car-free\n\nClaims you made:\n- one\n\n## Your task: round 2 of 2\n\nYour focus: answer Yara.\nSpeak as a debater, in the first person as Xavier: no headings.\nAim for about 460 words; you are cut off after about 768.',
  },
];

describe('a person’s turn, written for a person', () => {
  it('takes the motion, the side, the opponent’s last statement and the task, and leaves out what only models need', () => {
    const task = personTask(messages);
    expect(task).toMatchObject({ motion: 'Should cities ban cars?', name: 'Xavier', side: 'Car-free' });
    expect(task.opponent).toEqual({ speaker: 'Yara', text: 'Shops need parking.\nDeliveries need roads.' });
    expect(task.task).toBe(
      'Your task: round 2 of 2\n\nYour focus: answer Yara.\nAim for about 460 words; you are cut off after about 768.',
    );
    const text = personTaskText(task, 576);
    expect(text).toContain('Yara said:\nShops need parking.');
    expect(text).toContain('cut after about 576 words');
    expect(text).not.toContain('Speak as a debater');
  });

  it('lists the criteria the rules give for the person’s side, and none for a side that is not scored', () => {
    const rules = {
      content:
        'This is a knockout debate.\nMotion: Ban cars?\n\n## How the debating Position Y agent is judged\nEach criterion is scored from 1 (poor) to 5 (excellent):\n- clarity (weight 0.6): Clear.\n- relevance (weight 0.4)\n\n## Background\n- noise',
    };
    const card = (side: string) => ({
      content: `Your name: Yara\nYou argue for: Car-friendly\nYour side: Position ${side}\n\n## Your task: round 1 of 2\nMake your case.`,
    });
    expect(personTask([rules, card('Y')]).judgedOn).toEqual([
      'Clarity (weight 0.6): Clear.',
      'Relevance (weight 0.4)',
    ]);
    expect(personTaskText(personTask([rules, card('Y')]), 300)).toContain(
      'The judges score your statement from 1 (poor) to 5 (excellent) on:\n- Clarity (weight 0.6): Clear.\n- Relevance (weight 0.4)\n',
    );
    expect(personTask([rules, card('X')]).judgedOn).toBeUndefined();
    expect(personTask(messages).judgedOn).toBeUndefined();
  });

  it('has no opponent before anyone else has spoken', () => {
    expect(
      personTask([messages[0] as { content: string }, messages[2] as { content: string }]).opponent,
    ).toBeUndefined();
  });

  it('reads a duel’s transcript, whose debaters are labelled by their letter', () => {
    const task = personTask([
      { content: 'You are taking part in a judged debate duel.\nMotion: Remote work is better' },
      {
        content:
          '## Debate so far\n\n### Round 1\n\n**Ada** (Debater A, Remote work is better):\nHours saved.\n\n**Blaise** (Debater B, The office is better):\nJuniors learn by watching.',
      },
      {
        content:
          'Your name: Ada\nYou argue for: Remote work is better\n## Your task: round 2 of 2\nAnswer what Blaise said last round.\nSpeak in the first person as Ada, without headings and without writing your name.\nAim for about 270 words; you are cut off after about 450.',
      },
    ]);
    expect(task.opponent).toEqual({ speaker: 'Blaise', text: 'Juniors learn by watching.' });
    expect(task.task).not.toContain('Speak in the first person');
    expect(task.wordLimit).toBeUndefined();
  });

  it('reads what a formal debate’s phase shows of the other side, and the word limit the task states', () => {
    const system = { content: 'You are taking part in a formal debate.\nMotion: Ban cars' };
    const task = (context: string, phase: string) => [
      system,
      { content: context },
      {
        content: `You argue for: Keep cars\n## Your task: ${phase}\nDo it.\nAim for about 240 words; the limit is 300 words, and a longer statement is cut at word 300.`,
      },
    ];
    const answer = personTask(
      task(
        '## Your opening statement\nMine.\n\n## The questions your opponent has put to you\nWho pays?\nWhen?',
        'cross-examination',
      ),
    );
    expect(answer.opponent).toEqual({ speaker: 'Your opponent', text: 'Who pays?\nWhen?' });
    expect(answer.wordLimit).toBe(300);
    // In the closing, the debate so far: the last statement that is not the person's side's.
    const closing = personTask(
      task(
        '## The debate so far\n### Opening statements: Ada (Ban cars (affirmative))\nBan them.\n\n### Cross-examination: Ada (Ban cars (affirmative)) asks Blaise\nWhy not?\n\n### Cross-examination: Blaise (Keep cars (negative)) answers Ada\nBecause.',
        'closing statements',
      ),
    );
    expect(closing.opponent).toEqual({ speaker: 'Ada', text: 'Why not?' });
  });

  it('shows the person their own statement when the request asks for it again, shorter', () => {
    const asked = [
      { content: 'Motion: Ban cars' },
      {
        content:
          'You argue for: Keep cars\n## Your task: opening statements\nOpen.\nthe limit is 12 words, and a longer statement is sent back to be shortened.',
      },
      { role: 'assistant', content: 'A statement that ran on for far too many words.' },
      { role: 'user', content: 'That statement has 18 words; the limit is 12. Shorten it.' },
    ];
    const task = personTask(asked);
    expect(task).toMatchObject({
      side: 'Keep cars',
      yours: 'A statement that ran on for far too many words.',
      wordLimit: 12,
      task: 'That statement has 18 words; the limit is 12. Shorten it.',
    });
    const text = personTaskText(task, 12, 180);
    expect(text).toContain('Your statement was:\nA statement that ran on');
    expect(text).toContain('cut after about 12 words');
    expect(text).toContain('180 s of speaking time');
  });
});
