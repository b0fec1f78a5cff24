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

export const GENERIC_ROLE_PROMPT = (role: string) =>
  `You are an expert in ${role}. Judge every design from that angle, concretely and briefly.`;

export interface ResolvedPrompt {
  text: string;
  /** built-in, description, or file:<path>. */
  source: string;
  /** Why a prompt file was not used, if it was named and could not be. */
  warning?: string;
}

/**
 * The prompt an agent uses: its prompt file, else its description, else the built-in prompt for its
 * role. A missing or empty prompt file falls back, with a warning.
 */
export function resolveRolePrompt(
  agent: { role: string; description?: string | undefined; prompt_file?: string | undefined },
  fileText: string | null | undefined,
): ResolvedPrompt {
  const fallback = (): ResolvedPrompt =>
    agent.description?.trim()
      ? { text: agent.description.trim(), source: 'description' }
      : { text: BUILT_IN_ROLE_PROMPTS[agent.role] ?? GENERIC_ROLE_PROMPT(agent.role), source: 'built-in' };
  if (agent.prompt_file === undefined) return fallback();
  if (fileText === null || fileText === undefined) {
    return {
      ...fallback(),
      warning: `prompt file "${agent.prompt_file}" could not be read; using the ${fallback().source} prompt`,
    };
  }
  if (fileText.trim() === '') {
    return {
      ...fallback(),
      warning: `prompt file "${agent.prompt_file}" is empty; using the ${fallback().source} prompt`,
    };
  }
  return { text: fileText.trim(), source: `file:${agent.prompt_file}` };
}
