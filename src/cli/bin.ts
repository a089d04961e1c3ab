#!/usr/bin/env node
// The `tool-result-guard` bin. Everything lives in cli/index.ts, so tests can call it without a process.
import { runCli } from './index.js';

// A reader that stops early (`migrate --dry-run | head`) closes the pipe: what is
// left to print has nowhere to go, which is no reason to crash with an unhandled
// EPIPE. The run finishes and exits with its own status; any other error still throws.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2));
