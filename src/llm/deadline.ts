/** A request's time limit combined with the caller's cancellation, shared by the model adapters. */

/** The longest delay `setTimeout` keeps (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A signal that aborts when the caller's does or when `limitMs` has passed, and a `dispose` that
 * stops the clock once the call is over. It does what `AbortSignal.any([caller,
 * AbortSignal.timeout(limitMs)])` does, without the timeout signal's ten-minute timer left behind
 * by every call and the cost of combining signals; limits outside `setTimeout`'s range still go
 * through `AbortSignal.timeout`, which accepts or refuses them as before.
 */
export function deadline(
  limitMs: number,
  caller: AbortSignal | undefined,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  if (!(Number.isInteger(limitMs) && limitMs >= 0 && limitMs <= MAX_TIMER_MS)) {
    const timeout = AbortSignal.timeout(limitMs);
    return {
      signal: caller ? AbortSignal.any([caller, timeout]) : timeout,
      timedOut: () => timeout.aborted,
      dispose: () => undefined,
    };
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, limitMs);
  timer.unref();
  const follow = () => controller.abort(caller?.reason);
  if (caller?.aborted) follow();
  else caller?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', follow);
    },
  };
}
