/** Shared fixtures for the mock Ollama tests: debate prompts and small HTTP helpers. */

export interface Message {
  role: string;
  content: string;
}

/** A system + user prompt shaped like the engine's debate prompts. */
export function debateMessages(overrides: { name?: string; side?: string; ask?: string } = {}): Message[] {
  return [
    {
      role: 'system',
      content: [
        'You are a debater in a formal debate.',
        'Motion: This house would ban private cars from city centres',
        'Position X: Ban private cars from city centres',
        'Position Y: Keep cars but price congestion',
        'Background: Cities like London and Oslo have tried congestion charging. Air pollution and',
        'traffic congestion harm public health, while small businesses worry about deliveries.',
      ].join('\n'),
    },
    {
      role: 'user',
      content: [
        `Your name: ${overrides.name ?? 'Ada'}`,
        `You argue for: ${overrides.side ?? 'Ban private cars from city centres'}`,
        overrides.ask ?? 'Give your opening speech.',
      ].join('\n'),
    },
  ];
}

/** POSTs a JSON body (or raw text) and returns the response. */
export function post(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** Reads an NDJSON body into parsed lines. */
export async function ndjson(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The fields of an Ollama reply body that the tests look at. */
export interface ReplyBody {
  error?: string;
  message?: { role: string; content: string; thinking?: string };
  response?: string;
  done?: boolean;
  done_reason?: string;
  eval_count?: number;
  [key: string]: unknown;
}

/** The parsed JSON body of a response. */
export async function json(response: Response): Promise<ReplyBody> {
  return (await response.json()) as ReplyBody;
}

/** Concatenated `message.content` of streamed chat chunks. */
export function chatText(chunks: readonly Record<string, unknown>[]): string {
  return chunks.map((c) => (c.message as { content?: string } | undefined)?.content ?? '').join('');
}
