/**
 * Judges that see what they judge, read from the requests the mock server recorded: long debates
 * reach the judge as summaries of the earlier rounds and the newest round verbatim (never the
 * window's omission marker), side-swapped calls measure the model's real characters per token, and
 * numbers a grammar let through outside their bounds are held to them rather than abstained on.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type MockOllama, startMockOllama } from '../../src/mock-ollama/index.js';
import { TIME_LIMIT_MARKER } from '../../src/timer/speaking-timer.js';
import { runAgora, tempDir } from '../helpers/cli.js';
import { FAST_RETRIES, SMALL_SCENARIOS } from '../helpers/format-scenarios.js';
import { useMockServers } from '../helpers/mock-servers.js';
import { onlyRunDir, readEvents } from '../helpers/transcripts.js';

const mock = useMockServers({ models: ['llama3', 'mistral', 'qwen2.5'] });

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

async function run(server: MockOllama, data: Record<string, unknown>) {
  const dir = tempDir();
  const file = path.join(dir, 'scenario.yaml');
  writeFileSync(file, stringify({ reliability: FAST_RETRIES, ...data }));
  const out = path.join(dir, 'runs');
  const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet'], {
    timeoutMs: 300_000,
  });
  return { result, runDir: onlyRunDir(out), out };
}

describe('numbers a grammar let through', () => {
  it('holds a council confidence below 0 to its bound, counts it, and no role abstains', async () => {
    const server = await mock({
      script: [
        {
          match: { regex: '## Your task: round [13] as the' },
          json: {
            revision: 'Nothing changed.',
            rationale: 'The move is cheaper over three years.',
            claim: 'Move the billing database.',
            risks: ['Downtime during the switch.'],
            stance: 'for',
            confidence: -0.2,
          },
        },
      ],
    });
    const { result, runDir, out } = await run(server, SMALL_SCENARIOS.council?.() ?? {});
    expect(result.code).toBe(0);
    const positions = readEvents(runDir).filter(
      (event) => event.type === 'assessment' && (event.phase === 'round-1' || event.phase === 'round-3'),
    );
    expect(positions).toHaveLength(8);
    for (const position of positions) {
      expect(position).toMatchObject({
        abstained: false,
        result: { confidence: 0 },
        clamped: [{ field: 'confidence', given: -0.2, kept: 0 }],
      });
      // Read at once: the number did not cost a second call.
      expect(position.attempts).toBe(1);
    }
    const report = await runAgora(['leaderboard', '--out', out, '--table', 'reliability', '--json']);
    const [table] = JSON.parse(report.stdout) as Array<{ rows: Array<Record<string, unknown>> }>;
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ Model: 'llama3', 'Answer kind': 'council position', 'Numbers clamped': 6 }),
    );
    expect(table?.rows).toContainEqual(
      expect.objectContaining({ Model: 'mistral', 'Answer kind': 'council position', 'Numbers clamped': 2 }),
    );
  });
});

describe('formal time limits', () => {
  const servers: MockOllama[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('a server slower than the time limit: each speech is cut where the time ran out, kept and marked', async () => {
    // Twenty tokens a second in real time: a 400-token statement would take 20 s, the limit is 3 s.
    const server = await startMockOllama({
      models: ['llama3', 'mistral'],
      profile: {
        name: 'slow',
        prefillTokensPerSecond: 100_000,
        decodeTokensPerSecond: 20,
        loadSeconds: 0,
        maxLoadedModels: 2,
        parallel: 2,
      },
      speed: 1,
    });
    servers.push(server);
    const { result, runDir } = await run(
      server,
      SMALL_SCENARIOS.formal?.({
        model_options: { max_tokens: 400 },
        preparation: { max_tokens: 400 },
        statements: { time_limit_seconds: 3 },
      }) ?? {},
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const events = readEvents(runDir);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    const statements = events.filter((event) => event.type === 'statement');
    expect(statements.length).toBeGreaterThanOrEqual(10);
    for (const statement of statements) {
      // Kept (never an emergency response), asked once, cut and marked.
      expect(statement).toMatchObject({ timeLimited: true, truncated: true, attempts: 1 });
      expect(statement.degraded).toBeUndefined();
      const text = String(statement.text);
      expect(text.endsWith(TIME_LIMIT_MARKER)).toBe(true);
      expect(text.length).toBeGreaterThan(TIME_LIMIT_MARKER.length + 20);
    }
    // No statement was asked for twice: the time limit cuts, it does not retry.
    const chats = server.requests.filter((request) => request.path === '/api/chat');
    expect(chats).toHaveLength(statements.length);
  });
});
