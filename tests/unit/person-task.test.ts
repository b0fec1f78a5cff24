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

  it('has no opponent before anyone else has spoken', () => {
    expect(
      personTask([messages[0] as { content: string }, messages[2] as { content: string }]).opponent,
    ).toBeUndefined();
  });
});
