#!/usr/bin/env node
// The `tool-result-guard` bin. Everything lives in codemods/cli.ts, so tests can call it without a process.
import { runCli } from './codemods/cli.js';

process.exitCode = await runCli(process.argv.slice(2));
