import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadMockScript,
  MockScriptError,
  parseMockScript,
  startMockOllama,
} from '../../src/mock-ollama/index.js';

describe('loadMockScript', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mock-script-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  it('reads a YAML script with a rules list and drives a server with it', async () => {
    const path = await file(
      'script.yaml',
      [
        'rules:',
        '  - match: { text: "verdict", model: llama3 }',
        '    json: { winner: X }',
        '  - match: { regex: "/^HELLO/i" }',
        '    times: 1',
        '    reply: Hi from YAML.',
        '  - fault: busy-503',
        '    match: { endpoint: generate }',
      ].join('\n'),
    );
    const rules = await loadMockScript(path);
    expect(rules).toHaveLength(3);
    expect(rules[0]).toEqual({ match: { text: 'verdict', model: 'llama3' }, json: { winner: 'X' } });
    expect(rules[2]?.fault).toBe('busy-503');

    const server = await startMockOllama({ script: rules });
    try {
      const client = new Ollama({ host: server.url });
      const reply = await client.chat({
        model: 'llama3',
        messages: [{ role: 'user', content: 'hello there' }],
      });
      expect(reply.message.content).toBe('Hi from YAML.');
      const verdict = await client.chat({
        model: 'llama3:latest',
        messages: [{ role: 'user', content: 'the verdict' }],
      });
      expect(JSON.parse(verdict.message.content)).toEqual({ winner: 'X' });
      await expect(client.generate({ model: 'llama3', prompt: 'x' })).rejects.toMatchObject({
        status_code: 503,
      });
    } finally {
      await server.close();
    }
  });

  it('reads a bare JSON list', async () => {
    const path = await file('script.json', JSON.stringify([{ reply: 'ok', latencyMs: 5 }]));
    expect(await loadMockScript(path)).toEqual([{ reply: 'ok', latencyMs: 5 }]);
  });

  it('rejects a bad rule, naming the file, line and field', async () => {
    const path = await file(
      'bad.yaml',
      ['rules:', '  - reply: fine', '  - fault: explode', '    times: 0'].join('\n'),
    );
    const error = await loadMockScript(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockScriptError);
    const message = (error as MockScriptError).message;
    expect(message).toContain(path);
    expect(message).toContain('rules[1].fault');
    expect(message).toContain('rules[1].times');
    expect((error as MockScriptError).issues.find((i) => i.path === 'rules[1].fault')?.line).toBe(3);
  });

  it('rejects unknown keys, invalid regexes, syntax errors and missing files', async () => {
    const unknown = await file('unknown.yaml', '- reply: x\n  replay: y\n');
    await expect(loadMockScript(unknown)).rejects.toThrow(/unknown\.yaml.*\[0\]/s);
    const regex = await file('regex.yaml', '- match: { regex: "(" }\n  reply: x\n');
    await expect(loadMockScript(regex)).rejects.toThrow(
      /\[0\]\.match\.regex: not a valid regular expression/,
    );
    const broken = await file('broken.json', '{"rules": [');
    await expect(loadMockScript(broken)).rejects.toThrow(/broken\.json.*not valid YAML\/JSON/s);
    const scalar = await file('scalar.yaml', 'just text\n');
    await expect(loadMockScript(scalar)).rejects.toThrow(/list of rules/);
    await expect(loadMockScript(join(dir, 'missing.yaml'))).rejects.toThrow(/missing\.yaml.*cannot read/s);
  });

  it('validates in-code scripts too', async () => {
    expect(() => parseMockScript([{ reply: 'a', json: {} }], 'inline')).toThrow(/inline.*\[0\]\.json/s);
    await expect(startMockOllama({ script: [{ fault: 'nope' as 'hang' }] })).rejects.toBeInstanceOf(
      MockScriptError,
    );
  });
});
