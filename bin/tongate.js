#!/usr/bin/env node
// The CLI entry point: runs the compiled code (npm ci builds it through the "prepare" script).
import('../dist/cli/main.js').then((m) => m.main(process.argv)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
