/** Runs `task` over `items` with at most `limit` running at once; results keep the items' order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < items.length) {
      const index = nextIndex;
      nextIndex += 1;
      results[index] = await task(items[index] as T);
    }
  };
  // Every worker settles before a failure is passed on, so nothing runs on after its step has ended.
  const settled = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker),
  );
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}

/**
 * Like `mapConcurrent`, but each result is handed to `commit` in the items' order, as soon as it
 * and every result before it are in: answers that arrive side by side are recorded in the same
 * order on every run, retry and resume, and a finished answer waits only for the ones before it.
 * After a failure nothing more is committed, so what is recorded is always a prefix.
 */
export async function mapConcurrentInOrder<T, R>(
  items: readonly T[],
  limit: number,
  produce: (item: T) => Promise<R>,
  commit: (result: R, item: T) => void,
): Promise<void> {
  const done = new Array<{ result: R } | undefined>(items.length);
  let next = 0;
  let failed = false;
  await mapConcurrent(
    items.map((item, index) => ({ item, index })),
    limit,
    async ({ item, index }) => {
      try {
        done[index] = { result: await produce(item) };
      } catch (error) {
        failed = true;
        throw error;
      }
      while (!failed && next < items.length && done[next] !== undefined) {
        const ready = done[next] as { result: R };
        commit(ready.result, items[next] as T);
        next += 1;
      }
    },
  );
}
