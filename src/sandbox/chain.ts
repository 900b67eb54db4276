// The sandbox's chain side (`pm sandbox start --chain`): a local anvil node from the npm package
// @foundry-rs/anvil (or a running node given by URL), the test contracts deployed on it, the
// seeded accounts funded on chain, and the reads the exchange does before accepting an EOA
// order (USDC allowance for BUY, CTF approval for SELL; exchange and adapter on NegRisk).
// Without a chain none of this is loaded and no order waits on a chain read.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { TestCTF, TestUSDC } from './contracts.js';
import { DEV_ACCOUNTS } from './seed.js';
import { setChain, type ChainHooks, type ChainRedemption } from './chainref.js';
import type { Route, SandboxContext, SandboxState } from './types.js';

/** Dev account 9 of the public mnemonic deploys and owns the test contracts. */
const DEPLOYER_KEY: Hex = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
const MAX = (1n << 256n) - 1n;
const ZERO = '0x0000000000000000000000000000000000000000';

export interface ChainOptions {
  /** Use a running node instead of starting anvil. */
  rpcUrl?: string | undefined;
  /** Chain id of a started anvil (default 8453, like Base). */
  chainId?: number | undefined;
}

export interface ChainInfo {
  rpcUrl: string;
  chainId: number;
  contracts: { usdc: Hex; conditionalTokens: Hex };
}

export interface SandboxChain extends ChainHooks {
  info: ChainInfo;
  /** Admin routes: GET /__sandbox/chain. */
  routes: Route[];
  close(): Promise<void>;
}

/** The anvil binary: the platform package of @foundry-rs/anvil, else `anvil` on PATH. */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const plat = process.platform === 'win32' ? 'win32' : process.platform;
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve(`@foundry-rs/anvil-${plat}-${arch}/package.json`);
    const bin = join(dirname(pkg), 'bin', plat === 'win32' ? 'anvil.exe' : 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // not installed: fall back to PATH
  }
  return 'anvil';
}

/** Starts anvil on a free loopback port; resolves once it listens. */
export function startAnvil(
  o: { chainId?: number | undefined } = {},
): Promise<{ rpcUrl: string; proc: ChildProcess; stop: () => Promise<void> }> {
  const bin = anvilBinary();
  const proc = spawn(bin, ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(o.chainId ?? 8453)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`anvil did not start within 15 s${err ? `: ${err.trim()}` : ''}`));
    }, 15_000);
    proc.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new Error(
          e.code === 'ENOENT'
            ? 'anvil is not installed: npm install @foundry-rs/anvil (or its platform package), put anvil on PATH, or pass --chain-rpc <url> of a running node'
            : `could not start anvil: ${e.message}`,
        ),
      );
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with code ${String(code)}${err ? `: ${err.trim()}` : ''}`));
    });
    proc.stderr?.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-2000);
    });
    proc.stdout?.on('data', (c: Buffer) => {
      if (out === null) return;
      out += c.toString('utf8');
      const m = /Listening on ([\d.]+):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.removeAllListeners('exit');
        out = '';
        // Keep draining its log so the pipe never fills.
        proc.stdout?.removeAllListeners('data');
        proc.stdout?.resume();
        resolve({ rpcUrl: `http://${m[1]}:${m[2]}`, proc, stop });
      }
    });
  });
}

const usdcAbi = TestUSDC.abi;
const ctfAbi = TestCTF.abi;

/** Deploys the contracts on `rpcUrl` and funds the accounts of `state` on chain. */
async function deployAndFund(rpcUrl: string, state: SandboxState): Promise<{ info: ChainInfo; client: PublicClient }> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const chainId = await client.getChainId();
  const chain = defineChain({
    id: chainId,
    name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const wallet = (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport: http(rpcUrl, { retryCount: 0 }) });
  const deployer = wallet(privateKeyToAccount(DEPLOYER_KEY));
  const pending: Hex[] = [];
  const mined = async (hashes: Hex[]): Promise<void> => {
    for (const hash of hashes) {
      const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      if (r.status !== 'success') throw new Error(`chain setup transaction ${hash} reverted`);
    }
  };
  const d1 = await deployer.deployContract({ abi: usdcAbi, bytecode: TestUSDC.bytecode });
  const d2 = await deployer.deployContract({ abi: ctfAbi, bytecode: TestCTF.bytecode });
  const r1 = await client.waitForTransactionReceipt({ hash: d1, pollingInterval: 50 });
  const r2 = await client.waitForTransactionReceipt({ hash: d2, pollingInterval: 50 });
  if (!r1.contractAddress || !r2.contractAddress) throw new Error('contract deployment failed');
  const usdc = r1.contractAddress;
  const ctf = r2.contractAddress;

  // Conditions of every market with positions; resolved ones get their payout.
  const markets = state.markets.filter((m) => m.conditionId && m.positionIds);
  pending.push(
    await deployer.writeContract({
      address: ctf,
      abi: ctfAbi,
      functionName: 'registerConditions',
      args: [
        markets.map((m) => m.conditionId as Hex),
        markets.map((m) => BigInt(m.positionIds?.[0] ?? 0)),
        markets.map((m) => BigInt(m.positionIds?.[1] ?? 0)),
      ],
    }),
  );
  // Each account's USDC and positions as the exchange's ledger has them, plus the payouts of
  // what it redeemed on a chain (position.redeemed onChain: paid to the wallet, not the balance),
  // so a start on stored state loses none of them; the CTF holds the collateral behind the
  // positions (one USDC per complete set).
  const supply = new Map<string, bigint>();
  for (const acct of Object.values(state.accounts)) {
    const profile = state.profiles.find((p) => p.id === acct.profileId);
    if (!profile) continue;
    // USDC sits where the profile trades from: its server wallet when it has one (carol).
    const to = getAddress(profile.serverWalletAddress ?? profile.address);
    let paidOnChain = 0n;
    for (const e of state.ledger?.[String(acct.profileId)] ?? []) if (e.kind === 'redemption' && e.onChain) paidOnChain += e.usdc;
    const wallet = acct.usdc + paidOnChain;
    if (wallet > 0n) pending.push(await deployer.writeContract({ address: usdc, abi: usdcAbi, functionName: 'mint', args: [to, wallet] }));
    const held = Object.entries(acct.positions).filter(([, p]) => p.shares > 0n);
    if (held.length) {
      pending.push(
        await deployer.writeContract({
          address: ctf,
          abi: ctfAbi,
          functionName: 'mintBatch',
          args: [to, held.map(([id]) => BigInt(id)), held.map(([, p]) => p.shares)],
        }),
      );
      for (const [id, p] of held) supply.set(id, (supply.get(id) ?? 0n) + p.shares);
    }
  }
  let collateral = 0n;
  for (const m of markets) {
    const [yes, no] = m.positionIds ?? ['', ''];
    const a = supply.get(yes) ?? 0n;
    const b = supply.get(no) ?? 0n;
    collateral += a > b ? a : b;
  }
  if (collateral > 0n)
    pending.push(await deployer.writeContract({ address: usdc, abi: usdcAbi, functionName: 'mint', args: [ctf, collateral] }));
  for (const m of markets) {
    if (m.winningOutcomeIndex === 0 || m.winningOutcomeIndex === 1) {
      pending.push(
        await deployer.writeContract({
          address: ctf,
          abi: ctfAbi,
          functionName: 'reportPayouts',
          args: [m.conditionId as Hex, m.winningOutcomeIndex === 0 ? [1n, 0n] : [0n, 1n]],
        }),
      );
    }
  }
  // The market maker's approvals are in place, so its seeded resting orders are valid.
  const bob = DEV_ACCOUNTS.find((a) => a.role === 'market_maker');
  if (bob) {
    const w = wallet(privateKeyToAccount(bob.key));
    const venues = new Set<string>();
    const operators = new Set<string>();
    for (const m of state.markets) {
      if (!m.venue) continue;
      venues.add(getAddress(m.venue.exchange));
      operators.add(getAddress(m.venue.exchange));
      if (m.venue.adapter && m.venue.adapter !== ZERO) operators.add(getAddress(m.venue.adapter));
    }
    for (const v of venues)
      pending.push(await w.writeContract({ address: usdc, abi: usdcAbi, functionName: 'approve', args: [v as Hex, MAX] }));
    for (const op of operators)
      pending.push(await w.writeContract({ address: ctf, abi: ctfAbi, functionName: 'setApprovalForAll', args: [op as Hex, true] }));
  }
  await mined(pending);
  return { info: { rpcUrl, chainId, contracts: { usdc, conditionalTokens: ctf } }, client: client as PublicClient };
}

/** A raw JSON-RPC call; null when the node does not know the method (e.g. no evm_snapshot). */
async function rpcCall(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const j = (await res.json()) as { result?: unknown; error?: { code?: number; message?: string } };
  if (j.error) {
    if (j.error.code === -32601 || /not (found|supported|available)|unsupported|does not exist/i.test(j.error.message ?? '')) return null;
    throw new Error(`${method}: ${j.error.message ?? 'error'}`);
  }
  return j.result;
}

/** Gas money a server wallet gets from the deployer when it has less than GAS_FLOOR. */
const GAS_TOPUP = 10n ** 17n; // 0.1 ETH: thousands of approvals on a local chain
const GAS_FLOOR = 10n ** 16n;

/**
 * Starts (or connects to) the chain for a sandbox and attaches it to `ctx`. `seeded`: the
 * sandbox's state is the fresh seed (not a stored state), so the chain as deployed is the
 * chain a reset returns to.
 */
export async function attachChain(ctx: SandboxContext, o: ChainOptions & { seeded?: boolean }): Promise<SandboxChain> {
  const node = o.rpcUrl ? null : await startAnvil({ chainId: o.chainId });
  const rpcUrl = o.rpcUrl ?? node?.rpcUrl ?? '';
  // The reset point: a snapshot of the chain as the seed has it. Taken after deployment when the
  // state is the seed; otherwise before it (a reset then reverts and deploys for the seed).
  // Null when the node has no evm_snapshot: a reset then deploys afresh (new addresses).
  let snapshot: { id: string; deployed: boolean } | null = null;
  let deployed;
  try {
    if (!o.seeded) {
      const id = await rpcCall(rpcUrl, 'evm_snapshot', []);
      if (typeof id === 'string') snapshot = { id, deployed: false };
    }
    deployed = await deployAndFund(rpcUrl, ctx.state);
    if (o.seeded) {
      const id = await rpcCall(rpcUrl, 'evm_snapshot', []);
      if (typeof id === 'string') snapshot = { id, deployed: true };
    }
  } catch (e) {
    await node?.stop();
    throw new Error(`chain setup on ${rpcUrl} failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { cause: e });
  }
  const { info, client } = deployed;
  const contracts = info.contracts; // updated in place if a reset has to redeploy
  const chainDef = defineChain({
    id: info.chainId,
    name: `local-${info.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const walletOf = (key: Hex) =>
    createWalletClient({ account: privateKeyToAccount(key), chain: chainDef, transport: http(rpcUrl, { retryCount: 0 }) });
  const deployer = walletOf(DEPLOYER_KEY);
  // The deployer's transactions go one at a time, so two of them never take the same nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const mined = async (hash: Hex, what: string): Promise<void> => {
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 });
    if (r.status !== 'success') throw new Error(`${what} reverted (${hash})`);
  };
  /** One transaction of the deployer (the contracts' owner), in its turn; resolves once mined. */
  const asOwner = (what: string, send: () => Promise<Hex>): Promise<void> => serial(async () => mined(await send(), what));
  // The first block not yet read for redemptions; back to 0 when the chain goes back (a reset).
  let redeemedFrom = 0n;
  const fundGas = (to: Hex): Promise<void> =>
    serial(async () => {
      if ((await client.getBalance({ address: to })) >= GAS_FLOOR) return;
      await mined(await deployer.sendTransaction({ to, value: GAS_TOPUP }), `gas for ${to}`);
    });
  const chain: SandboxChain = {
    info,
    contracts,
    routes: [{ method: 'GET', pattern: '/__sandbox/chain', auth: { kind: 'public' }, handler: () => ({ status: 200, body: info }) }],
    async orderRefusal({ owner: who, market, buy, makerAmount }) {
      const owner = getAddress(who);
      const venue = market.venue;
      if (!venue) return null;
      if (buy) {
        const allowance = await client.readContract({
          address: contracts.usdc,
          abi: usdcAbi,
          functionName: 'allowance',
          args: [owner, getAddress(venue.exchange)],
        });
        return allowance < makerAmount ? 'Insufficient collateral allowance' : null;
      }
      const operators = [venue.exchange, ...(venue.adapter && venue.adapter !== ZERO ? [venue.adapter] : [])];
      for (const op of operators) {
        const ok = await client.readContract({
          address: contracts.conditionalTokens,
          abi: ctfAbi,
          functionName: 'isApprovedForAll',
          args: [owner, getAddress(op)],
        });
        if (!ok) return 'Insufficient conditional token allowance';
      }
      return null;
    },
    async postPayout(market, winner) {
      if (!market.conditionId) return;
      const conditionId = market.conditionId as Hex;
      await asOwner(`reportPayouts for ${market.slug}`, () =>
        deployer.writeContract({
          address: contracts.conditionalTokens,
          abi: ctfAbi,
          functionName: 'reportPayouts',
          args: [conditionId, winner === 0 ? [1n, 0n] : [0n, 1n]],
        }),
      );
    },
    async submitTarget(key, target) {
      const w = walletOf(key);
      const from = w.account.address;
      await fundGas(from);
      const nonce = await client.getTransactionCount({ address: from, blockTag: 'pending' });
      const spender = getAddress(target.spenderOrOperator);
      return target.type === 'USDC_ALLOWANCE'
        ? w.writeContract({ address: contracts.usdc, abi: usdcAbi, functionName: 'approve', args: [spender, MAX], nonce })
        : w.writeContract({
            address: contracts.conditionalTokens,
            abi: ctfAbi,
            functionName: 'setApprovalForAll',
            args: [spender, true],
            nonce,
          });
    },
    async withdraw(key, to, amount) {
      const w = walletOf(key);
      const from = w.account.address;
      const have = await client.readContract({ address: contracts.usdc, abi: usdcAbi, functionName: 'balanceOf', args: [from] });
      if (have < amount)
        await asOwner(`USDC top-up of ${from}`, () =>
          deployer.writeContract({ address: contracts.usdc, abi: usdcAbi, functionName: 'mint', args: [from, amount - have] }),
        );
      await fundGas(from);
      const nonce = await client.getTransactionCount({ address: from, blockTag: 'pending' });
      const hash = await w.writeContract({
        address: contracts.usdc,
        abi: usdcAbi,
        functionName: 'transfer',
        args: [getAddress(to), amount],
        nonce,
      });
      await mined(hash, `withdrawal from ${from}`);
      return hash;
    },
    async readTargets(who, targets) {
      const owner = getAddress(who);
      return Promise.all(
        targets.map(async (t) => {
          const spender = getAddress(t.spenderOrOperator);
          const approved =
            t.type === 'USDC_ALLOWANCE'
              ? (await client.readContract({ address: contracts.usdc, abi: usdcAbi, functionName: 'allowance', args: [owner, spender] })) >
                0n
              : await client.readContract({
                  address: contracts.conditionalTokens,
                  abi: ctfAbi,
                  functionName: 'isApprovedForAll',
                  args: [owner, spender],
                });
          let receipt: 'success' | 'reverted' | null = null;
          if (t.txHash && /^0x[0-9a-fA-F]{64}$/.test(t.txHash)) {
            const r = await client.getTransactionReceipt({ hash: t.txHash as Hex }).catch((e: unknown) => {
              if (e instanceof Error && e.name === 'TransactionReceiptNotFoundError') return null;
              throw e;
            });
            receipt = r ? r.status : null;
          }
          return { approved, receipt };
        }),
      );
    },
    async redemptions() {
      // Not from viem's cache (4 s by default): a redemption mined since the last read would be missed.
      const latest = await client.getBlockNumber({ cacheTime: 0 });
      if (latest + 1n < redeemedFrom) redeemedFrom = 0n; // reverted below what was read
      if (redeemedFrom > latest) return [];
      const range = { address: contracts.conditionalTokens, abi: ctfAbi, fromBlock: redeemedFrom, toBlock: latest } as const;
      const [payouts, burnt] = await Promise.all([
        client.getContractEvents({ ...range, eventName: 'PayoutRedemption' }),
        client.getContractEvents({ ...range, eventName: 'TransferSingle', args: { to: ZERO } }),
      ]);
      redeemedFrom = latest + 1n;
      const out: ChainRedemption[] = [];
      for (const p of payouts) {
        const { redeemer, conditionId } = p.args;
        if (!redeemer || !conditionId || !p.transactionHash) continue;
        const burns = burnt
          .filter((b) => b.transactionHash === p.transactionHash && b.args.from?.toLowerCase() === redeemer.toLowerCase())
          .map((b) => ({ tokenId: String(b.args.id ?? 0n), shares: b.args.value ?? 0n }));
        out.push({ txHash: p.transactionHash, redeemer: getAddress(redeemer), conditionId, burns });
      }
      return out;
    },
    async burnRedeemed(holder, burns) {
      const held = burns.filter((b) => b.shares > 0n);
      if (held.length === 0) return;
      await asOwner(`burnRedeemed for ${holder}`, () =>
        deployer.writeContract({
          address: contracts.conditionalTokens,
          abi: ctfAbi,
          functionName: 'burnRedeemed',
          args: [getAddress(holder), held.map((b) => BigInt(b.tokenId)), held.map((b) => b.shares)],
        }),
      );
    },
    async reset(state) {
      redeemedFrom = 0n;
      await serial(async () => {
        if (snapshot) {
          const ok = await rpcCall(rpcUrl, 'evm_revert', [snapshot.id]);
          if (ok !== true) throw new Error(`evm_revert to snapshot ${snapshot.id} failed on ${rpcUrl}`);
          // A reverted snapshot is used up: take the next one at the same point.
          if (snapshot.deployed) {
            snapshot = { id: String(await rpcCall(rpcUrl, 'evm_snapshot', [])), deployed: true };
            return;
          }
        }
        // Deploy for the seed. After a revert to before the first deployment the deployer's nonce
        // is what it was, so the addresses come out the same; without snapshots they are new.
        const again = await deployAndFund(rpcUrl, state);
        Object.assign(contracts, again.info.contracts);
        if (snapshot) snapshot = { id: String(await rpcCall(rpcUrl, 'evm_snapshot', [])), deployed: true };
      });
    },
    async close() {
      setChain(ctx, null);
      await node?.stop();
    },
  };
  setChain(ctx, chain);
  return chain;
}
