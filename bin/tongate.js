#!/usr/bin/env node
// The CLI entry point: runs the compiled code (npm ci builds it through the "prepare" script).
import '../dist/cli/entry.js';
