// pm approve check/set, pm balance and pm redeem-onchain against a real anvil (npm, port 0)
// and a sandbox whose chain is that node; every on-chain outcome is checked with raw viem reads.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { accountEnv } from '../helpers/account-env.js';
import { useAnvil } from '../helpers/anvil.js';
import { runPm, tempHome } from '../helpers/run.js';

const anvil = useAnvil();
const { home, cleanup } = tempHome();
afterAll(cleanup);
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

function envOf(s: SandboxHandle, name: string): Record<string, string> {
  return accountEnv(s, name, home, { PM_PACE: 'off' });
}
const addr = (s: SandboxHandle, name: string): Hex => s.info.accounts.find((x) => x.name === name)?.address as Hex;
const venue = (s: SandboxHandle, slug: string) =>
  s.ctx.state.markets.find((m) => m.slug === slug)?.venue as { exchange: Hex; adapter: Hex | null };

interface CheckJson {
  approvals: { type: string; target: string; spender: string; requiredFor: string; status: string }[];
  missing: number;
}
interface SetJson {
  sent: { hash: string; what: string; status: string }[];
}

describe('pm approve', () => {
  it('check lists the missing targets; NegRisk SELL needs exchange and adapter', async () => {
    const s = await chainSandbox();
    const env = envOf(s, 'alice');
    const simple = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env });
    expect(simple.code).toBe(8);
    const sj = simple.json<CheckJson>();
    expect(sj.approvals.map((a) => [a.type, a.target, a.requiredFor, a.status])).toEqual([
      ['USDC_ALLOWANCE', 'exchange', 'BUY', 'missing'],
      ['CTF_APPROVAL', 'exchange', 'SELL', 'missing'],
    ]);
    const neg = (await runPm(['--json', 'approve', 'check', 'us-election-2028-democrat'], { env })).json<CheckJson>();
    const v = venue(s, 'us-election-2028-democrat');
    expect(neg.approvals.map((a) => [a.type, a.target, a.spender, a.status])).toEqual([
      ['USDC_ALLOWANCE', 'exchange', v.exchange, 'missing'],
      ['CTF_APPROVAL', 'exchange', v.exchange, 'missing'],
      ['CTF_APPROVAL', 'adapter', v.adapter, 'missing'],
    ]);
    // bob (the seeded market maker) is approved everywhere
    const bob = (await runPm(['--json', 'approve', 'check', '--all'], { env: envOf(s, 'bob') })).json<CheckJson>();
    expect(bob.missing).toBe(0);
    const table = await runPm(['approve', 'check', 'us-election-2028-democrat'], { env });
    expect(table.stdout).toMatch(/CTF approval[\s│|]+adapter[\s│|]+0x[0-9a-fA-F]{40}[\s│|]+SELL[\s│|]+missing/);
  });

  it('set sends exactly the missing approvals (NegRisk: exchange and adapter), and a second run sends nothing', async () => {
    const s = await chainSandbox();
    const env = envOf(s, 'alice');
    const alice = addr(s, 'alice');
    const v = venue(s, 'us-election-2028-democrat');
    const { usdc, conditionalTokens: ctf } = s.info.contracts as { usdc: Hex; conditionalTokens: Hex };
    const dry = await runPm(['--json', 'approve', 'set', 'us-election-2028-democrat', '--side', 'sell', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    const plan = dry.json<{ transactions: unknown[]; estimatedCost: string; estimatedCostWei: string }>();
    expect(plan.transactions).toHaveLength(2);
    // The gas estimate in ETH beside its wei, as amounts go in JSON.
    expect(plan.estimatedCostWei).toMatch(/^[1-9]\d*$/);
    expect(plan.estimatedCost).toMatch(/^0\.\d+$/);
    expect(BigInt(plan.estimatedCost.slice(2).padEnd(18, '0'))).toBe(BigInt(plan.estimatedCostWei));
    expect(await anvil.ctfApproved(ctf, alice, v.exchange)).toBe(false);

    const sell = await runPm(['--json', '--yes', 'approve', 'set', 'us-election-2028-democrat', '--side', 'sell'], { env });
    expect(sell.code).toBe(0);
    expect(sell.json<SetJson>().sent.map((t) => t.what)).toEqual([
      expect.stringContaining('setApprovalForAll(exchange'),
      expect.stringContaining('setApprovalForAll(adapter'),
    ]);
    // With --json the progress lines ("sending 1/2 …", "confirmed in block …") stay off stderr.
    expect(sell.stderr).toBe('');
    expect(await anvil.ctfApproved(ctf, alice, v.exchange)).toBe(true);
    expect(await anvil.ctfApproved(ctf, alice, v.adapter as Hex)).toBe(true);
    expect(await anvil.usdcAllowance(usdc, alice, v.exchange)).toBe(0n);

    const both = await runPm(['--json', '--yes', 'approve', 'set', 'us-election-2028-democrat', '--amount', '250'], { env });
    expect(both.json<SetJson>().sent.map((t) => t.what)).toEqual([expect.stringContaining('USDC approve(exchange')]);
    expect(await anvil.usdcAllowance(usdc, alice, v.exchange)).toBe(250n * ONE);

    const again = await runPm(['--json', '--yes', 'approve', 'set', 'us-election-2028-democrat', '--amount', '250'], { env });
    expect(again.json<SetJson>().sent).toEqual([]);
    const check = (await runPm(['--json', 'approve', 'check', 'us-election-2028-democrat'], { env })).json<
      CheckJson & { approvals: { current: unknown; currentRaw?: string }[]; usdcHeld: string; usdcHeldRaw: string }
    >();
    expect(check.missing).toBe(0);
    // Amounts as the output contract has them: a decimal string and its raw integer beside it.
    expect(check.approvals[0]).toMatchObject({ type: 'USDC_ALLOWANCE', current: '250', currentRaw: String(250n * ONE) });
    expect(check.approvals[1]).toMatchObject({ type: 'CTF_APPROVAL', current: true });
    const heldNow = await anvil.usdcBalance(usdc, alice);
    expect(check.usdcHeldRaw).toBe(heldNow.toString());
    expect(check.usdcHeld).toMatch(/^\d+(\.\d{1,6})?$/);
    const [whole = '', frac = ''] = check.usdcHeld.split('.');
    expect(BigInt(whole) * ONE + BigInt(frac.padEnd(6, '0'))).toBe(heldNow);
    // An allowance set on purpose stays "approved", but one below what the wallet holds is named
    // (a BUY spending more is refused, and the refusal's hint sends the user here).
    const held = await anvil.usdcBalance(usdc, alice);
    const table = await runPm(['approve', 'check', 'us-election-2028-democrat'], { env });
    expect(held).toBeGreaterThan(250n * ONE);
    expect(table.stderr).toMatch(
      /all approvals in place\nnote: the USDC allowance to exchange is 250 USDC, below the [\d.,]+ USDC this wallet holds/,
    );
  });

  it('an EOA order without approval is refused by the --chain sandbox and succeeds after approve set', async () => {
    const s = await chainSandbox();
    const env = envOf(s, 'alice');
    const place = ['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.30', '--size', '5'];
    const refused = await runPm(place, { env });
    expect(refused.code).toBe(9);
    expect(refused.stderr).toContain('Insufficient collateral allowance');
    expect(refused.stderr).toContain('pm approve set');
    expect((await runPm(['--yes', 'approve', 'set', 'btc-100k-2026', '--side', 'buy'], { env })).code).toBe(0);
    const ok = await runPm(place, { env });
    expect(ok.code).toBe(0);
  });

  it('against an exchange that is not a sandbox, without --yes and without a TTY nothing is sent (exit 2)', async () => {
    const s = await chainSandbox();
    // http://0.0.0.0:port reaches this sandbox but is no loopback URL: pm treats it as a real exchange.
    const r = await runPm(['approve', 'set', 'btc-100k-2026', '--rpc-url', s.info.rpcUrl ?? ''], {
      env: { ...envOf(s, 'alice'), PM_BASE_URL: s.baseUrl.replace('127.0.0.1', '0.0.0.0') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await anvil.usdcAllowance(s.info.contracts?.usdc as Hex, addr(s, 'alice'), venue(s, 'btc-100k-2026').exchange)).toBe(0n);
  });

  it('not enough ETH for gas: exit 1, nothing sent, approve check still shows the truth', async () => {
    const s = await chainSandbox();
    const env = envOf(s, 'alice');
    const alice = addr(s, 'alice');
    const saved = (await anvil.rpc('eth_getBalance', [alice, 'latest'])) as string;
    await anvil.rpc('anvil_setBalance', [alice, '0x0']);
    try {
      const r = await runPm(['--yes', 'approve', 'set', 'btc-100k-2026'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not enough .*gas|ETH/);
    } finally {
      await anvil.rpc('anvil_setBalance', [alice, saved]);
    }
    const check = (await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env })).json<CheckJson>();
    expect(check.missing).toBe(2);
  });
});

describe('RPC configuration', () => {
  it('no RPC configured: exit 2 with how to set it', async () => {
    sb = await startSandbox({ port: 0, dataDir: null });
    const r = await runPm(['approve', 'check', 'btc-100k-2026'], { env: envOf(sb, 'alice') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no RPC URL');
    expect(r.stderr).toContain('PM_RPC_URL');
  });

  it('wrong chain id: exit 2 (a chain-less exchange expects Base, 8453)', async () => {
    sb = await startSandbox({ port: 0, dataDir: null });
    const r = await runPm(['approve', 'check', 'btc-100k-2026', '--rpc-url', anvil.rpcUrl], { env: envOf(sb, 'alice') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is chain 31337, not Base (8453)');
  });

  it('an RPC that does not answer: exit 7', async () => {
    const s = await chainSandbox();
    const r = await runPm(['approve', 'check', 'btc-100k-2026', '--rpc-url', 'http://127.0.0.1:9'], { env: envOf(s, 'alice') });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('could not reach the RPC');
  });

  it('an RPC that drops every connection: exit 7, known by the error codes along the causes', async () => {
    const s = await chainSandbox();
    const dropper = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = dropper.address() as AddressInfo;
      const r = await runPm(['approve', 'check', 'btc-100k-2026', '--rpc-url', `http://127.0.0.1:${port}`], { env: envOf(s, 'alice') });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toContain('could not reach the RPC');
    } finally {
      await new Promise((resolve) => dropper.close(resolve));
    }
  });
});

describe('pm balance and pm redeem-onchain', () => {
  it('resolve → redeem-onchain moves exactly the winning payout into the wallet', async () => {
    const s = await chainSandbox();
    const env = envOf(s, 'bob');
    const bob = addr(s, 'bob');
    const usdc = s.info.contracts?.usdc as Hex;
    // not resolved yet: refused before sending anything
    const early = await runPm(['--yes', 'redeem-onchain', 'btc-100k-2026'], { env });
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('not posted on chain');

    const res = await fetch(`${s.baseUrl}/__sandbox/markets/btc-100k-2026/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 'YES' }),
    });
    expect(res.status).toBe(200);
    // pm balance --chain reads the wallet on the sandbox's chain: USDC and both outcomes' shares.
    const bal = (await runPm(['--json', 'balance', '--chain', 'btc-100k-2026'], { env })).json<{
      source: string;
      usdc: { heldRaw: string };
      positions: { outcome: string; heldRaw: string }[];
    }>();
    expect(bal.source).toBe('chain');
    expect(bal.positions.map((p) => [p.outcome, p.heldRaw])).toEqual([
      ['YES', String(5000n * ONE)],
      ['NO', String(5000n * ONE)],
    ]);
    const before = await anvil.usdcBalance(usdc, bob);
    expect(BigInt(bal.usdc.heldRaw)).toBe(before);
    const r = await runPm(['--json', '--yes', 'redeem-onchain', 'btc-100k-2026'], { env });
    expect(r.code).toBe(0);
    const after = await anvil.usdcBalance(usdc, bob);
    expect(after - before).toBe(5000n * ONE); // 5000 YES × 1 + 5000 NO × 0
    // Money in JSON as everywhere: a decimal with its raw units beside it (it was raw units only).
    const out = r.json<{ payout: string; payoutRaw: string; usdc: string; usdcRaw: string }>();
    expect(out).toMatchObject({ payout: '5000', payoutRaw: String(5000n * ONE), usdcRaw: String(after) });
    const [whole = '', frac = ''] = out.usdc.split('.');
    expect(BigInt(whole + frac.padEnd(6, '0'))).toBe(after);
    // A second redemption finds nothing left on chain before sending anything: exit 2 (docs/architecture.md §2).
    const again = await runPm(['--json', '--yes', 'redeem-onchain', 'btc-100k-2026'], { env });
    expect(again.code).toBe(2);
    expect(again.stdout).toBe('');
    expect((JSON.parse(again.stderr) as { error: { message: string } }).error.message).toMatch(/nothing to redeem.*nothing was sent/);
    const dry = await runPm(['--yes', 'redeem-onchain', 'btc-100k-2026', '--dry-run'], { env });
    expect(dry.code).toBe(2);
    expect(dry.stderr).toMatch(/error: nothing to redeem/);
    expect(await anvil.usdcBalance(usdc, bob)).toBe(after);
  });

  it("pm balance --chain: the chain's USDC, which matches the exchange's own figures of a fresh sandbox", async () => {
    const s = await chainSandbox();
    const env = envOf(s, 'alice');
    const alice = addr(s, 'alice');
    const usdc = s.info.contracts?.usdc as Hex;
    type B = { source: string; usdc: { heldRaw: string; lockedRaw: string; freeRaw: string } };
    const chain = await runPm(['--json', 'balance', '--chain'], { env });
    expect(chain.code, chain.stderr).toBe(0);
    const onChain = chain.json<B>();
    expect(onChain.source).toBe('chain');
    expect(BigInt(onChain.usdc.heldRaw)).toBe(await anvil.usdcBalance(usdc, alice));
    const exchange = (await runPm(['--json', 'balance'], { env })).json<B>();
    expect(exchange.source).toBe('exchange');
    expect(exchange.usdc).toEqual(onChain.usdc);
    const id = s.info.accounts.find((a) => a.name === 'alice')?.profileId ?? 0;
    expect(BigInt(onChain.usdc.heldRaw)).toBe(s.ctx.state.accounts[String(id)]?.usdc);
  });

  it("alice's seeded winning position on the resolved market redeems for 150 USDC", async () => {
    const s = await chainSandbox();
    const alice = addr(s, 'alice');
    const usdc = s.info.contracts?.usdc as Hex;
    const before = await anvil.usdcBalance(usdc, alice);
    const r = await runPm(['--yes', 'redeem-onchain', 'eth-5k-2025'], { env: envOf(s, 'alice') });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('+150 USDC');
    expect((await anvil.usdcBalance(usdc, alice)) - before).toBe(150n * ONE);
  });
});
