#!/usr/bin/env node
// The `agora` command. In a checkout (after `npm ci`) it runs the TypeScript sources through tsx, so
// it is never older than the code; an installation without them runs the compiled CLI (`npm run build`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url);
const sources = new URL('src/cli/main.ts', root);
const compiled = new URL('dist/cli/main.js', root);

/** Whether a package can be loaded from here (tsx is a development dependency). */
function installed(name) {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

async function loadCli() {
  if (existsSync(sources) && installed('tsx')) {
    const { register } = await import('tsx/esm/api');
    register();
    return import(sources.href);
  }
  return existsSync(compiled) ? import(compiled.href) : undefined;
}

const cli = await loadCli();
if (cli) {
  cli.endQuietlyOnClosedPipe(process.stdout);
  process.exitCode = await cli.runCli(process.argv.slice(2));
} else {
  process.stderr.write(
    `agora: ${root.pathname} holds neither the sources with their tools (run \`npm ci\` there) nor the compiled program (run \`npm run build\` there).\n`,
  );
  process.exitCode = 1;
}
