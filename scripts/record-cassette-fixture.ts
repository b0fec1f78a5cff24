/**
 * Records the shipped knockout cassette again (after a change to what the engine sends) and its
 * expected transcript: `tsx scripts/record-cassette-fixture.ts`. The simulator answers; the
 * cassette test then replays the recording and compares the transcript.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startMockOllama } from '../src/mock-ollama/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = path.join(root, 'tests', 'fixtures', 'cassettes', 'knockout-short');
const calls = path.join(fixture, 'calls');

const server = await startMockOllama({ models: ['llama3', 'mistral'], profile: 'gpu', speed: 0.02 });
const out = mkdtempSync(path.join(tmpdir(), 'agora-cassette-'));
try {
  rmSync(calls, { recursive: true, force: true });
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'src/cli/main.ts'),
      'run',
      path.join(fixture, 'scenario.yaml'),
      '--seed',
      '11',
      '--host',
      server.url,
      '--out',
      out,
      '--quiet',
      '--record',
      calls,
    ],
    { cwd: root },
  );
  const [runDir] = readdirSync(out).filter((name) => !name.startsWith('index'));
  const transcript = JSON.parse(readFileSync(path.join(out, runDir as string, 'transcript.json'), 'utf8'));
  // As the test compares it: without the run's id, times and durations.
  const comparable = JSON.parse(
    JSON.stringify(transcript, (key, value) =>
      ['runId', 'startedAt', 'updatedAt', 'realMs', 'slow', 'slowRounds'].includes(key) ? undefined : value,
    ),
  );
  writeFileSync(path.join(fixture, 'expected-transcript.json'), `${JSON.stringify(comparable, null, 2)}\n`);
  process.stdout.write(`recorded ${readdirSync(calls).length} calls into ${calls}\n`);
} finally {
  await server.close();
  rmSync(out, { recursive: true, force: true });
}
