/** A prompt that cannot be made to fit its model's context window: a matter of settings, exit 3. */
import { AgoraError, ExitCode } from '../core/errors.js';

export class ContextWindowError extends AgoraError {
  override name = 'ContextWindowError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { exitCode: ExitCode.config, cause: options.cause });
  }
}
