// One position, wherever it is redeemed (`--chain`, a real anvil): alice's 150 winning YES of
// eth-5k-2025 pay out once. Redeemed on the chain (pm redeem-onchain), they are gone for the
// exchange (pm redeem: 409, exit 5); redeemed through the exchange (pm redeem), they are burnt on
// the chain (pm redeem-onchain finds nothing). Balances on both sides move exactly once. After
// these flows (and a server wallet provisioned on the chain), the state directory holds no key.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { accountEnv } from '../helpers/account-env.js';
import { useAnvil } from '../helpers/anvil.js';
import { runPm, tempHome } from '../helpers/run.js';
import { signedFetch } from '../helpers/signed.js';

const anvil = useAnvil();
const { home, cleanup } = tempHome();
const dirs: string[] = [];
afterAll(() => {
  cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const ONE = 1_000_000n;
const SLUG = 'eth-5k-2025';

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const envOf = (s: SandboxHandle, name: string) => accountEnv(s, name, home, { PM_PACE: 'off' });

/** What alice holds of eth-5k-2025, on the chain and on the exchange. */
async function holdings(s: SandboxHandle) {
  const alice = s.info.accounts.find((x) => x.name === 'alice');
  const m = s.ctx.state.markets.find((x) => x.slug === SLUG);
  const yes = m?.positionIds?.[0] ?? '';
  const c = s.info.contracts as { usdc: Hex; conditionalTokens: Hex };
  const acct = s.ctx.state.accounts[String(alice?.profileId)];
  return {
    chainUsdc: await anvil.usdcBalance(c.usdc, alice?.address as Hex),
    chainYes: await anvil.ctfBalance(c.conditionalTokens, alice?.address as Hex, BigInt(yes)),
    exchangeUsdc: acct?.usdc ?? 0n,
    exchangeYes: acct?.positions[yes]?.shares ?? 0n,
  };
}

const refusal = (r: { code: number; stdout: string; stderr: string }) => {
  if (r.code === 0) throw new Error(`expected a refusal, got exit 0: ${r.stdout}`);
  return { ...(JSON.parse(r.stderr) as { error: { status?: number; message: string } }).error, exit: r.code };
};

/** What a server-wallet account (carol) holds of eth-5k-2025's YES on the chain, in its server wallet. */
async function serverWalletYes(s: SandboxHandle): Promise<bigint> {
  const carol = s.ctx.state.profiles.find((p) => p.name === 'carol');
  const m = s.ctx.state.markets.find((x) => x.slug === SLUG);
  const c = s.info.contracts as { conditionalTokens: Hex };
  return anvil.ctfBalance(c.conditionalTokens, carol?.serverWalletAddress as Hex, BigInt(m?.positionIds?.[0] ?? ''));
}

describe('one position, wherever it is redeemed', () => {
  it('redeem-onchain, then redeem through the exchange: the second is refused (409, exit 5), nothing moves; no key on disk', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pm-redeem-once-'));
    dirs.push(root);
    const dir = join(root, 'sandbox');
    const s = (sb = await startSandbox({ port: 0, dataDir: dir, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 50 }));
    s.faults.rateLimit = false;
    const env = envOf(s, 'alice');
    const h0 = await holdings(s);
    expect(h0.chainYes).toBe(150n * ONE);
    expect(h0.exchangeYes).toBe(150n * ONE);

    // A look at the positions first: the sandbox reads the chain's block number then, and must
    // read it again (not from a cache of its chain client) when the redemption comes.
    expect((await runPm(['--json', 'portfolio', 'positions'], { env })).code).toBe(0);
    const first = await runPm(['--json', '--yes', 'redeem-onchain', SLUG], { env });
    expect(first.code, first.stderr).toBe(0);
    const h1 = await holdings(s);
    expect(h1.chainUsdc - h0.chainUsdc).toBe(150n * ONE); // paid on the chain
    expect(h1.chainYes).toBe(0n);

    const second = await runPm(['--json', 'redeem', SLUG], { env });
    expect(refusal(second)).toMatchObject({ exit: 5, status: 409, message: expect.stringMatching(/Already redeemed on chain/) });
    const h2 = await holdings(s);
    expect(h2).toEqual({ ...h1, exchangeYes: 0n }); // the shares left the exchange's record too
    expect(h2.exchangeUsdc).toBe(h0.exchangeUsdc); // and nothing was paid there
    const positions = await runPm(['--json', 'portfolio', 'positions'], { env });
    // The exchange's view: no shares left, nothing redeemable, the payout booked as realised PnL.
    const eth = positions.json<{ positions: Record<string, unknown>[] }>().positions.find((p) => p['market'] === SLUG);
    expect(eth).toMatchObject({ sharesRaw: '0', redeemable: false, realisedPnlRaw: String(90n * ONE) });

    // A restart reads the mirrored redemption back: still refused.
    await s.close();
    const again = (sb = await startSandbox({ port: 0, dataDir: dir, chain: { rpcUrl: anvil.rpcUrl }, provisionDelayMs: 50 }));
    again.faults.rateLimit = false;
    const third = await runPm(['--json', 'redeem', SLUG], { env: envOf(again, 'alice') });
    expect(refusal(third)).toMatchObject({ exit: 5, status: 409 });
    // The chain is deployed again from the ledger: the payout redeemed on the chain is still in
    // alice's wallet there (not lost with the old deployment), and no share came back to claim.
    expect(await holdings(again)).toEqual(h2);

    // More chain flows: a server wallet provisioned on the chain (real transactions from its key),
    // a derived token; then no key or secret the sandbox handed out is in the state files.
    const tok = again.info.accounts.find((a) => a.name === 'partner')?.token as { tokenId: string; secret: string };
    const created = await signedFetch(again.baseUrl, tok, 'POST', '/profiles/partner-accounts', { createServerWallet: true });
    const id = Number(created.json['profileId']);
    const deadline = Date.now() + 30_000;
    while (!again.ctx.state.allowances?.[String(id)]?.every((t) => t.status === 'confirmed')) {
      if (Date.now() > deadline) throw new Error(`not provisioned: ${JSON.stringify(again.ctx.state.allowances?.[String(id)])}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const txs = again.ctx.state.allowances?.[String(id)]?.map((t) => t.txHash) ?? [];
    expect(txs.every((h) => /^0x[0-9a-f]{64}$/.test(h ?? ''))).toBe(true);
    const derived = await fetch(`${again.baseUrl}/auth/api-tokens/derive`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', identity: 'Bearer idt_sandbox_alice' },
      body: '{}',
    });
    const secret = ((await derived.json()) as { secret: string }).secret;
    await again.snapshot();
    const state = again.ctx.state;
    const secrets = [
      ...state.profiles.flatMap((p) => (p.privateKey ? [p.privateKey.slice(2)] : [])),
      ...state.tokens.map((t) => t.secret),
      ...state.apiKeys.map((k) => k.key),
      ...state.identityTokens.map((k) => k.token),
      secret,
      state.serverKey ?? 'no server key',
    ];
    expect(state.profiles.find((p) => p.id === id)?.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
    for (const f of readdirSync(dir).filter((x) => x !== 'server.key' && x !== 'lock.sock')) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const x of secrets) expect(text.includes(x), `${f} holds a secret`).toBe(false);
    }
  });

  it("a server-wallet account: redeem-onchain names pm redeem; redeeming through the exchange burns the server wallet's shares", async () => {
    const s = (sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl } }));
    s.faults.rateLimit = false;
    const env = envOf(s, 'carol');
    const yes0 = await serverWalletYes(s);
    expect(yes0).toBeGreaterThan(0n);
    // Its shares are in the server wallet the exchange manages: pm redeem is the way, said before sending.
    const onChain = await runPm(['--json', '--yes', 'redeem-onchain', SLUG], { env });
    expect(onChain.code, onChain.stderr).toBe(2);
    const e = JSON.parse(onChain.stderr) as { error: { message: string; hint?: string } };
    expect(e.error.hint).toMatch(new RegExp(`server wallet.*pm redeem ${SLUG}`));
    expect(await serverWalletYes(s)).toBe(yes0);
    // Through the exchange: paid once, and the same shares leave the chain.
    const r = await runPm(['--json', 'redeem', SLUG], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(await serverWalletYes(s)).toBe(0n);
  });

  it('redeem through the exchange, then redeem-onchain: the shares are burnt on the chain, nothing is paid twice', async () => {
    const s = (sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl } }));
    s.faults.rateLimit = false;
    const env = envOf(s, 'alice');
    const h0 = await holdings(s);
    const first = await runPm(['--json', 'redeem', SLUG], { env });
    expect(first.code, first.stderr).toBe(0);
    const h1 = await holdings(s);
    expect(h1.exchangeUsdc - h0.exchangeUsdc).toBe(150n * ONE); // paid on the exchange
    expect(h1.exchangeYes).toBe(0n);
    expect(h1.chainYes).toBe(0n); // burnt on the chain
    expect(h1.chainUsdc).toBe(h0.chainUsdc);

    // Nothing left on the chain: found before anything is sent (exit 2).
    const second = await runPm(['--json', '--yes', 'redeem-onchain', SLUG], { env });
    expect(second.code, second.stderr).toBe(2);
    expect(refusal(second).message).toMatch(/nothing to redeem/);
    expect(await holdings(s)).toEqual(h1);
    // And the exchange still says it was paid once.
    const third = await runPm(['--json', 'redeem', SLUG], { env });
    expect(refusal(third)).toMatchObject({ exit: 5, status: 409 });
    expect(await holdings(s)).toEqual(h1);
  });
});
