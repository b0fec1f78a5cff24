#!/usr/bin/env node
// Entry point for the installed `agora` command: runs the compiled CLI (`npm run build`).
import { endQuietlyOnClosedPipe, runCli } from '../dist/cli/main.js';

endQuietlyOnClosedPipe(process.stdout);
process.exitCode = await runCli(process.argv.slice(2));
