import { describe, expect, it } from 'vitest';
import { judgeCandidates } from '../../src/tournament/judge-rule.js';
import { modelFamily } from '../../src/tournament/model-family.js';

describe('a model’s family', () => {
  it('is the name before the first colon, dash or digits', () => {
    expect(modelFamily('llama3:8b')).toBe('llama');
    expect(modelFamily('llama3.1:70b-instruct-q4_K_M')).toBe('llama');
    expect(modelFamily('qwen2.5-7b')).toBe('qwen');
    expect(modelFamily('qwen2.5:7b')).toBe('qwen');
    expect(modelFamily('mistral')).toBe('mistral');
    expect(modelFamily('mistral-nemo')).toBe('mistral');
    expect(modelFamily('Phi3:mini')).toBe('phi');
    expect(modelFamily('deepseek-r1:8b')).toBe('deepseek');
    expect(modelFamily('codellama:7b')).toBe('codellama');
    expect(modelFamily('hf.co/bartowski/gemma-2-9b-it-GGUF')).toBe('gemma');
    expect(modelFamily('7b-model')).toBe('7b-model');
  });
});

describe('the judge rule', () => {
  it('draws from outside the match and outside both debaters’ families when it can', () => {
    expect(judgeCandidates(['llama3', 'llama3.1', 'mistral', 'qwen2.5'], 'llama3', 'mistral')).toEqual({
      rule: 'other-family',
      candidates: ['qwen2.5'],
    });
  });

  it('falls back to any model outside the match when no other family is left', () => {
    expect(judgeCandidates(['llama3', 'llama3.1', 'mistral'], 'llama3', 'mistral')).toEqual({
      rule: 'other-model',
      candidates: ['llama3.1'],
    });
  });

  it('refuses a pairing no model outside it can judge', () => {
    expect(() => judgeCandidates(['llama3', 'mistral'], 'llama3', 'mistral')).toThrow(
      /no judge is left for llama3 against mistral/,
    );
  });
});
