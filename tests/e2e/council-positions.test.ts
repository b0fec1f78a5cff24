import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { MockOllama } from '../../src/mock-ollama/index.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

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
      seed: 11,
      reliability: FAST,
      ...extra,
    }),
  );
  return { file, out: path.join(dir, 'runs') };
}

/** The chat requests the server saw: the messages joined, and the answer format asked for. */
const chats = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => {
      const body = request.body as { messages: Array<{ content: string }>; format?: unknown };
      return { text: body.messages.map((message) => message.content).join('\n'), format: body.format };
    });

const ROLES = ['Proponent', 'Critic', 'Analyst', 'Synthesizer'];

describe('council: honest positions', () => {
  it('asks for a stance on the proposal, keeps failures and authorship out of the prompts, and repairs small slips', async () => {
    const server = await mock({
      script: [
        // The Critic's model fails in round 1, both attempts.
        { match: { prompt: '## Your task: round 1 as the Critic' }, times: 2, fault: 'error-500' },
        {
          match: { prompt: '## Your task: round 1 as the Proponent' },
          json: { claim: 'Move now.', rationale: 'It is cheaper.', risks: [], stance: 'for', confidence: 85 },
        },
        {
          match: { prompt: '## Your task: the decision' },
          json: {
            weighing: 'PostgreSQL meets the constraints; staying costs more each quarter.',
            selected_option: 'adopt with conditions',
            why_selected: ['Cheaper'],
            rejected_options: [],
            risks: [],
            next_actions: [
              { id: 'A1', action: 'Plan the move', owner: 'ops', due: '2031-01-15' },
              { id: 'A2', action: 'Test the backups', owner: 'ops', due: 'next week' },
            ],
          },
        },
      ],
    });
    const { file, out } = scenario();
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    // The Critic's failed round makes the run degraded (exit code 9), not failed.
    expect(result.code).toBe(9);
    const asked = chats(server);
    const roundOne = asked.find((chat) => chat.text.includes('round 1 as the Analyst'));
    expect(roundOne?.text).toContain('"stance": "for" | "against" | "conditional"');
    expect(roundOne?.text).not.toMatch(/most promising/);

    // Round 2: the Critic's failure is a plain line, and nobody's answer carries its role's name.
    const reviews = ROLES.filter((role) => role !== 'Critic').map((reviewer) => ({
      reviewer,
      text: asked.find((chat) => chat.text.includes(`round 2 as the ${reviewer}`))?.text ?? '',
    }));
    for (const { text } of reviews) {
      expect(text).toContain('(no answer: its model failed)');
      expect(text).not.toMatch(/model call failed|Ollama at|http:\/\//);
      expect(text).toMatch(/### Response A\n[\s\S]*### Response B\n[\s\S]*### Response C\n/);
      for (const role of ROLES) expect(text).not.toContain(`### ${role}`);
    }

    const runDir = onlyRunDir(out);
    const events = readEvents(runDir).filter((event) => event.type === 'assessment');
    const proponent = events.find((event) => event.phase === 'round-1' && event.judge === 'Proponent');
    expect(proponent?.result).toMatchObject({ confidence: 0.85, confidence_given: 85 });
    const mappings = events
      .filter((event) => event.phase === 'round-2' && event.result)
      .map((event) => {
        const result = event.result as {
          peer_labels: Record<string, string>;
          challenges: Array<{ target: string; target_role: string }>;
        };
        expect(Object.values(result.peer_labels).sort()).toEqual(
          ROLES.filter((role) => role !== event.judge).sort(),
        );
        for (const challenge of result.challenges)
          expect(challenge.target_role).toBe(result.peer_labels[challenge.target]);
        const review = asked.find((chat) => chat.text.includes(`round 2 as the ${event.judge}`))?.text ?? '';
        // The label the reviewer saw is the role recorded for it.
        for (const [label, role] of Object.entries(result.peer_labels)) {
          const shown = review.split(`### ${label}\n`)[1]?.split('\n### ')[0] ?? '';
          const answered = events.find((item) => item.phase === 'round-1' && item.judge === role);
          if (answered?.result)
            expect(shown).toContain(String((answered.result as { claim?: unknown }).claim));
        }
        return JSON.stringify(result.peer_labels);
      });
    expect(new Set(mappings).size).toBeGreaterThan(1);

    const packet = JSON.parse(readFileSync(path.join(runDir, 'final-packet.json'), 'utf8')) as {
      decision: { selected_option: string };
      next_actions: Array<{ id: string; due: string }>;
      risks: Array<{ risk: string }>;
      timestamps: { started_at: string };
    };
    expect(packet.decision.selected_option).toBe('adopt with conditions');
    // On a proposal taken or not, the Judge selects one of the decisions the rules name, never free text.
    const decision = asked.find((chat) => chat.text.includes('## Your task: the decision'));
    const properties =
      (decision?.format as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    const DECISIONS = ['adopt', 'adopt with conditions', 'reject'];
    expect(properties.selected_option).toEqual({ type: 'string', enum: DECISIONS });
    expect(JSON.stringify(properties.rejected_options)).toContain(
      `"option":{"type":"string","enum":${JSON.stringify(DECISIONS)}}`,
    );
    expect(decision?.text).toContain('"selected_option": "adopt" | "adopt with conditions" | "reject"');
    expect(decision?.text).toContain(
      'Options: adopt the proposal in the question, adopt it with conditions, or reject it ("adopt", "adopt with conditions", "reject").',
    );
    const fallback = new Date(Date.parse(packet.timestamps.started_at) + 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(packet.next_actions).toEqual([
      expect.objectContaining({ id: 'A1', due: '2031-01-15' }),
      expect.objectContaining({ id: 'A2', due: fallback }),
    ]);
    expect(packet.risks.map((risk) => risk.risk).join('\n')).toContain(`A2 "next week" set to ${fallback}`);
  }, 900_000);

  it('takes the stances from the options the scenario lists', async () => {
    const server = await mock();
    const { file, out } = scenario({ options: ['PostgreSQL', 'MySQL', 'Stay on SQLite'] });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const roundThree = chats(server).find((chat) => chat.text.includes('round 3 as the Critic'));
    expect(roundThree?.text).toContain('"stance": "PostgreSQL" | "MySQL" | "Stay on SQLite"');
    expect(JSON.stringify(roundThree?.format)).toContain('"enum":["PostgreSQL","MySQL","Stay on SQLite"]');
    const stances = readEvents(onlyRunDir(out))
      .filter(
        (event) => event.type === 'assessment' && (event.phase === 'round-1' || event.phase === 'round-3'),
      )
      .map((event) => (event.result as { stance: string }).stance);
    expect(stances.length).toBeGreaterThan(0);
    for (const stance of stances) expect(['PostgreSQL', 'MySQL', 'Stay on SQLite']).toContain(stance);
    // The Judge chooses among the options too: its selection is an enum of them, and so is each rejection.
    const decision = chats(server).find((chat) => chat.text.includes('## Your task: the decision'));
    const properties =
      (decision?.format as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    expect(properties.selected_option).toEqual({
      type: 'string',
      enum: ['PostgreSQL', 'MySQL', 'Stay on SQLite'],
    });
    expect(JSON.stringify(properties.rejected_options)).toContain(
      '"option":{"type":"string","enum":["PostgreSQL","MySQL","Stay on SQLite"]}',
    );
    expect(decision?.text).toContain('"selected_option": "PostgreSQL" | "MySQL" | "Stay on SQLite"');
    const packet = JSON.parse(readFileSync(path.join(onlyRunDir(out), 'final-packet.json'), 'utf8')) as {
      decision: { selected_option: string };
    };
    expect(['PostgreSQL', 'MySQL', 'Stay on SQLite']).toContain(packet.decision.selected_option);
  }, 900_000);
});
