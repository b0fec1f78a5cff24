import { describe, expect, it } from 'vitest';
import { DEFAULT_OLLAMA_HOST, normalizeOllamaHost, resolveOllamaHost } from '../../src/llm/ollama-host.js';

describe('Ollama host forms', () => {
  it.each([
    ['example.org', 'http://example.org:11434'],
    ['example.org:8080', 'http://example.org:8080'],
    [':9999', 'http://127.0.0.1:9999'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    ['http://10.0.0.5:11434/', 'http://10.0.0.5:11434'],
    ['https://models.internal', 'https://models.internal:443'],
    ['http://box', 'http://box:80'],
    ['', DEFAULT_OLLAMA_HOST],
  ])('%s → %s', (input, expected) => {
    expect(normalizeOllamaHost(input)).toBe(expected);
  });

  it('prefers the flag, then the scenario, then OLLAMA_HOST', () => {
    expect(resolveOllamaHost({ flag: 'a:1', scenario: 'b:2', env: 'c:3' })).toBe('http://a:1');
    expect(resolveOllamaHost({ scenario: 'b:2', env: 'c:3' })).toBe('http://b:2');
    expect(resolveOllamaHost({ env: 'c:3' })).toBe('http://c:3');
    expect(resolveOllamaHost({})).toBe(DEFAULT_OLLAMA_HOST);
  });

  it('refuses other schemes', () => {
    expect(() => normalizeOllamaHost('ftp://x')).toThrow(/unsupported scheme/);
  });
});
