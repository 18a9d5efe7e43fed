// The reporter of one group of scripts/test.mjs: node's own (spec on a terminal, tap otherwise, as node chooses),
// without the group's closing summary (tests, pass, fail, ...), which goes to the file TONGATE_TEST_SUMMARY instead
// as JSON: the runner prints one summary for all its groups.
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;

export default async function* groupReporter(source) {
  const summary = {};
  async function* withoutSummary() {
    for await (const event of source) {
      // The run's summary: diagnostics of nesting 0 naming a count (a test's own diagnostics are free text).
      const match = event.type === 'test:diagnostic' && event.data.nesting === 0 && SUMMARY.exec(event.data.message);
      if (match) summary[match[1]] = Number(match[2]);
      else yield event;
    }
    if (process.env.TONGATE_TEST_SUMMARY) writeFileSync(process.env.TONGATE_TEST_SUMMARY, JSON.stringify(summary));
  }
  if (process.env.TONGATE_TEST_REPORTER === 'tap') {
    yield* tap(withoutSummary());
    return;
  }
  yield* Readable.from(withoutSummary()).pipe(new spec());
}
