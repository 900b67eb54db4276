// The chain hooks of a sandbox running with a local chain (chainref.ts says what each does):
// reads before an EOA order, payouts, server-wallet approvals and withdrawals, redemptions made
// on the chain, and the reset back to the chain as the seed has it.
import { type Chain, createWalletClient, defineChain, getAddress, http, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainHooks, ChainRedemption, TargetRead } from '../chainref.js';
import type { AllowanceTarget, MarketRecord, SandboxState } from '../types.js';
import type { Route } from '../handlers.js';
import { type ChainInfo, DEPLOYER_KEY, MAX, ZERO, ctfAbi, deployAndFund, rpcCall, usdcAbi } from './deploy.js';

/** Gas money a server wallet gets from the deployer when it has less than GAS_FLOOR. */
const GAS_TOPUP = 10n ** 17n; // 0.1 ETH: thousands of approvals on a local chain
const GAS_FLOOR = 10n ** 16n;

/** The reset point: an evm snapshot taken after deployment (`deployed`) or before it. */
export interface ResetPoint {
  id: string;
  deployed: boolean;
}

/** A wallet of `key` on the local chain. */
function walletFor(key: Hex, chain: Chain, rpcUrl: string) {
  return createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(rpcUrl, { retryCount: 0 }) });
}
type Wallet = ReturnType<typeof walletFor>;

/** A sandbox's chain: its hooks, what the ready line says of it, its admin route. */
export interface SandboxChain extends ChainHooks {
  info: ChainInfo;
  /** Admin routes: GET /__sandbox/chain. */
  routes: Route[];
  close(): Promise<void>;
}

export class LocalChain implements SandboxChain {
  /** The deployed test contracts (one object for the chain's life; a redeploy updates it in place). */
  readonly contracts: ChainInfo['contracts'];
  readonly routes: Route[];
  private readonly deployer: Wallet;
  private readonly chainDef: Chain;
  /** The deployer's transactions go one at a time, so two of them never take the same nonce. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The first block not yet read for redemptions; back to 0 when the chain goes back (a reset). */
  private redeemedFrom = 0n;

  constructor(
    readonly info: ChainInfo,
    private readonly client: PublicClient,
    private snapshot: ResetPoint | null,
    private readonly onClose: () => Promise<void>,
  ) {
    this.contracts = info.contracts;
    this.routes = [{ method: 'GET', pattern: '/__sandbox/chain', auth: { kind: 'public' }, handler: () => ({ status: 200, body: info }) }];
    this.chainDef = defineChain({
      id: info.chainId,
      name: `local-${info.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [info.rpcUrl] } },
    });
    this.deployer = this.walletOf(DEPLOYER_KEY);
  }

  private walletOf(key: Hex): Wallet {
    return walletFor(key, this.chainDef, this.info.rpcUrl);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async mined(hash: Hex, what: string): Promise<void> {
    const r = await this.client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 });
    if (r.status !== 'success') throw new Error(`${what} reverted (${hash})`);
  }

  /** One transaction of the deployer (the contracts' owner), in its turn; resolves once mined. */
  private asOwner(what: string, send: () => Promise<Hex>): Promise<void> {
    return this.serial(async () => this.mined(await send(), what));
  }

  private fundGas(to: Hex): Promise<void> {
    return this.serial(async () => {
      if ((await this.client.getBalance({ address: to })) >= GAS_FLOOR) return;
      await this.mined(await this.deployer.sendTransaction({ to, value: GAS_TOPUP }), `gas for ${to}`);
    });
  }

  async orderRefusal({ owner: who, market, buy, makerAmount }: { owner: string; market: MarketRecord; buy: boolean; makerAmount: bigint }) {
    const owner = getAddress(who);
    const venue = market.venue;
    if (!venue) return null;
    if (buy) {
      const allowance = await this.client.readContract({
        address: this.contracts.usdc,
        abi: usdcAbi,
        functionName: 'allowance',
        args: [owner, getAddress(venue.exchange)],
      });
      return allowance < makerAmount ? 'Insufficient collateral allowance' : null;
    }
    const operators = [venue.exchange, ...(venue.adapter && venue.adapter !== ZERO ? [venue.adapter] : [])];
    for (const op of operators) {
      const ok = await this.client.readContract({
        address: this.contracts.conditionalTokens,
        abi: ctfAbi,
        functionName: 'isApprovedForAll',
        args: [owner, getAddress(op)],
      });
      if (!ok) return 'Insufficient conditional token allowance';
    }
    return null;
  }

  async postPayout(market: MarketRecord, winner: 0 | 1): Promise<void> {
    if (!market.conditionId) return;
    const conditionId = market.conditionId as Hex;
    await this.asOwner(`reportPayouts for ${market.slug}`, () =>
      this.deployer.writeContract({
        address: this.contracts.conditionalTokens,
        abi: ctfAbi,
        functionName: 'reportPayouts',
        args: [conditionId, winner === 0 ? [1n, 0n] : [0n, 1n]],
      }),
    );
  }

  async submitTarget(key: Hex, target: AllowanceTarget): Promise<Hex> {
    const w = this.walletOf(key);
    const from = w.account.address;
    await this.fundGas(from);
    const nonce = await this.client.getTransactionCount({ address: from, blockTag: 'pending' });
    const spender = getAddress(target.spenderOrOperator);
    return target.type === 'USDC_ALLOWANCE'
      ? w.writeContract({ address: this.contracts.usdc, abi: usdcAbi, functionName: 'approve', args: [spender, MAX], nonce })
      : w.writeContract({
          address: this.contracts.conditionalTokens,
          abi: ctfAbi,
          functionName: 'setApprovalForAll',
          args: [spender, true],
          nonce,
        });
  }

  async withdraw(key: Hex, to: Hex, amount: bigint): Promise<Hex> {
    const w = this.walletOf(key);
    const from = w.account.address;
    const usdc = this.contracts.usdc;
    const have = await this.client.readContract({ address: usdc, abi: usdcAbi, functionName: 'balanceOf', args: [from] });
    if (have < amount)
      await this.asOwner(`USDC top-up of ${from}`, () =>
        this.deployer.writeContract({
          address: usdc,
          abi: usdcAbi,
          functionName: 'mint',
          args: [from, amount - have],
        }),
      );
    await this.fundGas(from);
    const nonce = await this.client.getTransactionCount({ address: from, blockTag: 'pending' });
    const hash = await w.writeContract({
      address: usdc,
      abi: usdcAbi,
      functionName: 'transfer',
      args: [getAddress(to), amount],
      nonce,
    });
    await this.mined(hash, `withdrawal from ${from}`);
    return hash;
  }

  async readTargets(who: Hex, targets: readonly AllowanceTarget[]): Promise<TargetRead[]> {
    const owner = getAddress(who);
    return Promise.all(targets.map((t) => this.readTarget(owner, t)));
  }

  /**
   * The receipt first, then the approval: a block mined between the two reads then shows as an
   * approval without its receipt (confirmed), never as a receipt without its approval, which
   * would read as an approval gone (missing) though the transaction just put it in place.
   */
  private async readTarget(owner: Hex, t: AllowanceTarget): Promise<TargetRead> {
    let receipt: 'success' | 'reverted' | null = null;
    if (t.txHash && /^0x[0-9a-fA-F]{64}$/.test(t.txHash)) {
      const r = await this.client.getTransactionReceipt({ hash: t.txHash as Hex }).catch((e: unknown) => {
        if (e instanceof Error && e.name === 'TransactionReceiptNotFoundError') return null;
        throw e;
      });
      receipt = r ? r.status : null;
    }
    const spender = getAddress(t.spenderOrOperator);
    const approved =
      t.type === 'USDC_ALLOWANCE'
        ? (await this.client.readContract({
            address: this.contracts.usdc,
            abi: usdcAbi,
            functionName: 'allowance',
            args: [owner, spender],
          })) > 0n
        : await this.client.readContract({
            address: this.contracts.conditionalTokens,
            abi: ctfAbi,
            functionName: 'isApprovedForAll',
            args: [owner, spender],
          });
    return { approved, receipt };
  }

  async redemptions(): Promise<ChainRedemption[]> {
    // Not from viem's cache (4 s by default): a redemption mined since the last read would be missed.
    const latest = await this.client.getBlockNumber({ cacheTime: 0 });
    if (latest + 1n < this.redeemedFrom) this.redeemedFrom = 0n; // reverted below what was read
    if (this.redeemedFrom > latest) return [];
    const range = { address: this.contracts.conditionalTokens, abi: ctfAbi, fromBlock: this.redeemedFrom, toBlock: latest } as const;
    const [payouts, burnt] = await Promise.all([
      this.client.getContractEvents({ ...range, eventName: 'PayoutRedemption' }),
      this.client.getContractEvents({ ...range, eventName: 'TransferSingle', args: { to: ZERO } }),
    ]);
    this.redeemedFrom = latest + 1n;
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
  }

  async burnRedeemed(holder: Hex, burns: readonly { tokenId: string; shares: bigint }[]): Promise<void> {
    const held = burns.filter((b) => b.shares > 0n);
    if (held.length === 0) return;
    await this.asOwner(`burnRedeemed for ${holder}`, () =>
      this.deployer.writeContract({
        address: this.contracts.conditionalTokens,
        abi: ctfAbi,
        functionName: 'burnRedeemed',
        args: [getAddress(holder), held.map((b) => BigInt(b.tokenId)), held.map((b) => b.shares)],
      }),
    );
  }

  close(): Promise<void> {
    return this.onClose();
  }

  async reset(state: SandboxState): Promise<void> {
    this.redeemedFrom = 0n;
    const rpcUrl = this.info.rpcUrl;
    await this.serial(async () => {
      if (this.snapshot) {
        const ok = await rpcCall(rpcUrl, 'evm_revert', [this.snapshot.id]);
        if (ok !== true) throw new Error(`evm_revert to snapshot ${this.snapshot.id} failed on ${rpcUrl}`);
        // A reverted snapshot is used up: take the next one at the same point.
        if (this.snapshot.deployed) {
          this.snapshot = { id: String(await rpcCall(rpcUrl, 'evm_snapshot', [])), deployed: true };
          return;
        }
      }
      // Deploy for the seed. After a revert to before the first deployment the deployer's nonce
      // is what it was, so the addresses come out the same; without snapshots they are new.
      const again = await deployAndFund(rpcUrl, state);
      Object.assign(this.contracts, again.info.contracts);
      if (this.snapshot) this.snapshot = { id: String(await rpcCall(rpcUrl, 'evm_snapshot', [])), deployed: true };
    });
  }
}
