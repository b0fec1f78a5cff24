/**
 * The command a stopped or failed run prints to continue it. It must work as printed: a run that
 * reached its server through `--host` names that host again, since `resume` left to itself would
 * look for the scenario's host or OLLAMA_HOST and find nothing there.
 */
import type { Scenario } from '../config/scenario.js';
import { resolveOllamaHost } from '../llm/ollama-host.js';

/** `word` as a shell reads it back: quoted only when it holds anything but plain path characters. */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

export interface ResumeCommandParts {
  runId: string;
  runDir: string;
  scenario: Scenario;
  /** The Ollama host the run spoke to. */
  host: string;
  env: Record<string, string | undefined>;
  /** The run is kept in the shared database: it is resumed from there by its id. */
  shared: boolean;
  /** The run is spoken by the built-in simulator, and goes on only there. */
  simulated: boolean;
}

export function resumeCommandFor(parts: ResumeCommandParts): string {
  const base = parts.shared
    ? `npm run agora -- resume ${shellWord(parts.runId)} --database URL`
    : `npm run agora -- resume ${shellWord(parts.runDir)}`;
  if (parts.simulated) return `${base} --demo`;
  // The host `resume` finds without --host, in this same environment: the scenario's, then OLLAMA_HOST.
  const found = resolveOllamaHost({ scenario: parts.scenario.ollama.host, env: parts.env.OLLAMA_HOST });
  return found === parts.host ? base : `${base} --host ${shellWord(parts.host)}`;
}
