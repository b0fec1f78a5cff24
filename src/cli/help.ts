/** The text of `agora help`. */
export const HELP = `agora — offline debates between local Ollama models

Usage: agora <command> [options]     (npm run agora -- <command> [options])

Commands
  run <scenario.yaml>     run a debate against Ollama (npm run debate -- <file>)
      --host URL            Ollama address (default: scenario, then OLLAMA_HOST, then http://127.0.0.1:11434)
      --seed N              seed for every random choice, any whole number (overrides the scenario)
      --rounds N            number of rounds, 1 to 50 (overrides the scenario)
      --topic "TEXT"        debate another motion with the same agents (at most 500 characters)
      --out DIR             where runs are written (default transcripts/, councils records/debates/)
      --quiet               no live transcript; only the final tables
      --json                print a machine-readable summary on stdout and nothing else
      --verbose             debug logs on stderr (always written to <run dir>/run.log)
      --timeout SECONDS     upper bound for one model call (default 600)
      --format NAME         knockout, formal, duel, critique or council; with --topic, no scenario file is needed
      --problem-file FILE   the problem (topic) from a file
      --agents ROLES        critique: keep only agents with these roles (architect,performance)
      --output FILE         also write the result: the transcript for .json, else the solution or Markdown
      --models ROLE=MODEL   models for roles, e.g. x=llama3,y=mistral or all=llama3
      --run-id ID           the run's folder name instead of one made from time, topic and seed
  demo [scenario.yaml]    the same debate on the built-in Ollama simulator (npm run demo)
      --profile NAME        instant, gpu (default), gpu-small or cpu; --speed X scales its waiting
  resume <run>            continue an interrupted, stopped or failed run from its event log
                          (--host, --out, --quiet, --json, --verbose, --timeout as for run;
                          --demo resumes a demo run on the built-in simulator)
  stop <run>              ask a run in another process to stop after the step in flight
  runs [--json]           list runs with status, topic, progress and stop reason (--out DIR)
  show <run> [--json]     print a run's transcript as Markdown (or JSON)
  batch <files or dirs>   many debates: --seeds 1,2 | --repeat N, --concurrency K, --parallel N,
                          --models x=llama3,y=mistral (repeatable), --host (repeatable), --out DIR
  leaderboard             models, agents, a Bradley-Terry ranking and judge agreement
                          (--batch ID, --json, --csv --table models|agents|ranking|judges|reliability)
  query "SELECT ..."      a read-only SQL question to the run index (--json, --csv)
  reindex [--check]       rebuild the run index from the event logs (or compare with it)
  serve                   the live web viewer on http://127.0.0.1:4747 (--port N, --out DIR, --host URL,
                          --demo for the built-in simulator, --bind ADDR with --token SECRET)
  export <run> --html     one self-contained HTML file of a run (--output FILE)
  validate <file...>      check scenario files without running them
  doctor [scenario.yaml]  is Ollama reachable, and does it have the scenario's models?
  migrate --database URL  create or upgrade Agora's tables in a shared Postgres database
  worker --database URL   drive debates queued in the database on this host (--host, --parallel N)
  push <runs> / pull      copy runs into / out of the database (--database URL)
                          --database URL (or AGORA_DATABASE_URL) also works with run and resume (the
                          run is kept in the database step by step), batch (queues the debates), stop,
                          runs, show, leaderboard, query, export and reindex
  mock-ollama             start the Ollama simulator: --port 11434 --profile instant --script rules.yaml
  help                    this text; agora <command> --help shows one command's options
  version                 the version (also --version)

Exit codes: 0 ok, 1 internal error, 2 usage error (also a port in use), 3 invalid configuration,
4 Ollama unreachable, 5 model missing, 6 run failed, 7 damaged run log, 8 run in use by another
process, 9 degraded, 10 files could not be written or read, 11 database unreachable, refused or of another
schema version, 130 stopped (Ctrl-C, SIGTERM or agora stop).

Colour: the live view is coloured on a terminal; NO_COLOR=1 turns colour off, FORCE_COLOR=1 turns it
on for a pipe or a file, FORCE_COLOR=0 turns it off. NO_COLOR wins.
`;
