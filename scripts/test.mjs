// Runs the whole suite with vitest and ends with the plain line CI reads: "N passed, M failed".
// Logs (stdout not a terminal) carry no ANSI escapes, and no message about a report file: the
// counts come from a silent reporter through a temporary file that is removed afterwards.
//
// A deadline (PM_TEST_DEADLINE seconds, 900 unless set; the suite takes 3-5 minutes on 2 cores):
// a suite that has not ended by then is stopped (vitest and every process it started), its
// failures so far are printed, and the line still comes, with one more failure for the stop. CI
// gets a verdict instead of waiting out its own limit on a run that hangs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const vitest = join(require.resolve('vitest/package.json'), '..', 'vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pm-test-'));
const counts = join(dir, 'counts.json');
const reporter = fileURLToPath(new URL('./count-reporter.mjs', import.meta.url));
const args = [vitest, 'run', '--reporter=default', `--reporter=${reporter}`, ...process.argv.slice(2)];
const env = { ...process.env, PM_TEST_COUNTS: counts };
if (!process.stdout.isTTY) {
  // FORCE_COLOR=0 still forces colour in vitest's colour library: say NO_COLOR instead.
  delete env.FORCE_COLOR;
  env.NO_COLOR = '1';
}
const deadlineS = Number(process.env.PM_TEST_DEADLINE ?? 900);
if (!(deadlineS > 0)) {
  console.error(`PM_TEST_DEADLINE must be a number of seconds over 0, got ${process.env.PM_TEST_DEADLINE}`);
  process.exit(2);
}
const started = Date.now();
// Its own process group, so that a stop reaches every process the suite started.
const child = spawn(process.execPath, args, { stdio: 'inherit', env, detached: true });
const group = (sig) => {
  try {
    process.kill(-child.pid, sig);
  } catch {
    // already gone
  }
};
// Ctrl-C and SIGTERM go to the suite as a terminal would send them.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => group(sig));
let stopped = false;
const timer = setTimeout(() => {
  stopped = true;
  group('SIGKILL');
}, deadlineS * 1000);
const code = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
clearTimeout(timer);
// Whatever it left behind (a test's child process) goes with it.
group('SIGKILL');

let passed = 0;
let failed = 0;
let skipped = 0;
let failures = [];
if (existsSync(counts)) {
  ({ passed, failed, skipped, failures = [] } = JSON.parse(readFileSync(counts, 'utf8')));
} else {
  failed = 1;
}
rmSync(dir, { recursive: true, force: true });
if (stopped) {
  console.log(`\nThe suite did not end within ${deadlineS} s (PM_TEST_DEADLINE): stopped. The tests that had failed by then:`);
  for (const f of failures) console.log(`  ${f}`);
  failed += 1;
}
if (code !== 0 && failed === 0) failed = 1;
console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(stopped ? 1 : code);
