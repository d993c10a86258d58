#!/usr/bin/env node
// Entry point for the `svc` command; the compiled CLI lives in dist/ (built by `npm ci` via `prepare`).
import { main } from '../dist/cli/main.js';

main(process.argv).catch((err) => {
  process.stderr.write(`svc: ${err?.message ?? err}\n`);
  process.exit(1);
});
