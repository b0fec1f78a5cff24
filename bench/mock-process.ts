/** Starts `agora mock-ollama` in its own process, so a benchmark measures the engine alone. */
import { type ChildProcess, spawn } from 'node:child_process';

export async function startMockProcess(args: string[] = []): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'mock-ollama', '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
      if (found) resolve(found[0]);
    });
    child.on('exit', () => reject(new Error('the mock server exited')));
  });
  return { url, process: child };
}
