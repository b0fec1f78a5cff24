/**
 * `npm run prompts`: runs one shipped scenario of each format against the simulator, records every
 * request the engine sends, and prints one request of each call kind as the model receives it
 * (`--write` puts it in docs/prompts-as-sent.md instead). The statements inside are the
 * simulator's text; the prompts around them are exactly what a model reads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startMockOllama } from '../src/mock-ollama/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  options?: Record<string, unknown>;
  format?: unknown;
  think?: boolean;
}

const RUNS: Array<{ format: string; file: string; args: string[] }> = [
  { format: 'knockout', file: 'scenarios/abortion.yaml', args: ['--rounds', '3', '--seed', '7'] },
  { format: 'duel', file: 'scenarios/duel-remote-work.yaml', args: ['--seed', '7'] },
  { format: 'formal', file: 'scenarios/formal-car-free-cities.yaml', args: ['--seed', '7'] },
  { format: 'critique', file: 'scenarios/critique-rate-limiter.yaml', args: ['--seed', '7'] },
  { format: 'council', file: 'scenarios/council-billing-database.yaml', args: ['--seed', '7'] },
];

/** The call kind of a request, from its task heading. */
export function callKind(body: ChatBody): string {
  const last = body.messages.at(-1)?.content ?? '';
  const all = body.messages.map((message) => message.content).join('\n');
  const heading = /## Your task: ([^\n]*)/.exec(all.slice(all.lastIndexOf('## Your task:')))?.[1] ?? '';
  if (/^evaluate round/.test(heading)) return 'judge (evaluation)';
  if (/^list the claims/.test(heading)) return 'claims extraction';
  if (/^the summary of rounds/.test(heading)) return 'running summary';
  if (/^commentary/.test(heading)) return 'commentary';
  if (/^round \d+ of \d+/.test(heading)) return 'debater statement';
  if (/^judge round/.test(heading)) return 'judge (round)';
  if (/^the verdict/.test(heading)) return 'verdict';
  if (/^synthesise/.test(heading))
    return /^Now sum up/.test(last) ? 'synthesis (fields)' : 'synthesis (design)';
  if (/^the decision/.test(heading)) return 'decision';
  if (/^round (\d) as the/.test(heading)) return `council ${/^round (\d)/.exec(heading)?.[0]}`;
  if (/^round \d+ (proposal|refinement)/.test(heading)) return heading.replace(/^round \d+ /, '');
  if (/^critique /.test(heading)) return 'critique';
  if (heading !== '') return heading.replace(/\s*\(.*$/, '');
  if (/^Check this statement/.test(last)) return 'moderation';
  return 'other';
}

function show(body: ChatBody): string {
  const options = body.options ?? {};
  const settings = [
    `model \`${body.model}\``,
    `num_predict ${options.num_predict}`,
    `num_ctx ${options.num_ctx}`,
    `temperature ${options.temperature}`,
    body.think ? 'think true' : 'think false',
    body.format ? 'with a JSON schema' : 'free text',
  ].join(', ');
  const messages = body.messages
    .map(
      (message, index) =>
        `#### Message ${index + 1} (${message.role})\n\n\`\`\`text\n${message.content}\n\`\`\``,
    )
    .join('\n\n');
  const schema = body.format
    ? `\n\n#### The JSON schema\n\n\`\`\`json\n${JSON.stringify(body.format)}\n\`\`\``
    : '';
  return `${settings}\n\n${messages}${schema}`;
}

async function main() {
  const server = await startMockOllama({
    models: ['llama3', 'mistral', 'qwen2.5'],
    profile: 'instant',
    speed: 0,
  });
  const out = mkdtempSync(path.join(tmpdir(), 'agora-prompts-'));
  const sections: string[] = [];
  try {
    for (const run of RUNS) {
      const before = server.requests.length;
      // Asynchronously: the simulator answers from this same process.
      await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(root, 'src/cli/main.ts'),
          'run',
          run.file,
          '--host',
          server.url,
          '--out',
          out,
          '--quiet',
          ...run.args,
        ],
        { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      );
      const bodies = server.requests
        .slice(before)
        .filter((request) => request.path === '/api/chat')
        .map((request) => request.body as ChatBody);
      const seen = new Map<string, ChatBody>();
      for (const body of bodies) {
        const kind = callKind(body);
        // The latest request of a kind shows the most of the debate's layout.
        seen.set(kind, body);
      }
      sections.push(`## ${run.format} (${run.file})`);
      for (const [kind, body] of seen) sections.push(`### ${run.format}: ${kind}\n\n${show(body)}`);
    }
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
  const text = `${sections.join('\n\n')}\n`;
  if (process.argv.includes('--write')) writeFileSync(path.join(root, 'docs/prompts-as-sent.md'), text);
  else process.stdout.write(text);
}

await main();
