// With a chain (--chain), against one real anvil for the whole file: the allowance targets of
// server-wallet children are real transactions from the child's wallet (submitted carries the
// hash, confirmed follows the receipt, GET agrees with raw viem reads of the chain), and a
// sandbox reset resets the chain too.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWalletClient, defineChain, getAddress, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { TestCTF, TestUSDC } from '../../src/sandbox/contracts.js';
import { useAnvil } from '../helpers/anvil.js';
import { eventually } from '../helpers/eventually.js';
import { eventsOf, logMark } from '../helpers/fault-proxy.js';
import { delegatedBuyBody } from '../helpers/orders.js';
import { rpcHoldProxy } from '../helpers/rpc-hold-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';

const anvil = useAnvil();
const MAX = (1n << 256n) - 1n;
const ONE = 1_000_000n;

let sb: SandboxHandle | undefined;
const homes: (() => void)[] = [];
const proxies: (() => Promise<void>)[] = [];
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  for (const c of homes.splice(0)) c();
  for (const c of proxies.splice(0)) await c();
});

function home(): string {
  const h = tempHome();
  homes.push(h.cleanup);
  return h.home;
}

type Tok = { tokenId: string; secret: string };
interface Target {
  type: 'USDC_ALLOWANCE' | 'CTF_APPROVAL';
  tokenAddress: Hex;
  spenderOrOperator: Hex;
  label: string;
  status: string;
  confirmed: boolean;
  txHash?: Hex;
  errorCode?: string;
}
interface View {
  ready: boolean;
  walletAddress: Hex;
  summary: Record<string, number>;
  targets: Target[];
}

/** An HMAC-signed request as the exchange's clients send it (node:crypto, not pm's code). */
async function call(
  s: SandboxHandle,
  method: string,
  target: string,
  token: Tok,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = body === undefined ? '' : JSON.stringify(body);
  const ts = new Date().toISOString();
  const headers: Record<string, string> = {
    'lmts-api-key': token.tokenId,
    'lmts-timestamp': ts,
    'lmts-signature': createHmac('sha256', Buffer.from(token.secret, 'base64'))
      .update(`${ts}\n${method}\n${target}\n${text}`)
      .digest('base64'),
    ...(text ? { 'content-type': 'application/json' } : {}),
  };
  const res = await fetch(`${s.baseUrl}${target}`, { method, headers, ...(text ? { body: text } : {}) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const partnerTok = (s: SandboxHandle): Tok => {
  const a = s.info.accounts.find((x) => x.name === 'partner');
  if (!a) throw new Error('no partner');
  return a.token;
};
const admin = (s: SandboxHandle, path: string, body: unknown) =>
  fetch(`${s.baseUrl}/__sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** No per-token pacing and no retry lock delay: these tests are about the chain. */
async function quiet(s: SandboxHandle, sim: Record<string, number> = {}): Promise<void> {
  expect((await admin(s, 'faults', { rateLimit: false })).status).toBe(200);
  expect((await admin(s, 'allowances', { lockMs: 0, retryMax: 50, ...sim })).status).toBe(200);
}
const view = async (s: SandboxHandle, id: number): Promise<View> => {
  const r = await call(s, 'GET', `/profiles/partner-accounts/${id}/allowances`, partnerTok(s));
  expect(r.status).toBe(200);
  return r.json as unknown as View;
};

/** What the chain says of one target, read with raw viem. */
async function onChain(s: SandboxHandle, owner: Hex, t: Target): Promise<boolean> {
  const c = s.info.contracts as { usdc: Hex; conditionalTokens: Hex };
  if (t.type === 'USDC_ALLOWANCE') {
    expect(getAddress(t.tokenAddress)).toBe(getAddress(c.usdc));
    const a = await anvil.usdcAllowance(c.usdc, owner, t.spenderOrOperator);
    expect([0n, MAX]).toContain(a);
    return a === MAX;
  }
  expect(getAddress(t.tokenAddress)).toBe(getAddress(c.conditionalTokens));
  return anvil.ctfApproved(c.conditionalTokens, owner, t.spenderOrOperator);
}

/** GET …/allowances agrees with the chain: confirmed exactly where the approval is in place. */
async function agreesWithChain(s: SandboxHandle, v: View): Promise<void> {
  const truth = await Promise.all(v.targets.map((t) => onChain(s, v.walletAddress, t)));
  expect(v.targets.map((t) => [t.label, t.confirmed])).toEqual(v.targets.map((t, i) => [t.label, truth[i]]));
}

async function serverChild(s: SandboxHandle, name: string): Promise<{ profileId: number; account: Hex }> {
  const r = await call(s, 'POST', '/profiles/partner-accounts', partnerTok(s), { displayName: name, createServerWallet: true });
  expect(r.status).toBe(201);
  return r.json as { profileId: number; account: Hex };
}

describe('server-wallet allowance targets on a real chain', () => {
  it('a retry sends real transactions from the child wallet; confirmed follows the receipt; GET agrees with the chain', async () => {
    const s = (sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 3_600_000 }));
    await quiet(s);
    const child = await serverChild(s, 'onchain-1');
    const before = await view(s, child.profileId);
    expect(before.summary).toEqual({ total: 5, confirmed: 0, missing: 5, submitted: 0, failed: 0 });
    await agreesWithChain(s, before);

    // A delegated BUY waits for the confirmed USDC allowance.
    expect((await admin(s, 'fund', { profileId: child.profileId, amount: '50000000' })).status).toBe(200);
    const yes = s.ctx.state.markets.find((m) => m.slug === 'btc-100k-2026')?.positionIds?.[0] ?? '';
    const ZERO = '0x0000000000000000000000000000000000000000';
    const order = delegatedBuyBody(child.profileId, yes, 'btc-100k-2026', 7);
    const early = await call(s, 'POST', '/orders', partnerTok(s), order);
    expect(early.status).toBe(400);
    expect(early.json['message']).toMatch(/usdc:ctf-exchange missing/);

    const r = await call(s, 'POST', `/profiles/partner-accounts/${child.profileId}/allowances/retry`, partnerTok(s), {});
    expect(r.status).toBe(200);
    const sent = r.json as unknown as View;
    expect(sent.summary).toMatchObject({ submitted: 5, confirmed: 0 });
    const c = s.info.contracts as { usdc: Hex; conditionalTokens: Hex };
    for (const t of sent.targets) {
      expect(t.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      const receipt = await anvil.client.getTransactionReceipt({ hash: t.txHash as Hex });
      expect(receipt.status).toBe('success');
      expect(getAddress(receipt.from)).toBe(getAddress(child.account));
      expect(getAddress(receipt.to ?? ZERO)).toBe(getAddress(t.type === 'USDC_ALLOWANCE' ? c.usdc : c.conditionalTokens));
    }
    const after = await view(s, child.profileId);
    expect(after).toMatchObject({ ready: true, summary: { total: 5, confirmed: 5 } });
    expect(after.targets.map((t) => t.txHash)).toEqual(sent.targets.map((t) => t.txHash));
    await agreesWithChain(s, after);
    expect((await call(s, 'POST', '/orders', partnerTok(s), order)).status).toBe(201);

    // The wallet revokes one approval on chain: the exchange's view follows.
    const key = s.ctx.state.profiles.find((p) => p.id === child.profileId)?.privateKey as Hex;
    const chain = defineChain({
      id: 31337,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const w = createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(anvil.rpcUrl) });
    const adapter = sent.targets.find((t) => t.label === 'ctf:negrisk-adapter')?.spenderOrOperator as Hex;
    await anvil.client.waitForTransactionReceipt({
      hash: await w.writeContract({
        address: c.conditionalTokens,
        abi: TestCTF.abi,
        functionName: 'setApprovalForAll',
        args: [adapter, false],
      }),
    });
    const revoked = await view(s, child.profileId);
    expect(revoked.targets.find((t) => t.label === 'ctf:negrisk-adapter')).toMatchObject({ status: 'missing', confirmed: false });
    expect(revoked.ready).toBe(false);
    await agreesWithChain(s, revoked);
  });

  it('reads during a submission never confirm a target without its transaction, nor take a confirmed one back', async () => {
    const s = (sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 3_600_000 }));
    await quiet(s);
    const child = await serverChild(s, 'race-1');
    // Readers poll the view while the retry submits the five transactions one by one (each mined
    // at once): a read between two of them finds the first approvals on chain.
    let done = false;
    const views: View[] = [];
    const reader = async (): Promise<void> => {
      while (!done) views.push(await view(s, child.profileId));
    };
    const readers = [reader(), reader(), reader()];
    const r = await call(s, 'POST', `/profiles/partner-accounts/${child.profileId}/allowances/retry`, partnerTok(s), {});
    expect(r.status).toBe(200);
    await eventually(async () => (await view(s, child.profileId)).ready);
    done = true;
    await Promise.all(readers);
    views.push(await view(s, child.profileId));
    expect(views.length).toBeGreaterThan(3);
    const seen = new Map<string, string[]>();
    for (const v of views)
      for (const t of v.targets) {
        if (t.confirmed) expect(t.txHash ?? '', `${t.label} confirmed without its transaction`).toMatch(/^0x[0-9a-f]{64}$/);
        seen.set(t.label, [...(seen.get(t.label) ?? []), t.status]);
      }
    for (const [label, statuses] of seen) {
      const first = statuses.indexOf('confirmed');
      expect(first, label).toBeGreaterThanOrEqual(0);
      expect(
        statuses.slice(first).every((x) => x === 'confirmed'),
        `${label}: ${statuses.join(' ')}`,
      ).toBe(true);
    }
  });

  it('stays submitted while the transaction is not mined, and confirms once it is', async () => {
    const s = (sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 3_600_000 }));
    await quiet(s);
    const child = await serverChild(s, 'onchain-2');
    await anvil.rpc('anvil_setBalance', [child.account, '0xde0b6b3a7640000']); // gas of its own: nothing to mine first
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const r = await call(s, 'POST', `/profiles/partner-accounts/${child.profileId}/allowances/retry`, partnerTok(s), {});
      expect((r.json as unknown as View).summary).toMatchObject({ submitted: 5 });
      const pending = await view(s, child.profileId);
      expect(pending.summary).toMatchObject({ submitted: 5, confirmed: 0 });
      expect(pending.targets.every((t) => /^0x[0-9a-f]{64}$/.test(t.txHash ?? ''))).toBe(true);
      await agreesWithChain(s, pending); // nothing is approved yet, nothing is confirmed
      await anvil.rpc('evm_mine', []);
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
    const mined = await view(s, child.profileId);
    expect(mined).toMatchObject({ ready: true, summary: { confirmed: 5, submitted: 0 } });
    await agreesWithChain(s, mined);
  });

  it('a chain read that the block overtakes (approval read before it, receipt after) confirms the target, never takes it to missing', async () => {
    const proxy = await rpcHoldProxy(anvil.rpcUrl);
    proxies.push(proxy.close);
    const s = (sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: proxy.url }, provisionDelayMs: 3_600_000 }));
    await quiet(s);
    const child = await serverChild(s, 'straddle-1');
    await anvil.rpc('anvil_setBalance', [child.account, '0xde0b6b3a7640000']);
    const mark = logMark(s);
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const r = await call(s, 'POST', `/profiles/partner-accounts/${child.profileId}/allowances/retry`, partnerTok(s), {});
      expect((r.json as unknown as View).summary).toMatchObject({ submitted: 5 });
      // The watcher's next read asks for the five receipts: they reach the chain only once the
      // block with the five approvals is mined, whatever that read asked before them.
      proxy.hold('eth_getTransactionReceipt');
      await eventually(() => proxy.held >= 5, { what: 'the receipt reads of one watcher read held' });
      await anvil.rpc('evm_mine', []);
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
      proxy.release();
    }
    const ready = await eventually(async () => {
      const v = await view(s, child.profileId);
      return v.ready && v;
    });
    await agreesWithChain(s, ready);
    // What the sandbox committed from the retry on: each target submitted, then confirmed.
    const seen = new Map<string, string[]>();
    for (const e of eventsOf(s, 'allowances', (x) => x.profileId === child.profileId, mark))
      for (const t of e.targets) {
        const was = seen.get(t.label) ?? [];
        if (was.at(-1) !== t.status) seen.set(t.label, [...was, t.status]);
      }
    expect([...seen.values()]).toEqual(ready.targets.map(() => ['submitted', 'confirmed']));
  });

  it('without a chain the timers stay: a random hash, confirmed after confirmAfterMs', async () => {
    // The sandbox's clock stands still until the test moves it: the view read after the retry
    // finds the targets submitted however slowly this machine runs the two requests.
    let clock = Date.now();
    const s = (sb = await startSandbox({ port: 0, dataDir: null, now: () => clock }));
    await quiet(s, { confirmAfterMs: 1000 });
    const child = await serverChild(s, 'sim-1');
    const r = (await call(s, 'POST', `/profiles/partner-accounts/${child.profileId}/allowances/retry`, partnerTok(s), {}))
      .json as unknown as View;
    expect(r.summary).toMatchObject({ submitted: 5 });
    expect((await view(s, child.profileId)).summary).toMatchObject({ submitted: 5, confirmed: 0 });
    clock += 999;
    expect((await view(s, child.profileId)).summary).toMatchObject({ submitted: 5, confirmed: 0 });
    clock += 1;
    const v = await eventually(async () => {
      const w = await view(s, child.profileId);
      return w.ready && w;
    });
    expect(v.targets[0]?.tokenAddress).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
  });
});

describe('sandbox reset with a chain', () => {
  const envOf = (s: SandboxHandle, h: string): Record<string, string> => {
    const a = s.info.accounts.find((x) => x.name === 'alice');
    if (!a) throw new Error('no alice');
    return {
      PM_HOME: h,
      PM_BASE_URL: s.baseUrl,
      PM_TOKEN_ID: a.token.tokenId,
      PM_TOKEN_SECRET: a.token.secret,
      PM_PRIVATE_KEY: a.privateKey,
      PM_PACE: 'off',
    };
  };
  const missing = async (env: Record<string, string>): Promise<number> => {
    const r = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env });
    const n = r.json<{ missing: number }>().missing;
    expect(r.code, r.stderr).toBe(n > 0 ? 8 : 0);
    return n;
  };

  it('pm sandbox reset undoes the approvals and transfers on chain', async () => {
    const h = home();
    const s = (sb = await startSandbox({ port: 0, dataDir: join(h, 'sandbox'), chain: { rpcUrl: anvil.rpcUrl } }));
    const env = envOf(s, h);
    const alice = s.info.accounts.find((x) => x.name === 'alice')?.address as Hex;
    const usdc = s.info.contracts?.usdc as Hex;
    expect(await missing(env)).toBe(2);
    expect((await runPm(['--yes', 'approve', 'set', 'btc-100k-2026'], { env })).code).toBe(0);
    expect(await missing(env)).toBe(0);
    const eth5k = await runPm(['--yes', 'redeem-onchain', 'eth-5k-2025'], { env });
    expect(eth5k.code).toBe(0);
    expect(await anvil.usdcBalance(usdc, alice)).toBe(10_150n * ONE);

    const reset = await runPm(['--json', '--yes', 'sandbox', 'reset'], { env });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.json()).toMatchObject({ reset: true, running: true });
    expect(await missing(env)).toBe(2);
    expect(await anvil.usdcBalance(usdc, alice)).toBe(10_000n * ONE);
    // The chain works on after the reset, and a second reset goes back again.
    expect((await runPm(['--yes', 'approve', 'set', 'btc-100k-2026', '--side', 'buy'], { env })).code).toBe(0);
    expect(await missing(env)).toBe(1);
    expect((await admin(s, 'reset', {})).status).toBe(200);
    expect(await missing(env)).toBe(2);
  });

  it('a server wallet provisioned before a stop is provisioned again by itself on the new deployment after a start', async () => {
    const h = home();
    const dir = join(h, 'sandbox');
    const first = await startSandbox({ port: 0, dataDir: dir, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 50 });
    first.faults.rateLimit = false;
    const created = await call(first, 'POST', '/profiles/partner-accounts', partnerTok(first), { createServerWallet: true });
    expect(created.status).toBe(201);
    const path = `/profiles/partner-accounts/${String(created.json['profileId'])}/allowances`;
    const before = await eventually(async () => {
      const v = (await call(first, 'GET', path, partnerTok(first))).json as unknown as View;
      return v.ready ? v : null;
    });
    await first.close();

    // Every start with a chain deploys the contracts afresh: the wallet's approvals are not on
    // the new deployment, and the sandbox submits them again without a retry, as for a new wallet.
    const s = (sb = await startSandbox({ port: 0, dataDir: dir, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 50 }));
    s.faults.rateLimit = false;
    const after = await eventually(
      async () => {
        const v = (await call(s, 'GET', path, partnerTok(s))).json as unknown as View;
        return v.ready ? v : null;
      },
      { what: 'the server wallet provisioned again after the start' },
    );
    expect(after.targets.map((t) => t.tokenAddress.toLowerCase())).toContain(String(s.info.contracts?.usdc).toLowerCase());
    const hashes = new Set(before.targets.map((t) => t.txHash));
    expect(after.targets.every((t) => t.txHash !== undefined && !hashes.has(t.txHash))).toBe(true);
    expect(s.ctx.state.allowances?.[String(created.json['profileId'])]?.every((t) => t.status === 'confirmed')).toBe(true);
  });

  it('a sandbox started on stored state resets to the seed on chain, at the same contract addresses', async () => {
    const h = home();
    const dir = join(h, 'sandbox');
    const first = await startSandbox({ port: 0, dataDir: dir });
    const alice = first.info.accounts.find((x) => x.name === 'alice');
    expect((await admin(first, 'fund', { profileId: alice?.profileId, amount: String(500n * ONE) })).status).toBe(200);
    await first.close();

    const s = (sb = await startSandbox({ port: 0, dataDir: dir, chain: { rpcUrl: anvil.rpcUrl } }));
    const c = { ...(s.info.contracts as { usdc: Hex; conditionalTokens: Hex }) };
    expect(await anvil.usdcBalance(c.usdc, alice?.address as Hex)).toBe(10_500n * ONE); // the stored ledger
    const env = envOf(s, h);
    expect((await runPm(['--yes', 'approve', 'set', 'btc-100k-2026'], { env })).code).toBe(0);
    expect(await missing(env)).toBe(0);

    expect((await admin(s, 'reset', {})).status).toBe(200);
    expect(s.info.contracts).toEqual(c);
    expect(await anvil.usdcBalance(c.usdc, alice?.address as Hex)).toBe(10_000n * ONE); // the seed
    expect(
      await anvil.usdcAllowance(
        c.usdc,
        alice?.address as Hex,
        s.ctx.state.markets.find((m) => m.slug === 'btc-100k-2026')?.venue?.exchange as Hex,
      ),
    ).toBe(0n);
    expect(await missing(env)).toBe(2);
    expect(
      await anvil.client.readContract({
        address: c.usdc,
        abi: TestUSDC.abi,
        functionName: 'balanceOf',
        args: [s.info.accounts.find((x) => x.name === 'bob')?.address as Hex],
      }),
    ).toBe(1_000_000n * ONE);
  });
});
