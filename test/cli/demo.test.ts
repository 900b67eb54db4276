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
    // The watch step: the events of a placed, filled (and settled) and cancelled order, live.
    for (const kind of ['PLACEMENT', 'FILLED', 'MATCHED', 'MINED', 'CANCELLATION']) expect(r.stdout).toMatch(new RegExp(`\\[watch\\].*fed-cut-december\\s+${kind}\\b`));
    expect(r.stdout).toMatch(/Done\./);
  }, 120_000);
});
