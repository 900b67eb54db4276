// pm sandbox reset resets the sandbox pm talks to: with --base-url or PM_BASE_URL naming a sandbox
// that another PM_HOME started, it said "reset the stored sandbox state" (of its own PM_HOME,
// where there was none) and left the running sandbox as it was.
import { describe, expect, it } from 'vitest';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();

describe('pm sandbox reset, the sandbox named by PM_BASE_URL', () => {
  it('resets that running sandbox (its balances back to the seed), and says so', async () => {
    const env = { PM_HOME: newHome(), PM_BASE_URL: sb.current.baseUrl };
    const usdc = () => sb.current.ctx.state.accounts['1001']?.usdc ?? -1n;
    const seeded = usdc();
    expect((await runPm(['sandbox', 'fund', '5', '--to', '1001'], { env })).code).toBe(0);
    expect(usdc()).toBe(seeded + 5_000_000n);
    const r = await runPm(['--json', '--yes', 'sandbox', 'reset'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ reset: true, running: true, baseUrl: sb.current.baseUrl });
    expect(usdc()).toBe(seeded);
  });

  it('refuses a base URL that is not a sandbox, nothing sent (exit 2)', async () => {
    const r = await runPm(['--json', '--yes', 'sandbox', 'reset'], {
      env: { PM_HOME: newHome(), PM_BASE_URL: 'https://api.example.org' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/not one: nothing was sent/);
  });
});
