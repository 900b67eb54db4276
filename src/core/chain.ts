// On chain, with viem: the approvals a wallet needs for a market's venue (USDC allowance to
// venue.exchange for BUY; CTF setApprovalForAll to venue.exchange for SELL, and to venue.adapter
// on NegRisk), sending only the missing ones, balances, and EOA redemption of resolved markets.
// Loaded only by the commands that use it. Errors are pm errors with exit codes: no RPC or a
// wrong chain is exit 2, an unreachable RPC exit 7, a reverted or unaffordable transaction exit 1.
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  formatEther,
  getAddress,
  http,
  parseAbi,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import { NetworkError, PmError, UnknownStateError, UsageError, ValidationError } from './errors.js';
import type { Market } from './market-wire.js';
import { formatUnits } from './money.js';
import type { ProxySettings } from './proxy.js';
import { nodeFetch } from './http.js';
import type { SandboxChainInfo } from './sandboxctl.js';

const BASE_CHAIN_ID = 8453;
const BASE_CONTRACTS = {
  usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  conditionalTokens: '0xC9c98965297Bc527861c898329Ee280632B76e18',
} as const;
const ZERO = '0x0000000000000000000000000000000000000000';
const MAX_UINT = (1n << 256n) - 1n;
/** An allowance at least this large is shown as unlimited (and satisfies --unlimited). */
export const UNLIMITED_FLOOR = 1n << 128n;

const ERC20_ABI = parseAbi([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
const CTF_ABI = parseAbi([
  'function isApprovedForAll(address account, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function payoutDenominator(bytes32 conditionId) view returns (uint256)',
  'function payoutNumerators(bytes32 conditionId, uint256 index) view returns (uint256)',
  'function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] indexSets)',
]);

export interface ChainSetup {
  rpcUrl: string;
  /** The chain id the RPC must report. */
  chainId: number;
  contracts: { usdc: Hex; conditionalTokens: Hex };
  /** 'sandbox' when a sandbox told us its chain, else 'base'. */
  source: 'sandbox' | 'base';
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY: the RPC goes through the proxy that applies to it, as REST does. */
  proxy?: ProxySettings | undefined;
}

/**
 * Where and what the chain is: the RPC URL as the settings resolve it (ClientCore.rpcUrl); chain
 * id and contracts from the sandbox, else Base (8453).
 */
export function chainSetup(o: {
  rpcUrl: string | undefined;
  sandbox: SandboxChainInfo | null;
  proxy?: ProxySettings | undefined;
}): ChainSetup {
  const rpcUrl = o.rpcUrl;
  if (!rpcUrl) {
    throw new UsageError('no RPC URL for the chain is configured', {
      hint: 'Pass --rpc-url <url>, set PM_RPC_URL, or save one: pm config set rpc-url <url> (a Base mainnet JSON-RPC endpoint).',
    });
  }
  if (o.sandbox) {
    return {
      rpcUrl,
      chainId: o.sandbox.chainId,
      contracts: { usdc: getAddress(o.sandbox.contracts.usdc), conditionalTokens: getAddress(o.sandbox.contracts.conditionalTokens) },
      source: 'sandbox',
      proxy: o.proxy,
    };
  }
  return {
    rpcUrl,
    chainId: BASE_CHAIN_ID,
    contracts: { usdc: BASE_CONTRACTS.usdc, conditionalTokens: BASE_CONTRACTS.conditionalTokens },
    source: 'base',
    proxy: o.proxy,
  };
}

/** viem's errors for a node that could not be reached or stopped answering (HTTP or websocket). */
const UNREACHABLE = new Set(['HttpRequestError', 'TimeoutError', 'SocketClosedError', 'WebSocketRequestError']);
/** Node's and undici's codes for a connection that failed, reset or timed out. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** `e` and its causes, outermost first (at most 8: viem wraps fetch's error, which wraps the socket's). */
function causeChain(e: unknown): { name?: unknown; code?: unknown; cause?: unknown }[] {
  const out: { name?: unknown; code?: unknown; cause?: unknown }[] = [];
  for (let cur: unknown = e; out.length < 8 && typeof cur === 'object' && cur !== null; cur = (cur as { cause?: unknown }).cause)
    out.push(cur as { name?: unknown; code?: unknown; cause?: unknown });
  return out;
}

/**
 * A failure that means the node could not be reached (or stopped answering): by the error's name
 * or code anywhere along its causes (viem wraps fetch's error, which wraps the socket's), never by
 * the wording of a message.
 */
function isUnreachable(e: unknown): boolean {
  return causeChain(e).some(
    ({ name, code }) => (typeof name === 'string' && UNREACHABLE.has(name)) || (typeof code === 'string' && NETWORK_CODES.has(code)),
  );
}

/**
 * viem's errors for a node that answered, but not as a Base node would: no contract at the
 * address (a read "returned no data") or a JSON-RPC error for a standard call.
 */
const WRONG_NODE = new Set([
  'ContractFunctionZeroDataError',
  'RpcRequestError',
  'InternalRpcError',
  'MethodNotFoundRpcError',
  'MethodNotSupportedRpcError',
  'ResourceUnavailableRpcError',
  'LimitExceededRpcError',
  'UnknownRpcError',
]);

/** The first error along `e`'s causes whose name is in `names`. */
function causeNamed(e: unknown, names: ReadonlySet<string>): string | undefined {
  return causeChain(e)
    .map(({ name }) => name)
    .find((name): name is string => typeof name === 'string' && names.has(name));
}

function isInsufficientFunds(e: unknown): boolean {
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur; i++) {
    const name = (cur as { name?: string }).name ?? '';
    const msg = cur instanceof Error ? cur.message : '';
    if (name === 'InsufficientFundsError' || /insufficient funds/i.test(msg)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/** The first pm error along `e`'s causes (viem wraps what the transport's fetch threw: the proxy's errors). */
function pmErrorIn(e: unknown): PmError | undefined {
  return causeChain(e).find((c): c is PmError => c instanceof PmError);
}

/** viem's http transport to the RPC of `setup`, through the proxy that applies to it. */
function rpcTransport(setup: ChainSetup, timeoutMs?: number) {
  return http(setup.rpcUrl, {
    retryCount: 0,
    fetchFn: nodeFetch(setup.rpcUrl, setup.proxy),
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
  });
}

/** Maps a viem failure to a pm error: unreachable RPC exit 7, anything else exit 1. */
function chainError(e: unknown, rpcUrl: string, doing: string): PmError {
  const own = pmErrorIn(e);
  if (own) return own;
  if (isUnreachable(e))
    return new NetworkError(`could not reach the RPC at ${rpcUrl} while ${doing}`, {
      cause: e,
      // (approve set and redeem-onchain read the chain before they send: a re-run sends only what is missing.)
      hint: 'Check --rpc-url / PM_RPC_URL and that the node is running, then run the same command again: it reads the chain first and sends only what is still missing.',
    });
  const wrong = causeNamed(e, WRONG_NODE);
  if (wrong !== undefined) {
    // The node answered, but not as Base's would: the RPC is not what it should be (exit 7, not a bug).
    const what = wrong === 'ContractFunctionZeroDataError' ? 'has no contract where Base has it' : 'refused a standard call';
    const ne = new NetworkError(`the RPC at ${rpcUrl} ${what} (while ${doing}): it is not a synced node of the expected chain`, {
      cause: e,
      hint: 'Point --rpc-url (or PM_RPC_URL, or the profile rpc-url) at a Base mainnet node, or leave them unset for the default.',
    });
    ne.ambiguous = false;
    return ne;
  }
  const short = (e as { shortMessage?: string }).shortMessage ?? (e instanceof Error ? e.message.split('\n')[0] : String(e));
  return new PmError(`${doing} failed: ${short}`, { cause: e });
}

export type Side = 'BUY' | 'SELL';

export interface ApprovalTarget {
  kind: 'USDC_ALLOWANCE' | 'CTF_APPROVAL';
  /** exchange or adapter */
  label: 'exchange' | 'adapter';
  spender: Hex;
  requiredFor: Side;
  /** Markets (slugs) whose venue needs it. */
  markets: string[];
}

export interface ApprovalState extends ApprovalTarget {
  /** USDC: the allowance; CTF: 1 when approved, 0 when not. */
  current: bigint;
  ok: boolean;
}

/** True for NegRisk markets: negRiskRequestId, or a venue adapter that is not the zero address. */
function isNegRisk(m: Market): boolean {
  return m.negRisk || (m.venue?.adapter !== null && m.venue?.adapter !== undefined && m.venue.adapter.toLowerCase() !== ZERO);
}

/** The approvals trading needs on these markets (tradable children of a group included), deduplicated. */
export function approvalTargets(markets: Market[], sides: Side[]): ApprovalTarget[] {
  const out = new Map<string, ApprovalTarget>();
  const add = (kind: ApprovalTarget['kind'], label: ApprovalTarget['label'], spender: string, side: Side, slug: string): void => {
    const key = `${kind}|${getAddress(spender)}`;
    const t = out.get(key) ?? { kind, label, spender: getAddress(spender), requiredFor: side, markets: [] };
    if (!t.markets.includes(slug)) t.markets.push(slug);
    out.set(key, t);
  };
  const all = markets.flatMap((m) => (m.venue ? [m] : m.children.filter((c) => c.venue)));
  for (const m of all) {
    const v = m.venue;
    if (!v) continue;
    if (sides.includes('BUY')) add('USDC_ALLOWANCE', 'exchange', v.exchange, 'BUY', m.slug);
    if (sides.includes('SELL')) {
      add('CTF_APPROVAL', 'exchange', v.exchange, 'SELL', m.slug);
      if (isNegRisk(m) && v.adapter && v.adapter.toLowerCase() !== ZERO) add('CTF_APPROVAL', 'adapter', v.adapter, 'SELL', m.slug);
    }
  }
  return [...out.values()];
}

export interface PlannedTx {
  target: ApprovalTarget;
  to: Hex;
  data: Hex;
  /** What it does, in words. */
  what: string;
  gas?: bigint;
}

export interface SentTx {
  what: string;
  hash: Hex;
  status: 'success' | 'reverted';
  blockNumber: bigint;
  gasUsed: bigint;
}

/** A connected, chain-id-checked view of the chain. */
export class Chain {
  readonly client: PublicClient;
  private constructor(
    readonly setup: ChainSetup,
    client: PublicClient,
  ) {
    this.client = client;
  }

  /** Connects and checks the chain id (exit 2 on a mismatch, exit 7 when unreachable). */
  static async connect(setup: ChainSetup, o: { timeoutMs?: number | undefined } = {}): Promise<Chain> {
    const client = createPublicClient({ transport: rpcTransport(setup, o.timeoutMs ?? 30_000) }) as PublicClient;
    let id: number;
    try {
      id = await client.getChainId();
    } catch (e) {
      throw chainError(e, setup.rpcUrl, 'reading the chain id');
    }
    if (id !== setup.chainId) {
      const what = setup.source === 'sandbox' ? `the sandbox's chain (${setup.chainId})` : `Base (${BASE_CHAIN_ID})`;
      throw new UsageError(`the RPC at ${setup.rpcUrl} is chain ${id}, not ${what}`, {
        hint:
          setup.source === 'sandbox'
            ? "Use the sandbox's own RPC (see its ready line), or drop --rpc-url."
            : 'Point --rpc-url / PM_RPC_URL at a Base mainnet node.',
      });
    }
    return new Chain(setup, client);
  }

  private chainDef() {
    return defineChain({
      id: this.setup.chainId,
      name: this.setup.source === 'base' ? 'Base' : `sandbox-${this.setup.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [this.setup.rpcUrl] } },
    });
  }

  private async read<T>(doing: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw chainError(e, this.setup.rpcUrl, doing);
    }
  }

  /** Current state of each target for `owner`; `minimum` is the USDC allowance that counts as enough. */
  async approvals(owner: Hex, targets: ApprovalTarget[], minimum = 1n): Promise<ApprovalState[]> {
    const { usdc, conditionalTokens: ctf } = this.setup.contracts;
    return this.read('reading approvals', () =>
      Promise.all(
        targets.map(async (t) => {
          if (t.kind === 'USDC_ALLOWANCE') {
            const a = await this.client.readContract({
              address: usdc,
              abi: ERC20_ABI,
              functionName: 'allowance',
              args: [owner, t.spender],
            });
            return { ...t, current: a, ok: a >= minimum };
          }
          const ok = await this.client.readContract({
            address: ctf,
            abi: CTF_ABI,
            functionName: 'isApprovedForAll',
            args: [owner, t.spender],
          });
          return { ...t, current: ok ? 1n : 0n, ok };
        }),
      ),
    );
  }

  /** The transactions that set the missing approvals. */
  plan(missing: ApprovalState[], amount: bigint): PlannedTx[] {
    const { usdc, conditionalTokens: ctf } = this.setup.contracts;
    return missing.map((t) =>
      t.kind === 'USDC_ALLOWANCE'
        ? {
            target: t,
            to: usdc,
            data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'approve', args: [t.spender, amount] }),
            what: `USDC approve(${t.label} ${t.spender}, ${amount === MAX_UINT ? 'unlimited' : formatUnits(amount)})`,
          }
        : {
            target: t,
            to: ctf,
            data: encodeFunctionData({ abi: CTF_ABI, functionName: 'setApprovalForAll', args: [t.spender, true] }),
            what: `CTF setApprovalForAll(${t.label} ${t.spender}, true)`,
          },
    );
  }

  /** Estimates gas for each transaction and the total cost at the current gas price. */
  async estimate(from: Hex, txs: { to: Hex; data: Hex; gas?: bigint }[]): Promise<{ gasPrice: bigint; total: bigint; balance: bigint }> {
    return this.read('estimating gas', async () => {
      const gasPrice = await this.client.getGasPrice();
      let total = 0n;
      for (const tx of txs) {
        try {
          tx.gas = await this.client.estimateGas({ account: from, to: tx.to, data: tx.data });
        } catch (e) {
          if (isInsufficientFunds(e)) tx.gas = 100_000n;
          else throw e;
        }
        total += tx.gas * gasPrice;
      }
      const balance = await this.client.getBalance({ address: from });
      return { gasPrice, total, balance };
    });
  }

  /**
   * Sends the transactions one by one, waiting for each receipt (progress via `progress`). A
   * reverted one stops the run (exit 1); a lost RPC after sending is an unknown state (exit 7).
   */
  async send(
    account: LocalAccount,
    txs: { to: Hex; data: Hex; gas?: bigint; what: string }[],
    progress: (line: string) => void,
    o: { receiptTimeoutMs?: number } = {},
  ): Promise<SentTx[]> {
    const wallet = createWalletClient({ account, chain: this.chainDef(), transport: rpcTransport(this.setup) });
    const sent: SentTx[] = [];
    for (const [i, tx] of txs.entries()) {
      const n = `${i + 1}/${txs.length}`;
      progress(`sending ${n}: ${tx.what}`);
      let hash: Hex;
      try {
        hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, ...(tx.gas ? { gas: (tx.gas * 12n) / 10n } : {}) });
      } catch (e) {
        if (isInsufficientFunds(e)) {
          throw new PmError(`the wallet ${account.address} has not enough ETH to pay gas for ${tx.what}`, {
            cause: e,
            details: sent.length ? `Sent before: ${sent.map((s) => s.hash).join(', ')}` : undefined,
            hint: 'Fund it with ETH on this chain, then run the same command again (only what is still missing is sent).',
          });
        }
        throw chainError(e, this.setup.rpcUrl, `sending ${tx.what}`);
      }
      progress(`  tx ${hash}: waiting for the receipt`);
      let receipt;
      try {
        receipt = await this.client.waitForTransactionReceipt({
          hash,
          timeout: o.receiptTimeoutMs ?? 120_000,
          pollingInterval: this.setup.source === 'sandbox' ? 100 : 2000,
        });
      } catch (e) {
        throw new UnknownStateError(`transaction ${hash} was sent, but its receipt could not be read`, {
          cause: e,
          hint: 'Run pm approve check (or pm balance) to see what happened on chain before sending again.',
        });
      }
      const s: SentTx = { what: tx.what, hash, status: receipt.status, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
      sent.push(s);
      if (receipt.status !== 'success') {
        throw new PmError(`transaction ${hash} reverted: ${tx.what}`, {
          details: `Block ${receipt.blockNumber}.`,
          hint: 'Run pm approve check to see the state on chain.',
        });
      }
      progress(`  confirmed in block ${receipt.blockNumber} (gas ${receipt.gasUsed})`);
    }
    return sent;
  }

  async eth(owner: Hex): Promise<bigint> {
    return this.read('reading the ETH balance', () => this.client.getBalance({ address: owner }));
  }

  async usdc(owner: Hex): Promise<bigint> {
    return this.read('reading the USDC balance', () =>
      this.client.readContract({ address: this.setup.contracts.usdc, abi: ERC20_ABI, functionName: 'balanceOf', args: [owner] }),
    );
  }

  async positions(owner: Hex, ids: string[]): Promise<bigint[]> {
    return this.read('reading position balances', () =>
      Promise.all(
        ids.map((id) =>
          this.client.readContract({
            address: this.setup.contracts.conditionalTokens,
            abi: CTF_ABI,
            functionName: 'balanceOf',
            args: [owner, BigInt(id)],
          }),
        ),
      ),
    );
  }

  /** The posted payout of a condition: numerators [YES, NO] and denominator (0 = not posted). */
  async payout(conditionId: Hex): Promise<{ numerators: [bigint, bigint]; denominator: bigint }> {
    const ctf = this.setup.contracts.conditionalTokens;
    return this.read('reading the payout', async () => {
      const denominator = await this.client.readContract({
        address: ctf,
        abi: CTF_ABI,
        functionName: 'payoutDenominator',
        args: [conditionId],
      });
      if (denominator === 0n) return { numerators: [0n, 0n], denominator };
      const [a, b] = await Promise.all(
        [0n, 1n].map((i) =>
          this.client.readContract({ address: ctf, abi: CTF_ABI, functionName: 'payoutNumerators', args: [conditionId, i] }),
        ),
      );
      return { numerators: [a ?? 0n, b ?? 0n], denominator };
    });
  }

  /** The redemption of a binary market's positions: call data and expected payout. */
  async redeemPlan(
    owner: Hex,
    market: Market,
  ): Promise<{ tx: { to: Hex; data: Hex; what: string } | null; yes: bigint; no: bigint; payout: bigint }> {
    const conditionId = market.raw['conditionId'];
    if (typeof conditionId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(conditionId) || !market.positionIds) {
      throw new ValidationError(`market ${market.slug} has no condition id or positions to redeem`, {
        hint: 'Redeem a child market of a group, one at a time.',
      });
    }
    if (isNegRisk(market) && this.setup.source === 'base') {
      throw new ValidationError(
        `market ${market.slug} is a NegRisk market: its positions are redeemed through the NegRisk adapter, which pm does not do yet`,
      );
    }
    const p = await this.payout(conditionId as Hex);
    if (p.denominator === 0n) {
      throw new ValidationError(`the payout of ${market.slug} is not posted on chain yet`, {
        hint:
          market.winningOutcomeIndex === null
            ? 'The market is not resolved; wait for the resolution.'
            : 'The market is resolved, but the oracle has not reported on chain yet; try again later.',
      });
    }
    const [yes, no] = await this.positions(owner, market.positionIds);
    const payout = ((yes ?? 0n) * p.numerators[0]) / p.denominator + ((no ?? 0n) * p.numerators[1]) / p.denominator;
    if ((yes ?? 0n) === 0n && (no ?? 0n) === 0n) return { tx: null, yes: 0n, no: 0n, payout: 0n };
    const data = encodeFunctionData({
      abi: CTF_ABI,
      functionName: 'redeemPositions',
      args: [this.setup.contracts.usdc, `0x${'0'.repeat(64)}`, conditionId as Hex, [1n, 2n]],
    });
    return {
      tx: { to: this.setup.contracts.conditionalTokens, data, what: `CTF redeemPositions(${market.slug})` },
      yes: yes ?? 0n,
      no: no ?? 0n,
      payout,
    };
  }
}

export { MAX_UINT, formatEther };
