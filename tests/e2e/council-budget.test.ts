import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { finalPacketSchema } from '../../src/formats/council/packet-schema.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral'] });

/** A council scenario with no `stop` section: the budget is the council's default. */
function scenario(extra: Record<string, unknown> = {}) {
  const dir = tempDir();
  const file = path.join(dir, 'council.yaml');
  writeFileSync(
    file,
    stringify({
      format: 'council',
      topic: 'Should we move the billing database to PostgreSQL?',
      constraints: ['30 minutes of downtime at most'],
      seed: 11,
      reliability: { attempts: 2, backoff_ms: 5, max_backoff_ms: 10, request_timeout_seconds: 60 },
      ...extra,
    }),
  );
  return { file, out: path.join(dir, 'runs') };
}

interface Budget {
  limits: { max_total_output_tokens: number | null; max_runtime_seconds: number | null };
  used: {
    output_tokens: number;
    prompt_tokens: number;
    cached_prompt_tokens: number | null;
    model_calls: number;
    active_seconds: number;
  };
  share_used: { output_tokens: number | null; active_seconds: number | null };
  cut: { reason: string; states: string[] } | null;
  recorded_at_state: string;
}

/** Text with its line wrapping undone: the report wraps to the terminal's width. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

const readJson = <T>(runDir: string, name: string) =>
  JSON.parse(readFileSync(path.join(runDir, name), 'utf8')) as T;

/** The sums over the run's model calls as its events record them, up to the budget's record. */
function eventTotals(runDir: string) {
  const events = readEvents(runDir);
  const recordedAt = events.findIndex((event) => event.type === 'artifact' && event.name === 'budget');
  expect(recordedAt).toBeGreaterThan(0);
  const calls = events.slice(0, recordedAt).filter((event) => event.type === 'assessment');
  const sum = (field: string) => calls.reduce((total, event) => total + Number(event[field] ?? 0), 0);
  const start = Date.parse(String(events[0]?.at));
  const last = Date.parse(String(events[recordedAt - 1]?.at));
  return {
    output: sum('outputTokens'),
    prompt: sum('promptTokens'),
    calls: sum('attempts'),
    activeSeconds: (last - start) / 1000,
  };
}

/** The "whole run" row of the token table the report ends with: calls, prompt and output tokens. */
function tokenTableTotals(stdout: string) {
  const row = stdout.split('\n').find((line) => /^\s*whole run\b/.test(line));
  expect(row).toBeDefined();
  const numbers = (row ?? '').match(/\d+/g)?.map(Number) ?? [];
  // Model, Calls, Prompt tokens, Cached (—), Cache share (—), Output tokens.
  return { calls: numbers[0], prompt: numbers[1], output: numbers.at(-1) };
}

describe('the council budget', () => {
  it('a council without a stop section gets the default budget and records what it used', async () => {
    const server = await mock();
    const { file, out } = scenario();
    const validated = await runAgora(['validate', file]);
    expect(validated.stdout).toMatch(/3600 s of active time; 16000 output tokens in all/);

    const result = await runAgora(['run', file, '--host', server.url, '--out', out]);
    expect(result.code).toBe(0);
    const runDir = onlyRunDir(out);
    const budget = readJson<Budget>(runDir, 'budget.json');
    expect(budget.limits).toEqual({ max_total_output_tokens: 16000, max_runtime_seconds: 3600 });
    expect(budget.cut).toBeNull();
    expect(budget.recorded_at_state).toBe('Packetize');

    // The record agrees with the events, with what the server counted and with the token table.
    const totals = eventTotals(runDir);
    expect(budget.used.output_tokens).toBe(totals.output);
    expect(budget.used.prompt_tokens).toBe(totals.prompt);
    expect(budget.used.model_calls).toBe(totals.calls);
    // The record gives a tenth of a second: at most half of one off, and a hair for the float.
    expect(Math.abs(budget.used.active_seconds - totals.activeSeconds)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(budget.used.model_calls).toBeGreaterThanOrEqual(13);
    const served = server.stats();
    expect(budget.used.output_tokens).toBe(served.outputTokens);
    expect(budget.used.prompt_tokens).toBe(served.promptTokens);
    expect(tokenTableTotals(result.stdout)).toEqual({
      calls: budget.used.model_calls,
      prompt: budget.used.prompt_tokens,
      output: budget.used.output_tokens,
    });
    // The record gives the share to a thousandth: at most half of one off, and a hair for the float.
    expect(
      Math.abs((budget.share_used.output_tokens ?? Number.NaN) - budget.used.output_tokens / 16000),
    ).toBeLessThanOrEqual(0.0005 + 1e-9);
    expect(budget.used.output_tokens).toBeGreaterThan(0);
    expect(budget.used.output_tokens).toBeLessThan(16000);

    // Each round file has its share, per role and in all; with the Judge's, they make the whole.
    const rounds = [1, 2, 3].map((round) =>
      readJson<{ usage: { output_tokens: number }; outputs: Array<{ usage: { output_tokens: number } }> }>(
        runDir,
        `rounds/round-${round}.json`,
      ),
    );
    for (const round of rounds) {
      expect(round.outputs).toHaveLength(4);
      expect(round.outputs.reduce((total, output) => total + output.usage.output_tokens, 0)).toBe(
        round.usage.output_tokens,
      );
    }
    const judge = readEvents(runDir).find(
      (event) => event.type === 'assessment' && event.phase === 'decision',
    );
    expect(
      rounds.reduce((total, round) => total + round.usage.output_tokens, 0) + Number(judge?.outputTokens),
    ).toBe(budget.used.output_tokens);

    // The same record in the transcript, the report, transcript.md and the decision record.
    const transcript = readJson<{ budget: Budget; status: string }>(runDir, 'transcript.json');
    expect(transcript.status).toBe('completed');
    expect(transcript.budget).toEqual(budget);
    const line = `Budget: ${budget.used.output_tokens} of 16000 output tokens, ${budget.used.prompt_tokens} prompt tokens, ${budget.used.model_calls} model calls, ${budget.used.active_seconds} s active of 3600 s.`;
    expect(flat(result.stdout)).toContain(line);
    expect(flat(readFileSync(path.join(runDir, 'transcript.md'), 'utf8'))).toContain(line);
    const packet = finalPacketSchema.parse(readJson(runDir, 'final-packet.json'));
    expect(packet.trace.evidence_refs).toContain('budget.json');
    const note = readFileSync(String((transcript as unknown as { note: string }).note), 'utf8');
    expect(note).toContain(`budget: ${path.join(runDir, 'budget.json')}`);
    expect(note).toContain(line);
  });

  it('validate warns when the budget cannot hold every call at its cap, and not for the shipped council', async () => {
    const warning =
      /stop\.max_total_output_tokens: 16000 tokens is less than the council's 13 model calls at their caps \((\d+) tokens/;
    const larger = await runAgora(['validate', scenario({ max_tokens: 1400 }).file]);
    expect(larger.code).toBe(0);
    // 12 role answers at 1400 and the Judge at 1200.
    expect(warning.exec(larger.stderr)?.[1]).toBe('18000');
    const thinking = { model: 'llama3', think: true };
    const thinkers = await runAgora([
      'validate',
      scenario({
        participants: {
          proponent: thinking,
          critic: thinking,
          analyst: thinking,
          synthesizer: thinking,
          judge: thinking,
        },
      }).file,
    ]);
    // 8400 at the caps and 13 thinking budgets of 1500.
    expect(warning.exec(thinkers.stderr)?.[1]).toBe('27900');
    const shipped = await runAgora(['validate', 'scenarios/council-billing-database.yaml']);
    expect(shipped.code).toBe(0);
    expect(shipped.stdout).toMatch(/3600 s of active time; 16000 output tokens in all/);
    expect(shipped.stderr).not.toMatch(/max_total_output_tokens/);
  });

  it('a time budget that runs out cuts the model states, ends degraded and is recorded as cut', async () => {
    // Every answer takes over a second of real time, so one second of activity runs out early.
    const server = await mock({ script: [{ latencyMs: 1200 }] });
    const { file, out } = scenario({ stop: { max_runtime_seconds: 1 } });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out]);
    expect(result.code).toBe(9);
    const runDir = onlyRunDir(out);
    const budget = readJson<Budget>(runDir, 'budget.json');
    expect(budget.limits).toEqual({ max_total_output_tokens: 16000, max_runtime_seconds: 1 });
    expect(budget.cut?.reason).toMatch(/^max_runtime_seconds reached \([\d.]+ s active of 1 s\)$/);
    expect(budget.cut?.states).toContain('Judge');
    expect(budget.used.active_seconds).toBeGreaterThanOrEqual(1);
    expect(budget.share_used.active_seconds).toBeGreaterThanOrEqual(1);
    // No model call after the cut: the record counts every call the server answered.
    const totals = eventTotals(runDir);
    expect(budget.used.model_calls).toBe(totals.calls);
    expect(budget.used.model_calls).toBe(
      server.requests.filter((request) => request.path === '/api/chat').length,
    );
    expect(budget.used.output_tokens).toBe(server.stats().outputTokens);

    const transcript = readJson<{ budget: Budget; status: string; state: string }>(runDir, 'transcript.json');
    expect(transcript).toMatchObject({ status: 'degraded', state: 'Done' });
    expect(transcript.budget).toEqual(budget);
    expect(flat(result.stdout)).toMatch(
      /Budget: \d+ of 16000 output tokens, .* s active of 1 s; cut .*Judge/,
    );
    const packet = finalPacketSchema.parse(readJson(runDir, 'final-packet.json'));
    expect(packet.decision.selected_option).toMatch(/budget ran out/);
    expect(packet.trace.evidence_refs).toContain('budget.json');
  });
});
