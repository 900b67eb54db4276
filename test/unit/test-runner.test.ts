// scripts/test.mjs (the README's npm test): a suite that hangs is stopped at PM_TEST_DEADLINE and
// the run still ends with "N passed, M failed", the failures so far listed. Before: CI waited
// out its own limit (5400 s) on a hung run and got no line at all.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

describe('scripts/test.mjs', () => {
  it('stops a suite that has not ended by its deadline: exit 1, the failures so far, then the line', async () => {
    const t0 = Date.now();
    const r = await execa('node', ['scripts/test.mjs', '--config', 'test/fixtures/hang/vitest.config.ts'], {
      env: { PM_TEST_DEADLINE: '8' },
      reject: false,
      stdin: 'ignore',
    });
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(Date.now() - t0).toBeLessThan(40_000);
    const lines = r.stdout.trim().split('\n');
    // The one test that ended by passing, the failed one and the stop; the hung one is not counted.
    expect(lines.at(-1)).toBe('1 passed, 2 failed');
    expect(r.stdout).toMatch(/did not end within 8 s \(PM_TEST_DEADLINE\): stopped/);
    expect(r.stdout).toMatch(/hang\.fixture\.ts > fails with a message: .*expected 'what failed' to be 'something else'/);
  }, 60_000);
});
