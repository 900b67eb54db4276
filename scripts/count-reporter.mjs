// A silent vitest reporter for scripts/test.mjs: writes the counts to PM_TEST_COUNTS (a file the
// runner reads and removes) and prints nothing, so the log carries no report-file message. The
// file is written again as each test ends, with the failed tests' names and first error lines:
// if the suite has to be stopped (scripts/test.mjs's deadline), the runner still has them.
import { renameSync, writeFileSync } from 'node:fs';

const firstLine = (e) => String(e?.message ?? '').split('\n')[0];

function write(counts) {
  const file = process.env.PM_TEST_COUNTS;
  if (!file) return;
  // Whole or not at all: the runner may read it at any moment.
  writeFileSync(`${file}.tmp`, JSON.stringify(counts));
  renameSync(`${file}.tmp`, file);
}

/** A test's state and, should it have failed, the line that names it. */
const entry = (test) => {
  const r = test.result();
  return { state: r.state, failure: `${test.module.moduleId} > ${test.fullName}: ${firstLine(r.errors?.[0])}` };
};

export default class CountReporter {
  // What has ended so far: each test's state, and files that failed without a test (load, hooks).
  tests = new Map();
  files = new Map();

  onTestCaseResult(test) {
    this.tests.set(test.id, entry(test));
    this.flush(0);
  }

  onTestModuleEnd(mod) {
    this.noteFile(mod);
    this.flush(0);
  }

  onTestRunEnd(testModules, unhandledErrors) {
    // The final count, from the whole run (a test skipped by a failed hook ends without a result event).
    this.tests.clear();
    for (const mod of testModules) {
      for (const t of mod.children.allTests()) this.tests.set(t.id, entry(t));
      this.noteFile(mod);
    }
    this.flush(unhandledErrors?.length ?? 0);
  }

  /** A file that failed to load (or to run its hooks) counts once. */
  noteFile(mod) {
    if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0)
      this.files.set(mod.moduleId, `${mod.moduleId}: ${firstLine(mod.errors()[0]) || 'failed to run'}`);
  }

  flush(errors) {
    const c = { passed: 0, failed: errors + this.files.size, skipped: 0, failures: [...this.files.values()] };
    for (const t of this.tests.values()) {
      if (t.state === 'passed') c.passed++;
      else if (t.state === 'failed') {
        c.failed++;
        c.failures.push(t.failure);
      } else c.skipped++;
    }
    write(c);
  }
}
