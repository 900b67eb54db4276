// The sandbox's chain side against a real anvil: deploy + funding, refusals of EOA orders whose
// on-chain approvals are missing, and payouts posted at resolution.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { TestCTF, TestUSDC } from '../../src/sandbox/contracts.js';
import { accountEnv } from '../helpers/account-env.js';
import { useAnvil } from '../helpers/anvil.js';
import { runPm, tempHome } from '../helpers/run.js';

const anvil = useAnvil();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Hex;
const ALICE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as Hex;
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Hex;
const ONE = 1_000_000n;

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function chainSandbox(): Promise<SandboxHandle> {
  sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl } });
  return sb;
}

function aliceEnv(s: SandboxHandle): Record<string, string> {
  return accountEnv(s, 'alice', home, { PM_PACE: 'off' });
}

async function aliceSends(s: SandboxHandle, fn: 'approve' | 'setApprovalForAll', target: Hex): Promise<void> {
  const chain = defineChain({
    id: 31337,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const w = createWalletClient({ account: privateKeyToAccount(ALICE_KEY), chain, transport: http(anvil.rpcUrl) });
  const c = s.info.contracts;
  if (!c) throw new Error('no contracts');
  const hash =
    fn === 'approve'
      ? await w.writeContract({ address: c.usdc as Hex, abi: TestUSDC.abi, functionName: 'approve', args: [target, 1000n * ONE] })
      : await w.writeContract({
          address: c.conditionalTokens as Hex,
          abi: TestCTF.abi,
          functionName: 'setApprovalForAll',
          args: [target, true],
        });
  await anvil.client.waitForTransactionReceipt({ hash });
}

describe('sandbox --chain', () => {
  it('deploys the contracts, funds the seeded accounts and reports rpcUrl and addresses', async () => {
    const s = await chainSandbox();
    expect(s.info.rpcUrl).toBe(anvil.rpcUrl);
    expect(s.info.rpcChainId).toBe(31337);
    const c = s.info.contracts;
    expect(c?.usdc).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await anvil.usdcBalance(c?.usdc as Hex, ALICE)).toBe(10_000n * ONE);
    expect(await anvil.usdcBalance(c?.usdc as Hex, BOB)).toBe(1_000_000n * ONE);
    const eth5k = s.ctx.state.markets.find((m) => m.slug === 'eth-5k-2025');
    expect(await anvil.ctfBalance(c?.conditionalTokens as Hex, ALICE, BigInt(eth5k?.positionIds?.[0] ?? 0))).toBe(150n * ONE);
    const res = await fetch(`${s.baseUrl}/__sandbox/chain`);
    expect(await res.json()).toEqual({ rpcUrl: anvil.rpcUrl, chainId: 31337, contracts: c });
  });

  it('refuses a NegRisk SELL until the CTF approval covers both exchange and adapter', async () => {
    const s = await chainSandbox();
    const env = aliceEnv(s);
    const slug = 'us-election-2028-democrat';
    const m = s.ctx.state.markets.find((x) => x.slug === slug);
    // alice needs shares to sell: she buys some from bob's asks first (BUY needs the allowance).
    await aliceSends(s, 'approve', m?.venue?.exchange as Hex);
    const buy = await runPm(['--json', 'order', 'place', slug, 'buy', 'yes', '--type', 'fok', '--amount', '10'], { env });
    expect(buy.code).toBe(0);
    const sell = ['--json', 'order', 'place', slug, 'sell', 'yes', '--price', '0.99', '--size', '1'];
    const r1 = await runPm(sell, { env });
    expect(r1.code).toBe(9);
    expect(r1.stderr + r1.stdout).toContain('Insufficient conditional token allowance');
    await aliceSends(s, 'setApprovalForAll', m?.venue?.exchange as Hex);
    const r2 = await runPm(sell, { env });
    expect(r2.code).toBe(9); // the adapter is still missing
    await aliceSends(s, 'setApprovalForAll', m?.venue?.adapter as Hex);
    const r3 = await runPm(sell, { env });
    expect(r3.code).toBe(0);
  });

  it('resolving a market posts its payout on chain', async () => {
    const s = await chainSandbox();
    const m = s.ctx.state.markets.find((x) => x.slug === 'sol-500-2026');
    const res = await fetch(`${s.baseUrl}/__sandbox/markets/sol-500-2026/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 'NO' }),
    });
    expect(res.status).toBe(200);
    const ctf = s.info.contracts?.conditionalTokens as Hex;
    const den = await anvil.client.readContract({
      address: ctf,
      abi: TestCTF.abi,
      functionName: 'payoutDenominator',
      args: [m?.conditionId as Hex],
    });
    expect(den).toBe(1n);
    const no = await anvil.client.readContract({
      address: ctf,
      abi: TestCTF.abi,
      functionName: 'payoutNumerators',
      args: [m?.conditionId as Hex, 1n],
    });
    expect(no).toBe(1n);
    expect(s.ctx.state.markets.find((x) => x.slug === 'sol-500-2026')?.status).toBe('RESOLVED');
    expect(s.ctx.state.orders.filter((o) => o.marketSlug === 'sol-500-2026' && o.status === 'LIVE')).toEqual([]);
  });

  it('without a chain: no /__sandbox/chain and orders need no approvals', async () => {
    sb = await startSandbox({ port: 0, dataDir: null });
    expect((await fetch(`${sb.baseUrl}/__sandbox/chain`)).status).toBe(404);
    expect(sb.info.rpcUrl).toBeUndefined();
    const r = await runPm(['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.30', '--size', '5'], {
      env: aliceEnv(sb),
    });
    expect(r.code).toBe(0);
  });
});

describe('pm sandbox start --chain (built bin/pm.js)', () => {
  it('starts anvil from npm (chain 8453), prints rpcUrl and contracts in the ready line, and stops it on Ctrl-C', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/pm.js', '--json', 'sandbox', 'start', '--chain', '--port', '0', '--ephemeral'], {
      env: { PATH: process.env['PATH'], HOME: home, PM_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (c: Buffer) => {
        buf += c.toString();
        const nl = buf.indexOf('\n');
        if (nl >= 0) resolve(buf.slice(0, nl));
      });
      child.once('exit', (code) => reject(new Error(`exited ${String(code)}`)));
    });
    const ready = JSON.parse(line) as { rpcUrl: string; rpcChainId: number; contracts: { usdc: string; conditionalTokens: string } };
    expect(ready.rpcChainId).toBe(8453);
    const res = await fetch(ready.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [ready.contracts.usdc, 'latest'] }),
    });
    expect(((await res.json()) as { result: string }).result.length).toBeGreaterThan(100);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    await expect(fetch(ready.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 30_000);
});
