// Runs the whole suite with vitest and ends with the plain line CI reads: "N passed, M failed".
// Logs (stdout not a terminal) carry no ANSI escapes, and no message about a report file: the
// counts come from a silent reporter through a temporary file that is removed afterwards.
import { spawnSync } from 'node:child_process';
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
const started = Date.now();
const res = spawnSync(process.execPath, args, { stdio: 'inherit', env });
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(counts)) {
  ({ passed, failed, skipped } = JSON.parse(readFileSync(counts, 'utf8')));
} else {
  failed = 1;
}
rmSync(dir, { recursive: true, force: true });
const code = res.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code);
