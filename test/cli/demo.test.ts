// `pm demo` runs the whole tour, money steps included: positions after a fill, a sale that
// realises PnL, resolve, redeem (once), an allowlisted withdrawal with its exact raw amount.
import { describe, expect, it } from 'vitest';
import { runPm } from '../helpers/run.js';

describe('pm demo', () => {
  it('runs every step, including positions, resolve, redeem and a withdrawal', async () => {
    const r = await runPm(['demo'], { env: { PM_SCRYPT_N: '1024' } });
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\$ pm positions/);
    expect(r.stdout).toMatch(/\$ pm sandbox resolve btc-100k-2026 yes/);
    expect(r.stdout).toMatch(/btc-100k-2026\s+redeemed/); // piped: a tab-separated table
    expect(r.stdout).toMatch(/Already redeemed/);
    expect(r.stdout).toMatch(/\{"amount":"25500000","destination":"0x000000000000000000000000000000000000bEEF"\}/);
    expect(r.stdout).toMatch(/Done\./);
    // The last lines say how to run pm from a clean clone, where it is not on PATH.
    const tail = r.stdout.trimEnd().split('\n').slice(-5).join('\n');
    expect(tail).toMatch(/^  npx pm sandbox start/m);
    expect(tail).toMatch(/npm link/);
    expect(tail).not.toMatch(/^Done\. Run your own sandbox with: pm sandbox start$/m);
  }, 120_000);
});
