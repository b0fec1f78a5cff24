/** Every command of `agora`, in the order `agora help` lists them. */
import type { CommandDefinition } from './command-definition.js';
import { batchCommand } from './commands/batch.js';
import { demoCommand } from './commands/demo.js';
import { doctorCommand } from './commands/doctor.js';
import { exportCommand } from './commands/export.js';
import { leaderboardCommand } from './commands/leaderboard.js';
import { migrateCommand } from './commands/migrate.js';
import { mockOllamaCommand } from './commands/mock-ollama.js';
import { pullCommand } from './commands/pull.js';
import { pushCommand } from './commands/push.js';
import { queryCommand } from './commands/query.js';
import { reindexCommand } from './commands/reindex.js';
import { resumeCommand } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { runsCommand } from './commands/runs.js';
import { serveCommand } from './commands/serve.js';
import { showCommand } from './commands/show.js';
import { stopCommand } from './commands/stop.js';
import { tournamentCommand } from './commands/tournament.js';
import { validateCommand } from './commands/validate.js';
import { verifyCommand } from './commands/verify.js';
import { workerCommand } from './commands/worker.js';

export const COMMANDS: readonly CommandDefinition[] = [
  runCommand,
  demoCommand,
  resumeCommand,
  stopCommand,
  runsCommand,
  showCommand,
  batchCommand,
  tournamentCommand,
  leaderboardCommand,
  queryCommand,
  reindexCommand,
  verifyCommand,
  serveCommand,
  exportCommand,
  validateCommand,
  doctorCommand,
  migrateCommand,
  workerCommand,
  pushCommand,
  pullCommand,
  mockOllamaCommand,
];
