// `pm demo --chain`: the on-chain tour against its own sandbox and anvil (from npm), which it
// stops afterwards.
import { describe, expect, it } from 'vitest';
import { runPm } from '../helpers/run.js';

describe('pm demo --chain', () => {
  it('checks and sets approvals, is refused then filled, resolves and redeems on chain, and stops its chain', async () => {
    const r = await runPm(['demo', '--chain'], { env: { PM_SCRYPT_N: '1024' } });
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    const rpc = /a local chain runs at (http:\/\/127\.0\.0\.1:\d+)/.exec(r.stdout)?.[1];
    expect(rpc).toBeDefined();
    expect(r.stdout).toMatch(/\$ pm approve check btc-100k-2026\n[\s\S]*USDC allowance\texchange\t0x[0-9a-fA-F]{40}\tBUY\tmissing/);
    expect(r.stdout).toMatch(/Insufficient collateral allowance[\s\S]*\(exit code 9\)/);
    expect(r.stdout).toMatch(/^0x[0-9a-f]{64}\s+USDC approve\(exchange/m);
    expect(r.stdout).toMatch(/nothing to send/);
    expect(r.stdout).toMatch(/status\s+matched/);
    expect(r.stdout).toMatch(/\$ pm sandbox resolve btc-100k-2026 yes\nresolved btc-100k-2026: YES won/);
    expect(r.stdout).toMatch(/redeemed eth-5k-2025: \+150 USDC \(now 10150\)/);
    expect(r.stdout).toMatch(/USDC held\s+\$10150\.00\n/);
    expect(r.stdout).toMatch(/^ {2}pm sandbox start --detach --chain +#/m);
    await expect(fetch(rpc ?? '', { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 120_000);
});
