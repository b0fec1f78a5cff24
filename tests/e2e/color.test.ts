/** Colour follows NO_COLOR (https://no-color.org), then FORCE_COLOR, then whether stdout is a terminal. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { agoraCommandLine, projectRoot, runAgora, tempDir } from '../helpers/cli.js';

/** An ANSI escape sequence (ESC, then [). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);
const demoArgs = () => ['demo', '--rounds', '1', '--speed', '0', '--out', path.join(tempDir(), 'runs')];
const demo = (env: Record<string, string>) => runAgora(demoArgs(), { env });

/** The demo with stdout on a pseudo-terminal, through util-linux `script`. */
async function demoOnTerminal(env: Record<string, string>): Promise<string> {
  const command = agoraCommandLine(demoArgs())
    .map((part) => `'${part}'`)
    .join(' ');
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...inherited } = process.env;
  const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
    cwd: projectRoot,
    env: { ...inherited, OLLAMA_HOST: 'http://127.0.0.1:1', ...env },
    timeout: 600_000,
  });
  return stdout;
}

describe('colour in the live view', () => {
  it('colours a pipe with FORCE_COLOR=1, and not when NO_COLOR is also set or FORCE_COLOR=0', async () => {
    const [forced, noColor, forcedOff] = await Promise.all([
      demo({ NO_COLOR: '', FORCE_COLOR: '1' }),
      demo({ NO_COLOR: '1', FORCE_COLOR: '1' }),
      demo({ NO_COLOR: '', FORCE_COLOR: '0' }),
    ]);
    for (const result of [forced, noColor, forcedOff]) expect(result.code).toBe(0);
    expect(forced.stdout).toMatch(ANSI);
    expect(noColor.stdout).not.toMatch(ANSI);
    expect(forcedOff.stdout).not.toMatch(ANSI);
  }, 900_000);

  it.skipIf(!existsSync('/usr/bin/script'))(
    'colours a terminal unless NO_COLOR or FORCE_COLOR=0 says not to',
    async () => {
      const [plain, noColor, forcedOff] = await Promise.all([
        demoOnTerminal({}),
        demoOnTerminal({ NO_COLOR: 'yes' }),
        demoOnTerminal({ FORCE_COLOR: '0' }),
      ]);
      expect(plain).toMatch(ANSI);
      expect(noColor).not.toMatch(ANSI);
      expect(forcedOff).not.toMatch(ANSI);
    },
  );
});
