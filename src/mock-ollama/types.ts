/** Public option and result types of the mock Ollama server. */
import type { CassetteOptions } from './cassette-player.js';
import type { TemplateName } from './chat-templates.js';
import type { CostProfile, ProfileName } from './profiles.js';
import type { SpeechLength } from './prose.js';
import type { ScriptFault, ScriptRule } from './script.js';
import type { ServerSettings } from './server-settings.js';
import type { MockStats } from './stats.js';

/** How to start a mock server. */
export interface MockOllamaOptions extends ServerSettings {
  /** Port to listen on; default 0 (an ephemeral port). */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Models offered; a name without a tag means `:latest`. Default: llama3, mistral, codellama, qwen2.5. */
  models?: string[];
  /** Simulated machine; default `instant`. */
  profile?: ProfileName | CostProfile;
  /** Real milliseconds waited per simulated millisecond (0.001 waits 1 ms per simulated second); default 0. */
  speed?: number;
  /** Scripted answers and faults, tried in order. */
  script?: ScriptRule[];
  /**
   * The context window the OpenAI-compatible endpoints give every model (reported in `/v1/models`
   * and `/props`, enforced on `/v1/chat/completions`); default: each model's own length.
   */
  contextLength?: number;
  /** Serve a recorded cassette: chat requests get the recorded answers instead of simulated ones. */
  cassette?: CassetteOptions;
  /**
   * Chat templates by model name, overriding the one chosen by the model's family (`'*'` for
   * every model): `{ 'my-model': 'mistral' }`. Templates: llama3, mistral, chatml, gemma2, generic.
   */
  templates?: Record<string, TemplateName>;
  /** Debate speeches of this many words (drawn evenly between the two); default: short speeches. */
  speechLength?: SpeechLength;
  /**
   * How many of the latest requests `requests` keeps (each with its parsed body, prompts included);
   * default: every one. A server that answers for a long time and whose record nobody reads (the
   * demo's, `agora mock-ollama`) keeps none, so its memory does not grow with every call.
   */
  keepRequests?: number;
}

/** One request as the server saw it. Times are ms since the epoch. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed JSON body, or undefined when there was none or it was not valid JSON. */
  body: unknown;
  receivedAt: number;
  /** HTTP status sent, once headers are out. */
  status?: number;
  /** When a completion got its model slot (after any queueing). */
  startedAt?: number;
  /** When the response ended (or the connection closed). */
  finishedAt?: number;
  /** Slot index a completion ran in. */
  slot?: number;
  /** The Authorization header as sent, so tests can check an API key arrived. */
  authorization?: string;
  /** The scripted fault applied, if any. */
  fault?: ScriptFault;
  /** Bytes of answer an `endless` fault wrote before the client stopped reading. */
  bytesSent?: number;
}

/** A running mock server. */
export interface MockOllama {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  url: string;
  port: number;
  /** The requests received, in order of arrival: every one, or the latest `keepRequests`. */
  requests: RecordedRequest[];
  /** A snapshot of the running totals. */
  stats(): MockStats;
  /** Zeroes the totals (the request log, loaded models and caches are kept). */
  resetStats(): void;
  /** Stops the server, ending open and hanging connections. */
  close(): Promise<void>;
}
