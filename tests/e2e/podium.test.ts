/**
 * A person at the podium: a knockout whose Position X speaks through standard input, judged,
 * extracted and rotated like any debater; input that ends early pauses the run at the person's
 * turn, and `resume` with the rest of the input finishes it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { testScenario } from '../helpers/scenario.js';
import { onlyRunDir, readEvents, readTranscript } from '../helpers/transcripts.js';

const start = useMockServers({ models: ['llama3', 'mistral'] });

const FIRST =
  'Car-free centres save lives, because traffic injuries fall sharply wherever cars are removed. Shops gain footfall when people walk instead of drive.';
const SECOND =
  'My opponent says retail suffers, yet the pilot streets kept their shops. Clean air is a public good that no one should have to buy.';

function scenarioFile(): { dir: string; file: string; out: string } {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify(testScenario({ rounds: 2 })));
  return { dir, file, out: path.join(dir, 'runs') };
}

const chatModels = (server: { requests: Array<{ path: string; body: unknown }> }) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => (request.body as { model: string }).model);

describe('a person at the podium', () => {
  it('speaks for Position X from piped input, judged by three judges a round, with claims taken from their words', async () => {
    const server = await start();
    const { file, out } = scenarioFile();
    const result = await runAgora(
      ['run', file, '--host', server.url, '--out', out, '--human', 'x', '--rounds', '2'],
      { input: `${FIRST}\n.\n${SECOND}\n.\n` },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('=== Your turn at the podium ===');
    expect(result.stdout).toContain('Motion: Should cities ban cars from their centres?');
    expect(result.stdout).toContain('Feedback for Xavier, the person at the podium:');
    // Position X is not scored in a knockout: its person is shown no criteria.
    expect(result.stdout).not.toContain('The judges score your statement');
    const runDir = onlyRunDir(out);
    const events = readEvents(runDir);
    const xTurns = events.filter((event) => event.type === 'turn-end' && event.position === 'X');
    expect(xTurns.map((turn) => turn.text)).toEqual([FIRST, SECOND]);
    expect(xTurns.map((turn) => turn.model)).toEqual(['person', 'person']);
    const transcript = readTranscript(runDir);
    expect(transcript.status).toBe('completed');
    expect(transcript.rounds).toHaveLength(2);
    for (const round of transcript.rounds) expect(round.evaluations).toHaveLength(3);
    // The person's claims are sentences they said, recorded like any debater's.
    const claims = events
      .filter((event) => event.type === 'claims' && event.position === 'X')
      .flatMap((event) => (event.claims as Array<{ claim: string }>).map((claim) => claim.claim));
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) expect(`${FIRST} ${SECOND}`).toContain(claim);
    // No model was asked to speak for the person, and the person's seat never reached the server.
    expect(chatModels(server)).not.toContain('person');
    const agents = transcript.stats.agents.find((agent) => agent.name === 'Xavier');
    expect(agents?.model).toBe('person');
  });

  it('pauses at the person’s turn when the input ends early, and resume finishes with the rest', async () => {
    const server = await start();
    const { file, out } = scenarioFile();
    const first = await runAgora(
      ['run', file, '--host', server.url, '--out', out, '--human', 'x', '--rounds', '2'],
      {
        input: `${FIRST}\n.\n`,
      },
    );
    expect(first.code).toBe(130);
    const runDir = onlyRunDir(out);
    expect(first.stdout).toContain(`resume ${runDir}`);
    expect(readEvents(runDir).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'stopped',
      stopReason: 'awaiting-person',
    });
    expect(readTranscript(runDir).status).toBe('stopped');
    const second = await runAgora(['resume', runDir, '--host', server.url], { input: `${SECOND}\n` });
    expect(second.code).toBe(0);
    const events = readEvents(runDir);
    const xTurns = events.filter((event) => event.type === 'turn-end' && event.position === 'X');
    expect(xTurns.map((turn) => turn.text)).toEqual([FIRST, SECOND]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(readTranscript(runDir).rounds.every((round) => round.evaluations.length === 3)).toBe(true);
  });

  it('seats a person in Position Y, judged by the other Y agents on every criterion', async () => {
    const server = await start();
    const { file, out } = scenarioFile();
    const result = await runAgora(
      ['run', file, '--host', server.url, '--out', out, '--human', 'Yara', '--rounds', '1', '--quiet'],
      { input: `${FIRST}\n.\n` },
    );
    expect(result.code).toBe(0);
    const events = readEvents(onlyRunDir(out));
    const yara = events.filter((event) => event.type === 'turn-end' && event.agent === 'Yara');
    expect(yara.map((turn) => [turn.model, turn.text])).toEqual([['person', FIRST]]);
    const votes = events.filter((event) => event.type === 'vote-cast');
    expect(votes).toHaveLength(3);
    expect(votes.map((vote) => vote.judge)).not.toContain('Yara');
    expect(result.stdout).toContain('Feedback for Yara, the person at the podium:');
    expect(result.stdout.replace(/\s+/g, ' ')).toMatch(/argument strength \d/);
    // Before speaking, the person is shown what the judges score, as the rules tell the models.
    expect(result.stdout).toContain('The judges score your statement from 1 (poor) to 5 (excellent) on:');
    expect(result.stdout).toMatch(
      /^- Argument strength \(weight 0\.4\) Scores: 1 = No substantial arguments/m,
    );
    expect(result.stdout).toMatch(/^- Clarity \(weight 0\.1\)/m);
  });

  it('refuses a seat the debate does not have, naming the seats it has', async () => {
    const { file, out } = scenarioFile();
    const result = await runAgora(['run', file, '--out', out, '--human', 'Zed']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--human Zed');
    expect(result.stderr).toContain('Yara');
  });
});
