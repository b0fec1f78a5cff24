import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

function scenario(extra: Record<string, unknown> = {}, files: Record<string, string> = {}) {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, 'problem.yaml');
  writeFileSync(
    file,
    stringify({
      format: 'critique',
      topic: 'Design a cache for product pages',
      agents: [
        { name: 'Ada', role: 'architect', model: 'llama3' },
        { name: 'Per', role: 'performance', model: 'mistral' },
      ],
      judge: { model: 'llama3' },
      rounds: 2,
      // A fixed seed, so the simulated texts compared below are the same on every run.
      seed: 3,
      reliability: FAST,
      ...extra,
    }),
  );
  return { dir, file, out: path.join(dir, 'runs') };
}

const chats = (server: MockOllama) =>
  server.requests
    .filter((request) => request.path === '/api/chat')
    .map((request) => ({
      request,
      text: (request.body as { messages: Array<{ content: string }> }).messages
        .map((message) => message.content)
        .join('\n'),
    }));

type Transcript = {
  status: string;
  stopReason: string;
  agents: Array<{ name: string; promptSource: string }>;
  rounds: Array<{
    number: number;
    proposals: unknown[];
    critiques: Array<{ agent: string; target: string }>;
    refinements: unknown[];
  }>;
  solution: { confidence: number; synthesized_by: string; description: string } | null;
  totals: { contributions: number; outputTokens: number; latencyMs: number };
};
const readTranscript = (out: string) =>
  JSON.parse(readFileSync(path.join(onlyRunDir(out), 'transcript.json'), 'utf8')) as Transcript;

describe('format: critique', () => {
  it('runs proposal, critique and refinement each round, in parallel, then the judge synthesises', async () => {
    const server = await mock({ speed: 0.02 });
    const { file, out } = scenario();
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const events = readEvents(onlyRunDir(out)).filter(
      (event) => event.type === 'statement' || event.type === 'assessment',
    );
    const phases = events.map((event) =>
      event.type === 'statement' ? `${event.round}:${event.phase}` : `${event.round}:${event.phase}`,
    );
    const expected = [1, 2].flatMap((round) => [
      `${round}:proposal`,
      `${round}:proposal`,
      `${round}:critique`,
      `${round}:critique`,
      `${round}:refinement`,
      `${round}:refinement`,
    ]);
    // The judge writes its design as prose first, then the structured fields.
    expect(phases).toEqual([...expected, '2:synthesis', '2:synthesis']);
    const [design, fields] = events.slice(-2);
    expect(design?.type).toBe('statement');
    expect(fields?.type).toBe('assessment');
    const synthesisCalls = chats(server)
      .map(
        ({ request }) =>
          request.body as { format?: unknown; messages: Array<{ role: string; content: string }> },
      )
      .filter((body) =>
        body.messages.some((message) => message.content.includes('## Your task: synthesise a solution')),
      );
    expect(synthesisCalls.map((body) => body.format === undefined)).toEqual([true, false]);
    expect(synthesisCalls[1]?.messages.at(-2)).toEqual({
      role: 'assistant',
      content: String(design?.text),
    });
    // The two proposals of round 1 were in flight at the same time.
    const [first, second] = chats(server)
      .slice(0, 2)
      .map(({ request }) => request);
    expect(first && second && second.receivedAt < (first.finishedAt ?? 0)).toBe(true);
    const transcript = readTranscript(out);
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'max_rounds' });
    expect(
      transcript.rounds[0]?.critiques.map((critique) => `${critique.agent}>${critique.target}`).sort(),
    ).toEqual(['Ada>Per', 'Per>Ada']);
    expect(transcript.solution).toMatchObject({ synthesized_by: 'Judge' });
    expect(transcript.totals.contributions).toBe(12);
    expect(transcript.totals.outputTokens).toBeGreaterThan(0);
  });

  it('shows each critic the proposals; a refiner on a model of its own reads only the critiques it received, one sharing its model with the judge every critique', async () => {
    const server = await mock();
    const { file, out } = scenario({ rounds: 1 });
    await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    const statements = readEvents(onlyRunDir(out)).filter((event) => event.type === 'statement');
    const text = (phase: string, speaker: string) =>
      String(statements.find((event) => event.phase === phase && event.speaker === speaker)?.text).slice(
        0,
        60,
      );
    const prompts = chats(server);
    const critiqueOfPer = prompts.find(({ text: prompt }) =>
      prompt.includes("## Your task: critique Per's proposal"),
    );
    expect(critiqueOfPer?.text).toContain(text('proposal', 'Per'));
    const refines = (name: string) =>
      prompts.find(
        ({ text: prompt }) =>
          prompt.includes('## Your task: round 1 refinement') && prompt.includes(`Your name: ${name}`),
      );
    const messages = (chat: { request: { body: unknown } } | undefined) =>
      (chat?.request.body as { messages: Array<{ content: string }> } | undefined)?.messages ?? [];
    // Per, alone on mistral: the round's proposals as the critics read them, first, and the
    // critique of its own proposal in its task; not Per's own critique of Ada.
    const perRefines = refines('Per');
    expect(perRefines?.text).toContain(text('critique', 'Ada'));
    expect(perRefines?.text).not.toContain(text('critique', 'Per'));
    expect(messages(perRefines)[1]).toEqual(messages(critiqueOfPer)[1]);
    expect(messages(perRefines).at(-1)?.content).toContain(text('critique', 'Ada'));
    // Ada shares llama3 with the judge: the critics' material, then every critique of the round,
    // which the synthesis on that model then begins with; her task names the critiques of her proposal.
    const adaRefines = refines('Ada');
    const shared = messages(adaRefines)[1]?.content ?? '';
    expect(shared.startsWith(messages(critiqueOfPer)[1]?.content ?? '-')).toBe(true);
    expect(shared).toContain(text('critique', 'Per'));
    expect(shared).toContain(text('critique', 'Ada'));
    expect(messages(adaRefines).at(-1)?.content).toContain(
      'The critiques of your proposal are those headed "... on Ada" above (by Per).',
    );
    const synthesis = prompts.find(({ text: prompt }) =>
      prompt.includes('## Your task: synthesise a solution'),
    );
    expect(messages(synthesis)[1]?.content.startsWith(shared)).toBe(true);
  });

  it('stops early once the judge is confident enough', async () => {
    const server = await mock({
      script: [
        {
          match: { text: '## Your task: synthesise a solution' },
          reply: 'Use a shared token bucket in Redis.',
        },
        {
          match: { text: 'Now sum up that design' },
          json: { trade_offs: ['latency'], recommendations: ['measure'], confidence: 92 },
        },
      ],
    });
    const { file, out } = scenario({ rounds: 3, confidence_threshold: 90 });
    await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    const transcript = readTranscript(out);
    expect(transcript).toMatchObject({ status: 'completed', stopReason: 'confidence_threshold' });
    // A small judge says 90 by habit: one round's word is not enough, two rounds in a row are.
    expect(transcript.rounds).toHaveLength(2);
    expect(transcript.solution).toMatchObject({
      confidence: 92,
      description: 'Use a shared token bucket in Redis.',
    });
  });

  it('reads the problem from a file and writes the state or the solution with --output', async () => {
    const server = await mock();
    const dir = tempDir();
    writeFileSync(path.join(dir, 'problem.md'), 'Design a job queue that survives a node restart.\n');
    const json = path.join(dir, 'state.json');
    const first = await runAgora([
      'run',
      '--format',
      'critique',
      '--problem-file',
      path.join(dir, 'problem.md'),
      '--rounds',
      '1',
      '--host',
      server.url,
      '--out',
      path.join(dir, 'runs'),
      '--output',
      json,
      '--quiet',
    ]);
    expect(first.code).toBe(0);
    const state = JSON.parse(readFileSync(json, 'utf8')) as { problem: string; rounds: unknown[] };
    expect(state.problem).toBe('Design a job queue that survives a node restart.');
    expect(state.rounds).toHaveLength(1);
    const md = path.join(dir, 'solution.md');
    await runAgora([
      'run',
      '--format',
      'critique',
      '--topic',
      'Design a job queue',
      '--rounds',
      '1',
      '--host',
      server.url,
      '--out',
      path.join(dir, 'runs2'),
      '--output',
      md,
      '--quiet',
    ]);
    expect(readFileSync(md, 'utf8')).toMatch(
      /^# Design a job queue\n[\s\S]*## Trade-offs[\s\S]*Confidence: \d+\/100\. Synthesised by Judge\./,
    );
  });

  it('refuses a missing, folder or empty problem file, and --topic with --problem-file', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'folder'));
    writeFileSync(path.join(dir, 'empty.md'), '  \n');
    for (const [file, message] of [
      ['missing.md', /does not exist/],
      ['folder', /is a folder/],
      ['empty.md', /is empty/],
    ] as const) {
      const result = await runAgora(['run', '--format', 'critique', '--problem-file', path.join(dir, file)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const both = await runAgora([
      'run',
      '--format',
      'critique',
      '--problem-file',
      path.join(dir, 'empty.md'),
      '--topic',
      'x',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/not both/);
  });

  it('filters agents by role, and records where each prompt came from', async () => {
    const server = await mock();
    const { dir, file, out } = scenario(
      {
        rounds: 1,
        agents: [
          { name: 'Ada', role: 'architect', model: 'llama3' },
          { name: 'Sol', role: 'security', model: 'mistral', prompt_file: 'security.md' },
          { name: 'Eve', role: 'privacy', model: 'mistral', prompt_file: 'missing.md' },
          { name: 'Per', role: 'performance', model: 'mistral', prompt_file: 'empty.md' },
        ],
      },
      { 'security.md': 'You attack every design before anyone else can.', 'empty.md': '' },
    );
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.stderr).toMatch(/prompt file "missing\.md" could not be read; using the built-in prompt/);
    expect(result.stderr).toMatch(/prompt file "empty\.md" is empty; using the built-in prompt/);
    const sources = Object.fromEntries(
      readTranscript(out).agents.map((agent) => [agent.name, agent.promptSource]),
    );
    // Eve's role has no built-in prompt: she gets the architect's, and the record says so.
    expect(sources).toEqual({
      Ada: 'built-in',
      Sol: `file:${path.join(dir, 'security.md')}`,
      Eve: 'built-in:architect',
      Per: 'built-in',
    });
    expect(
      chats(server).some(({ text }) => text.includes('You attack every design before anyone else can.')),
    ).toBe(true);

    const filtered = await runAgora([
      'run',
      file,
      '--agents',
      'architect,security',
      '--host',
      server.url,
      '--out',
      `${out}-filtered`,
      '--quiet',
    ]);
    expect(filtered.code).toBe(0);
    expect(readTranscript(`${out}-filtered`).agents.map((agent) => agent.name)).toEqual(['Ada', 'Sol']);

    // A role no agent has is refused with the roles there are, before anything runs.
    const misspelt = await runAgora([
      'run',
      file,
      '--agents',
      'architect,securty',
      '--host',
      server.url,
      '--out',
      `${out}-misspelt`,
    ]);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toMatch(
      /--agents names a role no agent of .* has: securty \(did you mean security\?\); its agents' roles are /,
    );
    // One agent left has nobody to critique it: it runs, and says so.
    const alone = await runAgora([
      'run',
      file,
      '--agents',
      'architect',
      '--host',
      server.url,
      '--out',
      `${out}-alone`,
      '--quiet',
    ]);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toContain(
      'warning: --agents keeps one agent (Ada, architect): no other agent critiques its proposal',
    );
  });

  it("gives an agent of a role without a built-in prompt the architect's, with a warning on stderr", async () => {
    const server = await mock();
    const { file, out } = scenario({
      rounds: 1,
      agents: [
        { name: 'Ada', role: 'architect', model: 'llama3' },
        { name: 'Sol', role: 'security', model: 'mistral' },
        {
          name: 'Dee',
          role: 'databases',
          model: 'mistral',
          description: 'You care about how data is stored.',
        },
      ],
    });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /agents\[1\]\.role: role "security" has no built-in prompt .* so this agent gets the architect's/,
    );
    const architect = 'You are a senior software architect.';
    const solCalls = chats(server).filter(({ text }) => text.includes('Your name: Sol\nYour role: security'));
    expect(solCalls.length).toBeGreaterThan(0);
    for (const call of solCalls) {
      expect(call.text).toContain(`Your role: security\n${architect}`);
      expect(call.text).not.toContain('You are an expert in security');
    }
    // An agent whose role has no built-in prompt but who says what it cares about keeps its words.
    const deeCalls = chats(server).filter(({ text }) =>
      text.includes('Your name: Dee\nYour role: databases'),
    );
    expect(deeCalls.length).toBeGreaterThan(0);
    for (const call of deeCalls)
      expect(call.text).toContain('Your role: databases\nYou care about how data is stored.');
    const sources = Object.fromEntries(
      readTranscript(out).agents.map((agent) => [agent.name, agent.promptSource]),
    );
    expect(sources).toEqual({ Ada: 'built-in', Sol: 'built-in:architect', Dee: 'description' });
  });

  it('with --verbose says where each prompt came from, and the record keeps the absolute path', async () => {
    const server = await mock();
    const { dir, file, out } = scenario(
      {
        rounds: 1,
        agents: [
          { name: 'Ada', role: 'architect', model: 'llama3' },
          { name: 'Sol', role: 'security', model: 'mistral', prompt_file: 'prompts/security.md' },
          { name: 'Dee', role: 'databases', model: 'mistral', description: 'You care about storage.' },
        ],
        judge: { model: 'llama3', prompt_file: 'judge.md' },
      },
      { 'judge.md': 'Prefer the simplest design.' },
    );
    mkdirSync(path.join(dir, 'prompts'));
    writeFileSync(path.join(dir, 'prompts', 'security.md'), 'You attack every design.');
    const securityFile = path.join(dir, 'prompts', 'security.md');
    const judgeFile = path.join(dir, 'judge.md');
    // Run from another folder, so a path relative to where the command ran would be wrong.
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--verbose'], {
      cwd: tempDir(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      [
        'System prompts:',
        '  Ada (architect): built-in default',
        `  Sol (security): file ${securityFile}`,
        "  Dee (databases): inline (the agent's description)",
        `  Judge (judge): file ${judgeFile}`,
      ].join('\n'),
    );
    const start = readEvents(onlyRunDir(out)).find((event) => event.type === 'run-start') as unknown as {
      scenario: { agents: Array<{ prompt_source: string }>; judge: { prompt_source: string } };
    };
    expect(start.scenario.agents.map((agent) => agent.prompt_source)).toEqual([
      'built-in',
      `file:${securityFile}`,
      'description',
    ]);
    expect(start.scenario.judge.prompt_source).toBe(`file:${judgeFile}`);
    // Without --verbose the list is not printed.
    const plain = await runAgora(['run', file, '--host', server.url, '--out', `${out}-plain`]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('System prompts:');
  });

  it("takes the judge's instructions from judge.prompt_file, and says where each prompt came from", async () => {
    const server = await mock();
    const { dir, file, out } = scenario(
      { judge: { model: 'llama3', prompt_file: 'judge.md' } },
      { 'judge.md': 'Prefer the design that is simplest to operate.' },
    );
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    const synthesis = chats(server).filter(({ text }) =>
      text.includes('## Your task: synthesise a solution'),
    );
    expect(synthesis.length).toBeGreaterThan(0);
    for (const call of synthesis)
      expect(call.text).toContain('Your instructions: Prefer the design that is simplest to operate.');
    expect(readFileSync(path.join(onlyRunDir(out), 'transcript.md'), 'utf8')).toContain(
      `- Judge: Judge, \`llama3\` (prompt: file ${path.join(dir, 'judge.md')})`,
    );

    // A prompt file that is not there: the built-in prompt, and a warning naming the field.
    const missing = scenario({ judge: { model: 'llama3', prompt_file: 'nowhere.md' } });
    const checked = await runAgora(['validate', missing.file]);
    expect(checked.code).toBe(0);
    expect(checked.stderr).toMatch(
      /judge\.prompt_file: prompt file "nowhere\.md" could not be read; the judge uses the built-in prompt/,
    );
  });

  it('gives later rounds the whole history only with include_full_history', async () => {
    for (const full of [false, true]) {
      const server = await mock();
      const { file, out } = scenario({ rounds: 2, include_full_history: full });
      await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
      const critique = String(
        readEvents(onlyRunDir(out)).find((event) => event.phase === 'critique')?.text,
      ).slice(0, 60);
      const round2Proposal = chats(server).find(({ text }) =>
        text.includes('## Your task: round 2 proposal'),
      );
      expect(round2Proposal?.text.includes(critique)).toBe(full);
    }
  });

  it('begins the synthesis after round 2 with what the round-2 refiners read, and gives it every contribution once', async () => {
    const server = await mock();
    const { file, out } = scenario({ rounds: 2, confidence_threshold: 100 });
    const result = await runAgora(['run', file, '--host', server.url, '--out', out, '--quiet']);
    expect(result.code).toBe(0);
    const bodies = server.requests
      .filter((request) => request.path === '/api/chat')
      .map((request) => (request.body as { messages: Array<{ content: string }> }).messages);
    const material = (messages: Array<{ content: string }>) => String(messages[1]?.content);
    const design = bodies.find((messages) =>
      String(messages.at(-1)?.content).startsWith('## Your task: synthesise a solution (after round 2)'),
    );
    const refiner = bodies.find((messages) =>
      String(messages.at(-1)?.content).includes('## Your task: round 2 refinement'),
    );
    expect(design && refiner).toBeTruthy();
    // The refiners' material (round 1's refinements, round 2's proposals) is where the record starts.
    expect(material(design ?? []).startsWith(material(refiner ?? []))).toBe(true);
    const contributions = readEvents(onlyRunDir(out)).filter(
      (event) =>
        event.type === 'statement' && ['proposal', 'critique', 'refinement'].includes(String(event.phase)),
    );
    expect(contributions).toHaveLength(2 * (2 + 2 + 2));
    for (const contribution of contributions) {
      expect(material(design ?? []).split(String(contribution.text).trim())).toHaveLength(2);
    }
    // The latest round comes before the earlier one, which is labelled as such.
    const record = material(design ?? []);
    expect(record.indexOf('## Round 2: refined proposals')).toBeLessThan(
      record.indexOf('## Round 1, for reference: proposals'),
    );
    expect(String(design?.at(-1)?.content)).toContain(
      "The experts' latest work is their round 2 refined proposals",
    );
  });

  it('leaves out agents with enabled: false, as seed 002 does, and falls back to the defaults when none is left', async () => {
    const server = await mock();
    const three = scenario({
      rounds: 1,
      agents: [
        { name: 'Ada', role: 'architect', model: 'llama3' },
        { name: 'Per', role: 'performance', model: 'mistral', enabled: false, prompt_file: 'missing.md' },
        {
          name: 'Sol',
          role: 'security',
          model: 'llama3',
          enabled: true,
          description: 'You look for the ways in.',
        },
      ],
    });
    const checked = await runAgora(['validate', three.file]);
    expect(checked.code).toBe(0);
    // The disabled agent's prompt file is not even looked for.
    expect(checked.stderr).toBe('');
    expect(checked.stdout).toContain('architect, security, 1 round');
    const result = await runAgora(['run', three.file, '--host', server.url, '--out', three.out, '--quiet']);
    expect(result.code).toBe(0);
    const transcript = JSON.parse(
      readFileSync(path.join(onlyRunDir(three.out), 'transcript.json'), 'utf8'),
    ) as Transcript;
    expect(transcript.agents.map((agent) => agent.name)).toEqual(['Ada', 'Sol']);
    expect(transcript.rounds[0]?.critiques.map((item) => `${item.agent}>${item.target}`).sort()).toEqual([
      'Ada>Sol',
      'Sol>Ada',
    ]);
    expect(
      chats(server).some(
        (chat) => chat.request.body && (chat.request.body as { model: string }).model === 'mistral',
      ),
    ).toBe(false);

    const none = scenario({
      agents: [{ name: 'Ada', role: 'architect', model: 'llama3', enabled: false }],
    });
    const fallback = await runAgora(['validate', none.file]);
    expect(fallback.code).toBe(0);
    expect(fallback.stderr).toMatch(
      /agents: every agent has enabled: false, so the default architect and performance agents debate; enable an agent/,
    );
    expect(fallback.stdout).toContain('architect, performance, 2 rounds');
    // `run` words the warning as `validate` does: the file and line, the field, then the sentence.
    const ran = await runAgora(['run', none.file, '--host', server.url, '--out', none.out, '--quiet']);
    expect(ran.stderr).toMatch(
      /^warning: \S+:\d+:\d+: agents: every agent has enabled: false, so the default architect and performance agents debate/m,
    );
  });
});
