// Runs the whole suite with vitest and ends with the plain line CI reads: "N passed, M failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const vitest = join(require.resolve('vitest/package.json'), '..', 'vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pm-test-'));
const report = join(dir, 'report.json');
const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const started = Date.now();
const res = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0) + (r.testResults ?? []).filter((t) => t.status === 'failed' && (t.assertionResults ?? []).length === 0).length;
  skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
} else {
  failed = 1;
}
rmSync(dir, { recursive: true, force: true });
const code = res.status ?? 1;
if (code !== 0 && failed === 0) failed = 1;
console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code);
