// The test contracts on a local chain: deployed (USDC and the conditional tokens), every
// market's condition registered, every account funded as the exchange's ledger has it, the
// market maker's approvals in place. Also the raw JSON-RPC calls the chain side needs.
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { TestCTF, TestUSDC } from '../contracts.js';
import { DEV_ACCOUNTS } from '../seed.js';
import type { SandboxState } from '../types.js';

/** Dev account 9 of the public mnemonic deploys and owns the test contracts. */
export const DEPLOYER_KEY: Hex = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
export const MAX = (1n << 256n) - 1n;
export const ZERO = '0x0000000000000000000000000000000000000000';

export interface ChainInfo {
  rpcUrl: string;
  chainId: number;
  contracts: { usdc: Hex; conditionalTokens: Hex };
}

export const usdcAbi = TestUSDC.abi;
export const ctfAbi = TestCTF.abi;

/** Deploys the contracts on `rpcUrl` and funds the accounts of `state` on chain. */
export async function deployAndFund(rpcUrl: string, state: SandboxState): Promise<{ info: ChainInfo; client: PublicClient }> {
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
export async function rpcCall(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
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
