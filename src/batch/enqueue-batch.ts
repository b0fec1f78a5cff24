/**
 * A batch sent to the shared database instead of being run here: each debate is recorded with its
 * settled scenario and its job is sent, in one transaction per debate, for workers to take.
 * Sending the same batch again adds only the debates that are not there yet.
 */
import { RunDatabase } from '../store/postgres/run-database.js';
import { WorkQueue } from '../store/postgres/work-queue.js';
import type { BatchPlan } from './batch-plan.js';
import { batchRecord } from './run-batch.js';

export async function enqueueBatch(
  plan: BatchPlan,
  database: RunDatabase,
  queue: WorkQueue,
): Promise<{ added: string[]; present: string[] }> {
  const added: string[] = [];
  const present: string[] = [];
  const record = batchRecord(plan, new Date().toISOString());
  await database.addBatch(plan.batchId, `${JSON.stringify(record, null, 2)}\n`);
  for (const item of plan.items) {
    const isNew = await database.transaction(async (client) => {
      const inserted = await database.addRun(
        {
          runId: item.runId,
          format: item.scenario.format,
          topic: item.scenario.topic,
          scenario: JSON.stringify(item.scenario),
          batchId: plan.batchId,
        },
        client,
      );
      // Earlier debates first: the queue's priority falls with the debate's place in the batch.
      if (inserted) await queue.send(item.runId, client, -item.idx);
      return inserted;
    });
    (isNew ? added : present).push(item.runId);
  }
  return { added, present };
}

/** The batch queued in the database at `url`, through a connection and a queue opened for it alone. */
export async function queueBatch(
  plan: BatchPlan,
  url: string,
): Promise<{ added: string[]; present: string[] }> {
  const database = await RunDatabase.open(url);
  try {
    const queue = await WorkQueue.start(url);
    try {
      return await enqueueBatch(plan, database, queue);
    } finally {
      await queue.stop();
    }
  } finally {
    await database.close();
  }
}
