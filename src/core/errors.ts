/**
 * Typed errors. Every error that can reach the user carries an exit code; the CLI's single
 * top-level handler maps it to `process.exitCode` and prints one paragraph.
 */

/** Documented exit codes (docs/commands.md, "Exit codes"). */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  config: 3,
  unreachable: 4,
  modelMissing: 5,
  runFailed: 6,
  runCorrupt: 7,
  runLocked: 8,
  /** The debate ran to its end, but failures decided part of it (emergency statements, void votes, failed roles). */
  degraded: 9,
  /** The run's files could not be written or read: disk full, read-only file system, permission denied. */
  storage: 10,
  /** The shared database could not be reached, refused Agora, or holds a schema of another version. */
  database: 11,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class AgoraError extends Error {
  override name = 'AgoraError';
  readonly exitCode: ExitCodeValue;
  constructor(message: string, options: { exitCode: ExitCodeValue; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode;
  }
}

/** Wrong command-line usage: unknown flag, missing argument. */
export class UsageError extends AgoraError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message, { exitCode: ExitCode.usage });
  }
}

/** One problem found in a configuration file, with where it is. */
export interface ConfigIssue {
  file: string;
  line?: number;
  column?: number;
  /** Dotted field path, e.g. `agents[2].model`; empty for the whole file. */
  path: string;
  message: string;
}

export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.column ?? 1}`;
  const field = issue.path === '' ? '' : ` ${issue.path}:`;
  return `${where}:${field} ${issue.message}`;
}

/** A scenario (or other configuration) that cannot be used. Holds every issue found, not just the first. */
export class ConfigError extends AgoraError {
  override name = 'ConfigError';
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(`Invalid configuration (${count}):\n${issues.map((i) => `  ${formatConfigIssue(i)}`).join('\n')}`, {
      exitCode: ExitCode.config,
    });
    this.issues = issues;
  }
}

/** A run could not go on (a step failed for good, or the run was aborted). */
export class RunError extends AgoraError {
  override name = 'RunError';
  constructor(message: string, options: { cause?: unknown; exitCode?: ExitCodeValue } = {}) {
    super(message, { exitCode: options.exitCode ?? ExitCode.runFailed, cause: options.cause });
  }
}

/**
 * The file system refused a write or a read the run needs (ENOSPC, EROFS, EACCES, EPERM, EDQUOT).
 * Names the path and the cause; everything already in the event log is kept.
 */
export class StorageError extends AgoraError {
  override name = 'StorageError';
  readonly path: string;
  readonly code: string | undefined;
  constructor(message: string, options: { path: string; code?: string; cause?: unknown }) {
    super(message, { exitCode: ExitCode.storage, cause: options.cause });
    this.path = options.path;
    this.code = options.code;
  }
}

/**
 * The shared database (`--database`) could not be used: unreachable, refused the credentials, or
 * holds a schema this version of Agora does not match. The message never holds the password.
 */
export class DatabaseError extends AgoraError {
  override name = 'DatabaseError';
  constructor(message: string, options: { cause?: unknown; exitCode?: ExitCodeValue } = {}) {
    super(message, { exitCode: options.exitCode ?? ExitCode.database, cause: options.cause });
  }
}
