// A 120-line --json batch run as users run it (node bin/pm.js, Ctrl-C wired to one AbortSignal):
// stdout has one result per line, stderr stays empty. Before the fix every waiting request added
// an abort listener to that signal and Node printed MaxListenersExceededWarning on stderr.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv, ladder } from '../helpers/account-env.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

beforeAll(async () => {
  const r = await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimit: false }),
  });
  expect(r.status).toBe(200);
});

describe('a long --json batch, spawned', () => {
  it('120 lines: exit 0, 120 results on stdout, stderr empty', async () => {
    const file = join(home, 'long.ndjson');
    writeFileSync(
      file,
      ladder(120)
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = await execa('node', ['bin/pm.js', '--json', 'order', 'place', '--file', file], {
      // The exchange's queue (2 in flight, the rest waiting), a twelfth of its 300 ms between starts.
      env: accountEnv(sb.current, 'alice', home, { PM_PACE: '2/25', CI: '1' }),
      stdin: 'ignore',
      reject: false,
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean });
    expect(out).toHaveLength(120);
    expect(out.every((x) => x.ok)).toBe(true);
  }, 60_000);
});
