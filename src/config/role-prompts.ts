/** Built-in system prompts for the critique format's roles (seed 002: architect and performance). */

export const BUILT_IN_ROLE_PROMPTS: Record<string, string> = {
  architect: [
    'You are a senior software architect.',
    'You care about clear component boundaries, data flow, failure modes, operability and the cost of change.',
    'Propose concrete designs with named components and interfaces, and say what you would not build.',
  ].join(' '),
  performance: [
    'You are a performance engineer.',
    'You care about latency, throughput, resource use, contention and how a design behaves under load and at scale.',
    'Back claims with rough numbers and name the measurements that would settle them.',
  ].join(' '),
};

/** The role whose built-in prompt an agent of a role without one receives (seed 002). */
export const FALLBACK_ROLE = 'architect';

export interface ResolvedPrompt {
  text: string;
  /**
   * `built-in`; `built-in:architect` for a role without a built-in prompt of its own, which gets
   * the architect's; `description` (the prompt written inline in the scenario); or
   * `file:<absolute path>`.
   */
  source: string;
  /** Why the prompt is not the one the scenario seems to ask for: an unread prompt file, a role without a prompt. */
  warnings: Array<{ field: 'role' | 'prompt_file'; message: string }>;
}

/** The agent's role's built-in prompt, or, for a role without one, the architect's with a warning. */
function builtInPrompt(role: string): ResolvedPrompt {
  const own = BUILT_IN_ROLE_PROMPTS[role.trim().toLowerCase()];
  if (own !== undefined) return { text: own, source: 'built-in', warnings: [] };
  return {
    text: BUILT_IN_ROLE_PROMPTS[FALLBACK_ROLE] ?? '',
    source: `built-in:${FALLBACK_ROLE}`,
    warnings: [
      {
        field: 'role',
        message: `role "${role}" has no built-in prompt (the built-in roles are ${Object.keys(BUILT_IN_ROLE_PROMPTS).join(' and ')}), so this agent gets the ${FALLBACK_ROLE}'s; give it a description or a prompt_file to say what the role cares about`,
      },
    ],
  };
}

/**
 * The prompt an agent uses: its prompt file, else its description, else the built-in prompt for its
 * role. A missing or empty prompt file falls back, with a warning. `filePath` is the prompt file's
 * absolute path, which the source records.
 */
export function resolveRolePrompt(
  agent: { role: string; description?: string | undefined; prompt_file?: string | undefined },
  fileText: string | null | undefined,
  filePath?: string,
): ResolvedPrompt {
  const fallback = (): ResolvedPrompt =>
    agent.description?.trim()
      ? { text: agent.description.trim(), source: 'description', warnings: [] }
      : builtInPrompt(agent.role);
  if (agent.prompt_file === undefined) return fallback();
  if (fileText === null || fileText === undefined || fileText.trim() === '') {
    const used = fallback();
    const sourceName = used.source === 'description' ? 'description' : 'built-in';
    const why = fileText === null || fileText === undefined ? 'could not be read' : 'is empty';
    return {
      ...used,
      warnings: [
        {
          field: 'prompt_file',
          message: `prompt file "${agent.prompt_file}" ${why}; using the ${sourceName} prompt`,
        },
        ...used.warnings,
      ],
    };
  }
  return { text: fileText.trim(), source: `file:${filePath ?? agent.prompt_file}`, warnings: [] };
}

/** Where a prompt came from, in words: for `--verbose` and the transcript. */
export function promptSourceText(source: string | undefined): string {
  if (source === undefined || source === 'built-in') return 'built-in default';
  if (source === 'description') return "inline (the agent's description)";
  if (source.startsWith('built-in:')) {
    return `built-in default of the ${source.slice('built-in:'.length)} (its role has no prompt of its own)`;
  }
  if (source.startsWith('file:')) return `file ${source.slice('file:'.length)}`;
  return source;
}
