// The reporter of one group of scripts/test.mjs: node's own (spec on a terminal, tap otherwise, as node chooses),
// without the group's closing summary (tests, pass, fail, ...), which goes to the file TONGATE_TEST_SUMMARY instead
// as JSON: the runner prints one summary for all its groups. The same file carries the group's failed tests (file,
// name, the error's first line), which the runner lists again after that summary: a log read from its end (a CI page
// that shows the last part only) then names what failed, not only how many; and how long each file took, from which
// the runner names the slowest.
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;

export default async function* groupReporter(source) {
  const summary = {};
  const failures = [];
  const files = [];
  async function* withoutSummary() {
    for await (const event of source) {
      if (event.type === 'test:fail') noteFailure(failures, event.data);
      // A file's own run (its process, from start to exit, imports included) completes as a test named after the file.
      if (event.type === 'test:complete' && event.data.nesting === 0 && event.data.file && event.data.name === event.data.file)
        files.push({ file: event.data.file, ms: Math.round(event.data.details?.duration_ms ?? 0) });
      // The run's summary: diagnostics of nesting 0 naming a count (a test's own diagnostics are free text).
      const match = event.type === 'test:diagnostic' && event.data.nesting === 0 && SUMMARY.exec(event.data.message);
      if (match) summary[match[1]] = Number(match[2]);
      else yield event;
    }
    if (process.env.TONGATE_TEST_SUMMARY) writeFileSync(process.env.TONGATE_TEST_SUMMARY, JSON.stringify({ ...summary, failures, files }));
  }
  if (process.env.TONGATE_TEST_REPORTER === 'tap') {
    yield* tap(withoutSummary());
    return;
  }
  yield* Readable.from(withoutSummary()).pipe(new spec());
}

// A suite that failed because a test inside it did is not listed: the test is. A failure at a file's top level (the
// file did not load, or its process died) is, under the file's name.
function noteFailure(failures, data) {
  const error = data.details?.error;
  if (error?.failureType === 'subtestsFailed') return;
  const cause = error?.cause ?? error;
  const message = String(cause?.message ?? cause ?? 'failed')
    .split('\n')[0]
    .slice(0, 300);
  failures.push({ file: data.file ?? '', name: data.name, message });
}
