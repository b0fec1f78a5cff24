/**
 * The database schema, in numbered migrations. `agora migrate` applies the missing ones in one
 * transaction each; every other command checks that the database's version is the program's and
 * refuses, saying what to do, when it is older or newer.
 *
 * Events are kept as the exact JSON line the run's log holds (`line`), so a run copied between the
 * files and the database gives byte-identical logs and transcripts. The `(run_id, seq)` primary key
 * is the guard against a doubled turn: a second writer's append at a taken sequence number fails.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'runs and their events',
    sql: `
CREATE TABLE agora_runs (
  run_id text PRIMARY KEY,
  format text NOT NULL,
  topic text NOT NULL DEFAULT '',
  batch_id text,
  -- The scenario as the JSON text its run-start event will hold (text, so its keys keep their order).
  scenario text NOT NULL,
  simulated boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'queued',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  next_seq integer NOT NULL DEFAULT 0,
  -- The lease: which worker drives the run, until when, and its fencing number (raised by each claim).
  owner text,
  lease_epoch integer NOT NULL DEFAULT 0,
  lease_expires_at timestamptz,
  stop_requested boolean NOT NULL DEFAULT false,
  queue_order bigserial
);
CREATE INDEX agora_runs_status ON agora_runs (status, lease_expires_at);
CREATE INDEX agora_runs_batch ON agora_runs (batch_id);
-- A batch's record (its plan and its runs' places, seeds and line-ups), as the JSON of its plan.json.
CREATE TABLE agora_batches (
  batch_id text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  record text NOT NULL
);
CREATE TABLE agora_events (
  run_id text NOT NULL REFERENCES agora_runs (run_id) ON DELETE CASCADE,
  seq integer NOT NULL,
  type text NOT NULL,
  line text NOT NULL,
  -- The worker that committed it (null for a run copied in by \`agora push\`).
  worker text,
  committed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, seq)
);`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
