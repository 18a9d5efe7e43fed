#!/usr/bin/env node
// The CLI entry point: runs the compiled command, bundled (npm ci builds both through the "prepare" script:
// tsc into dist/, then scripts/bundle-cli.mjs into dist/cli-bundle/).
import '../dist/cli-bundle/entry.js';
