import { describe, expect, it } from 'vitest';
import {
  markIfCut,
  remainingTokens,
  simulatedSeconds,
  TIME_LIMIT_MARKER,
  tokenLimitFor,
} from '../../src/timer/speaking-timer.js';

const srs = { secondsPerSide: 300, tokensPerSecond: 3.75 };

describe('speaking timer', () => {
  it('turns tokens into seconds at the speaking rate', () => {
    expect(simulatedSeconds(225, srs)).toBe(60);
    expect(simulatedSeconds(1125, srs)).toBe(300);
  });

  it('gives each side its budget in tokens', () => {
    expect(remainingTokens(0, srs)).toBe(1125);
    expect(remainingTokens(240, srs)).toBe(225);
    expect(remainingTokens(400, srs)).toBe(0);
  });

  it('uses the smaller of the agent cap and the time left as num_predict', () => {
    expect(tokenLimitFor(1024, 0, srs)).toBe(1024);
    expect(tokenLimitFor(1024, 0, { secondsPerSide: 60, tokensPerSecond: 3.75 })).toBe(225);
    expect(tokenLimitFor(1024, 300, srs)).toBe(1);
  });

  it('marks only statements the limit cut short', () => {
    expect(markIfCut('We agree.  ', false)).toBe('We agree.  ');
    expect(markIfCut('We must act because', true)).toBe(`We must act because\n${TIME_LIMIT_MARKER}`);
  });
});
