// Issue 20 #6 with a chain: when pm can read the source wallet's USDC balance (a sandbox started
// with a local chain, where a withdrawal really moves USDC out of the server wallet), a lost
// answer is settled from that balance: exit 0, "via":"balance", and no second withdrawal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { SERVER_WALLETS } from '../../src/sandbox/seed.js';
import { useAnvil } from '../helpers/anvil.js';
import { dropProxy, type DropProxy } from '../helpers/drop-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';

const anvil = useAnvil();
const { home, cleanup } = tempHome();
let sb: SandboxHandle;
let proxy: DropProxy;
let drops = 1;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl } });
  sb.faults.rateLimit = false;
  proxy = await dropProxy(sb.baseUrl, (m, p) => m === 'POST' && p === '/portfolio/withdraw' && drops-- > 0);
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await sb.close();
  cleanup();
});

describe('a lost withdrawal answer, where the chain can be read', () => {
  it('is settled from the server wallet balance: exit 0 via balance, exactly one withdrawal', async () => {
    const carol = sb.info.accounts.find((a) => a.name === 'carol');
    if (!carol) throw new Error('no carol');
    const env = { PM_HOME: home, PM_BASE_URL: proxy.baseUrl, PM_TOKEN_ID: carol.token.tokenId, PM_TOKEN_SECRET: carol.token.secret };
    const usdc = (sb.info.contracts as { usdc: Hex }).usdc;
    const wallet = SERVER_WALLETS['carol'] as Hex;
    const chainBefore = await anvil.usdcBalance(usdc, wallet);
    const eoaBefore = await anvil.usdcBalance(usdc, carol.address as Hex);
    const exchangeBefore = sb.ctx.state.accounts[String(carol.profileId)]?.usdc ?? 0n;
    expect(chainBefore).toBeGreaterThanOrEqual(10_000_000n);

    const r = await runPm(['--json', '--yes', 'withdraw', '10'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.dropped).toBe(1);
    expect(r.json<{ via: string; walletAddress: string }>()).toMatchObject({ via: 'balance' });
    expect(r.json<{ walletAddress: string }>().walletAddress.toLowerCase()).toBe(wallet.toLowerCase());
    expect(await anvil.usdcBalance(usdc, wallet)).toBe(chainBefore - 10_000_000n);
    expect(await anvil.usdcBalance(usdc, carol.address as Hex)).toBe(eoaBefore + 10_000_000n);
    expect(sb.ctx.state.accounts[String(carol.profileId)]?.usdc).toBe(exchangeBefore - 10_000_000n);

    // Settled: the same withdrawal is not blocked, and it is a new one.
    const again = await runPm(['--json', '--yes', 'withdraw', '10'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ via: string }>().via).toBe('answer');
    expect(await anvil.usdcBalance(usdc, wallet)).toBe(chainBefore - 20_000_000n);
  }, 60_000);
});
