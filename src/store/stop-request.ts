/** `agora stop` asks a run in another process to stop by leaving a file in its folder. */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const STOP_FILE = 'stop-request';

export function requestStop(runDir: string): void {
  writeFileSync(path.join(runDir, STOP_FILE), `${new Date().toISOString()}\n`);
}

export function stopWasRequested(runDir: string): boolean {
  return existsSync(path.join(runDir, STOP_FILE));
}

export function clearStopRequest(runDir: string): void {
  rmSync(path.join(runDir, STOP_FILE), { force: true });
}
