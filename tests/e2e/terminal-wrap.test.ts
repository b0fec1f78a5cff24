import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { agoraCommandLine, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readTranscript } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const ESC = String.fromCharCode(27);
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI on a real pseudo-terminal 60 columns wide (util-linux `script`). */
function onTerminal(args: string[], cwd: string): Promise<string> {
  const command = `stty cols 60 rows 40; ${agoraCommandLine(args).map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd,
      env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:1', COLUMNS: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

describe('the live view on a terminal', () => {
  it('wraps statements at word boundaries within the terminal width', async () => {
    const server = await mock();
    const dir = tempDir();
    writeFileSync(path.join(dir, 'scenario.yaml'), stringify(testScenario({ rounds: 2 })));
    const output = await onTerminal(['run', 'scenario.yaml', '--host', server.url, '--out', 'runs'], dir);
    const shown = output
      .replace(new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, 'g'), '')
      .split(/\r?\n/)
      .map((line) => line.replace(/\r/g, ''));
    const transcript = readTranscript(onlyRunDir(path.join(dir, 'runs')));
    const statements = transcript.rounds.flatMap((round) => round.statements.map((item) => item.text));
    expect(statements.length).toBe(4);
    // Statement lines stay one short of the 60 columns and no word is cut in two.
    const shownWords = new Set(shown.flatMap((line) => line.split(/\s+/)));
    for (const word of statements.flatMap((text) => text.split(/\s+/)).filter((item) => item.length < 40))
      expect(shownWords).toContain(word);
    const statementLines = shown.filter((line) =>
      statements.some((text) => line !== '' && text.includes(line.trim())),
    );
    expect(statementLines.length).toBeGreaterThan(8);
    expect(statementLines.filter((line) => line.length > 59)).toEqual([]);
  });
});
