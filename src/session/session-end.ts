/**
 * How a debate's session ended, for the exit code: completed, degraded (it ran to its end, but
 * failed steps decided part of it), stopped (resumable), or failed, as an error that says where
 * everything completed is kept and how to continue.
 */
import { AgoraError, ExitCode } from '../core/errors.js';
import type { SessionOutcome } from './debate-session.js';

export type SessionEnd =
  | { kind: 'completed'; exitCode: typeof ExitCode.ok }
  | { kind: 'degraded'; exitCode: typeof ExitCode.degraded; failedSteps: number }
  | { kind: 'stopped'; exitCode: typeof ExitCode.interrupted };

/** The end of a segment that ran; a failed one (or one the database refused) is thrown. */
export function sessionEnd(outcome: SessionOutcome): SessionEnd {
  const { transcript, paths, resumeCommand } = outcome;
  if (outcome.commitRefused) {
    // However the run ended here, the shared record stops at its last committed step.
    const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    throw new AgoraError(
      `the database did not take the debate's last step (${why}); it holds the run up to the step before, and this folder's copy goes further than the record. Continue it with \`${resumeCommand}\``,
      {
        exitCode: outcome.error instanceof AgoraError ? outcome.error.exitCode : ExitCode.database,
        cause: outcome.error,
      },
    );
  }
  if (transcript.status === 'completed') return { kind: 'completed', exitCode: ExitCode.ok };
  if (transcript.status === 'degraded') {
    return { kind: 'degraded', exitCode: ExitCode.degraded, failedSteps: outcome.failures.length };
  }
  if (transcript.status === 'stopped') return { kind: 'stopped', exitCode: ExitCode.interrupted };
  if (outcome.error instanceof AgoraError) {
    throw new AgoraError(
      `${outcome.error.message}. Everything completed is kept in ${paths.runDir}/; once that is fixed, continue it with \`${resumeCommand}\``,
      { exitCode: outcome.error.exitCode, cause: outcome.error },
    );
  }
  throw new AgoraError(
    `the run failed: ${transcript.error ?? transcript.stopReason}. Everything completed is kept in ${paths.runDir}/; continue it with \`${resumeCommand}\``,
    { exitCode: ExitCode.runFailed, cause: outcome.error },
  );
}
