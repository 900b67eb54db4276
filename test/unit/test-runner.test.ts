// npm test (scripts/test.mjs) as CI logs it: no ANSI escapes, no message about a report file
// that is deleted afterwards, and the closing "N passed, M failed" line; and a suite that hangs
// is stopped at PM_TEST_DEADLINE with the line still printed (before: CI waited out its own
// limit, 5400 s, on a hung run and got no line at all).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** This process's environment without vitest's own variables (the runner starts a vitest of its own). */
function runnerEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, FORCE_COLOR: '0', ...extra };
  delete env['NO_COLOR'];
  delete env['VITEST'];
  delete env['VITEST_WORKER_ID'];
  delete env['VITEST_POOL_ID'];
  return env;
}

describe('scripts/test.mjs', () => {
  it('logs plain text and ends with the counts', async () => {
    const r = await promisify(execFile)(process.execPath, ['scripts/test.mjs', 'test/unit/money.test.ts'], {
      env: runnerEnv(),
      encoding: 'utf8',
    });
    const log = r.stdout + r.stderr;
    expect(log).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
    expect(log).not.toMatch(/report.*written|written to/i);
    expect(log).toMatch(/\n\d+ passed, 0 failed\n$/);
  }, 60_000);

  it('stops a suite that has not ended by its deadline: exit 1, the failures so far, then the line', async () => {
    const r = await promisify(execFile)(process.execPath, ['scripts/test.mjs', '--config', 'test/fixtures/hang/vitest.config.ts'], {
      env: runnerEnv({ PM_TEST_DEADLINE: '8' }),
      encoding: 'utf8',
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect('code' in r ? r.code : 0, r.stdout + r.stderr).toBe(1);
    // The one test that ended by passing, the failed one and the stop; the hung one is not counted.
    expect(r.stdout.trim().split('\n').at(-1)).toBe('1 passed, 2 failed');
    expect(r.stdout).toMatch(/did not end within 8 s \(PM_TEST_DEADLINE\): stopped/);
    expect(r.stdout).toMatch(/hang\.fixture\.ts > fails with a message: .*expected 'what failed' to be 'something else'/);
  }, 60_000);
});

describe("the suite's order (vitest.config.ts)", () => {
  it('every file the sequencer starts first exists, once (a renamed file would silently start late again)', () => {
    const config = readFileSync('vitest.config.ts', 'utf8');
    const list = /const LONG = \[([\s\S]*?)\];/.exec(config)?.[1] ?? '';
    const files = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
    expect(files.length).toBeGreaterThan(10);
    expect(new Set(files).size).toBe(files.length);
    expect(files.filter((f) => !existsSync(f))).toEqual([]);
  });
});
