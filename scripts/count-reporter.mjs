// A silent vitest reporter for scripts/test.mjs: writes the counts to PM_TEST_COUNTS (a file the
// runner reads and removes) and prints nothing, so the log carries no report-file message.
import { writeFileSync } from 'node:fs';

export default class CountReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let tests = 0;
      for (const t of mod.children.allTests()) {
        tests++;
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load (or to run its hooks) counts once.
      if (mod.state() === 'failed' && tests === 0) failed++;
    }
    failed += unhandledErrors?.length ?? 0;
    const file = process.env.PM_TEST_COUNTS;
    if (file) writeFileSync(file, JSON.stringify({ passed, failed, skipped }));
  }
}
