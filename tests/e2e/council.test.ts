import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { finalPacketSchema } from '../../src/formats/council/packet-schema.js';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, startAgora, tempDir } from '../helpers/cli.js';
import { useMockServers, waitForEvents } from '../helpers/mock-servers.js';
import { comparable, onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });
const FAST = {
  attempts: 2,
  backoff_ms: 5,
  max_backoff_ms: 10,
  request_timeout_seconds: 60,
  max_consecutive_failures: 3,
};

function scenario(extra: Record<string, unknown> = {}) {
  const dir = tempDir();
  const file = path.join(dir, 'council.yaml');
  writeFileSync(
    file,
    stringify({
      format: 'council',
      topic: 'Should we move the billing database to PostgreSQL?',
      constraints: ['30 minutes of downtime at most'],
      // A fixed seed: runs compared with each other must make the same draws.
      seed: 3,
      reliability: FAST,
      ...extra,
    }),
  );
  return { dir, file, out: path.join(dir, 'runs') };
}

const chatTexts = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => ({
      request,
      text: (request.body as { messages: Array<{ content: string }> }).messages
        .map((message) => message.content)
        .join('\n'),
    }));

describe('format: council', () => {
  it('walks the eight states in order and writes every file, the packet and a decision record', async () => {
    // Round 1's answers take 2 s more, so the roles sent side by side all reach the server before
    // the first answer ends, even when a busy machine holds the sender up between them.
    const server = await mock({
      speed: 0.02,
      script: [{ match: { text: '## Your task: round 1 as' }, latencyMs: 2000 }],
    });
    const { file, out } = scenario();
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const steps = readEvents(runDir)
      .filter((event) => event.type === 'artifact' || event.type === 'assessment')
      .map((event) => (event.type === 'artifact' ? String(event.name) : String(event.phase)));
    const collapsed = steps.filter((step, index) => step !== steps[index - 1]);
    expect(collapsed).toEqual([
      'intake',
      'round-1',
      'round-2',
      'round-3',
      'consensus',
      'decision',
      'budget',
      'final-packet',
      'writeback',
    ]);
    for (const name of [
      'request.json',
      'rounds/round-1.json',
      'rounds/round-2.json',
      'rounds/round-3.json',
      'consensus.json',
      'final-packet.json',
      'final-packet.md',
      'budget.json',
    ]) {
      expect(existsSync(path.join(runDir, name))).toBe(true);
    }
    const packet = finalPacketSchema.parse(
      JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')),
    );
    expect(packet.mode).toBe('debate-v0.1');
    expect(packet.participants.map((participant) => participant.role)).toEqual([
      'Proponent',
      'Critic',
      'Analyst',
      'Synthesizer',
      'Judge',
    ]);
    expect(packet.next_actions.length).toBeGreaterThan(0);
    const round2 = JSON.parse(readFileSync(path.join(runDir, 'rounds/round-2.json'), 'utf8')) as {
      outputs: Array<{ role: string; challenges: Array<{ target_role: string }> }>;
    };
    // Round 2: every role challenged at least one other role, never itself.
    expect(round2.outputs).toHaveLength(4);
    for (const output of round2.outputs) {
      expect(output.challenges.length).toBeGreaterThan(0);
      for (const challenge of output.challenges) expect(challenge.target_role).not.toBe(output.role);
    }

    // The decision record points back at the run, and `show` finds the run from it.
    const note = path.join(out, 'notes', `${packet.run_id}.md`);
    const record = readFileSync(note, 'utf8');
    expect(record).toMatch(new RegExp(`^---\\ntype: decision\\nrun_id: ${path.basename(runDir)}\\n`));
    expect(record).toContain(`packet: ${path.join(runDir, 'final-packet.json')}`);
    const shown = await runAgora(['show', note]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(packet.decision.selected_option);
    const byPacketId = await runAgora(['show', packet.run_id, '--out', out]);
    expect(byPacketId.stdout).toBe(shown.stdout);

    // Round 1 roles answer side by side; round 2 prompts carry round 1's answers.
    const prompts = chatTexts(server);
    const round1 = prompts.filter(({ text }) => text.includes('## Your task: round 1 as'));
    expect(round1).toHaveLength(4);
    const starts = round1.map(({ request }) => request.receivedAt).sort((a, b) => a - b);
    const firstEnd = Math.min(...round1.map(({ request }) => request.finishedAt ?? Number.POSITIVE_INFINITY));
    expect(starts[1]).toBeLessThan(firstEnd);
    // Before anyone has answered, a round 1 prompt holds the round's task and no answer.
    expect(
      round1.every(
        ({ text }) => text.includes('## Round 1: opening positions') && !text.includes('### Response'),
      ),
    ).toBe(true);
    const criticRound2 = prompts.find(({ text }) => text.includes('## Your task: round 2 as the Critic'));
    const opening = readEvents(runDir).find(
      (event) => event.phase === 'round-1' && event.judge === 'Proponent',
    );
    const proponentClaim = String((opening?.result as { claim?: string } | undefined)?.claim);
    expect(criticRound2?.text).toContain(proponentClaim);

    // The index has the council's turns and actions.
    const actions = await runAgora(['query', '--out', out, '--json', 'SELECT id, due, status FROM actions']);
    expect((JSON.parse(actions.stdout) as unknown[]).length).toBe(packet.next_actions.length);
    const turns = await runAgora([
      'query',
      '--out',
      out,
      '--csv',
      'SELECT COUNT(*) FROM council_turns WHERE challenges IS NOT NULL',
    ]);
    expect(turns.stdout.trim().split('\n')[1]).toBe('4');
  });

  it('produces packets of the same shape with two different model line-ups', async () => {
    const server = await mock();
    const shapes: string[] = [];
    for (const participants of [
      {
        proponent: { model: 'llama3' },
        critic: { model: 'llama3' },
        analyst: { model: 'llama3' },
        synthesizer: { model: 'llama3' },
        judge: { model: 'llama3' },
      },
      {
        proponent: { model: 'mistral' },
        critic: { model: 'llama3' },
        analyst: { model: 'mistral' },
        synthesizer: { model: 'llama3' },
        judge: { model: 'mistral' },
      },
    ]) {
      const { file, out } = scenario({ participants });
      expect((await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'])).code).toBe(0);
      const packet = finalPacketSchema.parse(
        JSON.parse(readFileSync(path.join(onlyRunDir(out), 'final-packet.json'), 'utf8')),
      );
      shapes.push(JSON.stringify(Object.keys(packet)));
      expect(packet.participants.find((participant) => participant.role === 'Judge')?.model_name).toBe(
        participants.judge.model,
      );
    }
    expect(shapes[0]).toBe(shapes[1]);
  });

  it('ends degraded and visibly (exit 9) when a role fails in every round, within the failure limit', async () => {
    const server = await mock({ script: [{ match: { prompt: 'Your name: Critic' }, fault: 'error-500' }] });
    const { file, out } = scenario({ reliability: { ...FAST, max_consecutive_failures: 4 } });
    // Wide enough that the report's lines are not wrapped: this reads what they say.
    const result = await runAgora(['run', file, '--host', server.url, '--out', out], {
      env: { COLUMNS: '100000' },
    });
    expect(result.code).toBe(9);
    expect(result.stdout).toMatch(/\(degraded: 3 failed steps stand in its record and decided part of it\)/);
    expect(result.stdout.match(/^round-\d\s+Critic\s+\S+\s+\(failed: /gm)).toHaveLength(3);
    expect(result.stdout).toMatch(/Degraded: 3 failed steps stand in this record/);
    const runDir = onlyRunDir(out);
    const transcript = JSON.parse(readFileSync(path.join(runDir, 'transcript.json'), 'utf8')) as {
      degraded: Array<{ role: string }>;
      state: string;
    };
    expect(transcript.state).toBe('Done');
    expect(transcript.degraded.map((item) => item.role)).toEqual(['Critic', 'Critic', 'Critic']);
    finalPacketSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')));
  });

  it('resumes after kill -9 with the same packet', async () => {
    const server = await mock({ speed: 0.05 });
    // Same seed, same run: round 2's anonymous labels are drawn from it.
    const { file, out } = scenario({ seed: 7 });
    await runAgora(['run', file, '--host', server.url, '--out', `${out}-reference`, '--quiet']);
    const { child, result } = startAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    await waitForEvents(out, 7);
    child.kill('SIGKILL');
    await result;
    const runDir = onlyRunDir(out);
    expect((await runAgora(['resume', runDir, '--host', server.url, '--quiet'])).code).toBe(0);
    const packet = (dir: string) => {
      const data = JSON.parse(readFileSync(path.join(dir, 'final-packet.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      // The packet's run id and times belong to each run; everything else must match.
      const { run_id: _id, timestamps: _times, trace: _trace, ...rest } = data;
      return rest;
    };
    expect(packet(runDir)).toEqual(packet(onlyRunDir(`${out}-reference`)));
    const transcripts = [runDir, onlyRunDir(`${out}-reference`)].map((dir) =>
      JSON.parse(readFileSync(path.join(dir, 'transcript.json'), 'utf8')),
    );
    // Active time is measured on the clock, so it is the one figure two runs never share.
    const sameRun = (transcript: { budget: { used: object; share_used: object } }) =>
      comparable({
        ...transcript,
        finalPacket: null,
        note: null,
        budget: {
          ...transcript.budget,
          used: { ...transcript.budget.used, active_seconds: null },
          share_used: { ...transcript.budget.share_used, active_seconds: null },
        },
      } as never);
    expect(sameRun(transcripts[0])).toEqual(sameRun(transcripts[1]));
  });
});
