/** What a viewer is started with, and what its routes share. */
import type { Logger } from 'pino';
import type { PageOptions } from './pages.js';
import type { ViewerRuns } from './viewer-runs.js';
import type { WorkerLauncher } from './workers.js';

export interface ViewerOptions {
  /** The runs folder (`transcripts/`). */
  outDir: string;
  /** Where scenario paths and context files resolve from. */
  cwd: string;
  scenariosDir: string;
  /** The Ollama the debates started here use. */
  ollamaHost: string;
  /** Interface to listen on; default 127.0.0.1. */
  bind?: string;
  port?: number;
  /** Needed (and then asked of every request) when `bind` is not a loopback address. */
  accessToken?: string;
  launcher: WorkerLauncher;
  logger: Logger;
  /**
   * The Ollama host is Agora's built-in simulator (`serve --demo`): debates started here are
   * recorded as simulated, and the new-debate form carries this banner.
   */
  simulator?: { banner: string };
  /** How often a live page's run is polled; default 200 ms. */
  pollMs?: number;
  /** The most live streams one client address may hold open (`STREAMS_PER_CLIENT` by default). */
  streamsPerClient?: number;
  /**
   * Where a scenario's own model servers (`providers:`) and their keys are found, as the debates
   * started here find them; default this process's environment.
   */
  env?: Record<string, string | undefined>;
}

/** What every route of one viewer shares. */
export interface ViewerParts {
  options: ViewerOptions;
  runs: ViewerRuns;
  /** Every page: the same-origin token. */
  pageOptions: PageOptions;
  /** The new-debate form: the token and, in demo mode, the banner that says the text is simulated. */
  formOptions: PageOptions;
  assets: { 'app.js': string; 'podium.js': string; 'style.css': string };
}
