// npm test (scripts/test.mjs) as CI logs it: no ANSI escapes, no message about a report file
// that is deleted afterwards, and the closing "N passed, M failed" line.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('scripts/test.mjs', () => {
  it('logs plain text and ends with the counts', async () => {
    const env: Record<string, string | undefined> = { ...process.env, FORCE_COLOR: '0' };
    delete env['NO_COLOR'];
    delete env['VITEST'];
    delete env['VITEST_WORKER_ID'];
    delete env['VITEST_POOL_ID'];
    const r = await promisify(execFile)(process.execPath, ['scripts/test.mjs', 'test/unit/money.test.ts'], { env, encoding: 'utf8' });
    const log = r.stdout + r.stderr;
    expect(log).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
    expect(log).not.toMatch(/report.*written|written to/i);
    expect(log).toMatch(/\n\d+ passed, 0 failed\n$/);
  }, 60_000);
});
