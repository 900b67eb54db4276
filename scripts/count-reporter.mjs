// A silent vitest reporter for scripts/test.mjs: writes the counts to PM_TEST_COUNTS (a file the
// runner reads and removes) and prints nothing, so the log carries no report-file message. The
// file is written again after every test file, with the failed tests' names and first error
// lines: if the suite has to be stopped (scripts/test.mjs's deadline), the runner still has them.
import { renameSync, writeFileSync } from 'node:fs';

/** Counts of one file's tests, and its failures (name and the error's first line). */
function countModule(mod) {
  const c = { passed: 0, failed: 0, skipped: 0, failures: [] };
  let tests = 0;
  for (const t of mod.children.allTests()) {
    tests++;
    const r = t.result();
    if (r.state === 'passed') c.passed++;
    else if (r.state === 'failed') {
      c.failed++;
      c.failures.push(`${mod.moduleId} > ${t.fullName}: ${String(r.errors?.[0]?.message ?? '').split('\n')[0]}`);
    } else c.skipped++;
  }
  // A file that failed to load (or to run its hooks) counts once.
  if (mod.state() === 'failed' && tests === 0) {
    c.failed++;
    c.failures.push(`${mod.moduleId}: ${String(mod.errors()[0]?.message ?? 'failed to run').split('\n')[0]}`);
  }
  return c;
}

function write(counts) {
  const file = process.env.PM_TEST_COUNTS;
  if (!file) return;
  // Whole or not at all: the runner may read it at any moment.
  writeFileSync(`${file}.tmp`, JSON.stringify(counts));
  renameSync(`${file}.tmp`, file);
}

export default class CountReporter {
  done = new Map();

  onTestModuleEnd(mod) {
    this.done.set(mod.moduleId, countModule(mod));
    write(this.sum(this.done.values(), 0, false));
  }

  onTestRunEnd(testModules, unhandledErrors) {
    write(this.sum(testModules.map(countModule), unhandledErrors?.length ?? 0, true));
  }

  sum(counts, errors, finished) {
    const all = { passed: 0, failed: errors, skipped: 0, failures: [], finished };
    for (const c of counts) {
      all.passed += c.passed;
      all.failed += c.failed;
      all.skipped += c.skipped;
      all.failures.push(...c.failures);
    }
    return all;
  }
}
