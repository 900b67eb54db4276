// What an account can trade with: USDC held, locked by its open orders and free; shares held per
// position and locked by its open SELLs. Held USDC comes from the chain (the real exchange keeps
// none: a wallet holds it) or, against a sandbox, from the exchange's own figures; locked amounts
// are summed from the open orders, as the exchange reserves them (ceil(remaining × price) for a
// BUY, the remaining shares for a SELL). Raw bigint units throughout; balanceJson() prints them.
import type { SandboxChainInfo } from './sandboxctl.js';
import type { ProxySettings } from './proxy.js';
import type { SubAccount } from './trade/signer.js';
import { ExchangeError } from './errors.js';
import type { ApiClient } from './http.js';
import { formatUnits, ONE, priceFromWire, rawFromWire } from './money.js';
import { fetchPositions } from './portfolio.js';

export interface Amounts {
  held: bigint;
  locked: bigint;
  free: bigint;
}

export interface PositionBalance extends Amounts {
  market: string;
  outcome: 'YES' | 'NO';
  tokenId: string;
}

export interface MarketLock {
  market: string;
  /** USDC locked by this market's open BUY orders. */
  locked: bigint;
  /** Open orders (BUY and SELL) in this market. */
  orders: number;
}

export interface Balance {
  profileId: number;
  /** The wallet whose USDC this is (null: the exchange did not say). */
  wallet: string | null;
  /** The sub-account acted for, or null for the caller's own account. */
  onBehalfOf: number | null;
  /** Where the held figures come from: the exchange's own (a sandbox) or the chain. */
  source: 'exchange' | 'chain';
  chain: { chainId: number; rpcUrl: string; eth: bigint } | null;
  usdc: Amounts;
  markets: MarketLock[];
  positions: PositionBalance[];
}

export interface BalanceOptions {
  /** The sub-account to act for (default: the core's). */
  onBehalfOf?: number | undefined;
  /** Read USDC (and shares) from the chain even against a sandbox. */
  chain?: boolean | undefined;
  /** --rpc-url (else PM_RPC_URL, a sandbox's chain, the profile, the public Base RPC). */
  rpcUrl?: string | undefined;
  /** Only these markets: their positions (YES and NO even when none is held) and what their orders lock. */
  markets?: string[] | undefined;
}

/** What a balance needs of the client core (src/core/clientcore.ts, which calls this module). */
export interface BalanceCore {
  onBehalfOf: number | undefined;
  readonly sandbox: boolean;
  readonly timeoutMs: number;
  tradingApi(onBehalfOf?: number): Promise<ApiClient>;
  subAccount(partnerApi: ApiClient, id: number): Promise<SubAccount>;
  rpcUrl(flag?: string): Promise<{ url: string | undefined; sandboxChain: SandboxChainInfo | null; proxy: ProxySettings | undefined }>;
}

const amounts = (held: bigint, locked: bigint): Amounts => ({ held, locked, free: held > locked ? held - locked : 0n });

/** USDC a BUY of `remaining` shares at `price` locks: ceil(remaining × price), as the exchange locks it. */
const buyLock = (remaining: bigint, price: bigint): bigint => (remaining * price + ONE - 1n) / ONE;

/** The exchange's own USDC figure of a sandbox profile (GET /__sandbox/balance). */
async function sandboxHeld(api: ApiClient, profileId: number): Promise<{ held: bigint; wallet: string | null }> {
  const d = (
    await api.request<unknown>({
      method: 'GET',
      path: `/__sandbox/balance?profileId=${profileId}`,
      auth: 'none',
      onBehalfOfIn: 'none',
    })
  ).data;
  const o = typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : {};
  const usdc = o['usdc'];
  if (typeof usdc !== 'string' || !/^\d+$/.test(usdc)) {
    throw new ExchangeError(`${api.baseUrl} gave no USDC figure for profile ${profileId}`);
  }
  return { held: BigInt(usdc), wallet: typeof o['wallet'] === 'string' ? o['wallet'] : null };
}

/**
 * The balance of the core's account, or of `onBehalfOf` a sub-account.
 * @example const b = await accountBalance(core, { chain: true }); b.usdc.free
 */
export async function accountBalance(core: BalanceCore, o: BalanceOptions = {}): Promise<Balance> {
  const onBehalfOf = o.onBehalfOf ?? core.onBehalfOf;
  const api = await core.tradingApi(onBehalfOf);
  const own = api.withOnBehalfOf(undefined);
  const source: Balance['source'] = o.chain || !core.sandbox ? 'chain' : 'exchange';
  // Who: the sub-account named, else the caller (its trading wallet: a server wallet if it has one).
  const who = async (): Promise<{ profileId: number; wallet: string | null }> => {
    if (onBehalfOf !== undefined) {
      if (source === 'exchange') return { profileId: onBehalfOf, wallet: null };
      return { profileId: onBehalfOf, wallet: (await core.subAccount(own, onBehalfOf)).address ?? null };
    }
    const { profileMe } = await import('./tokens.js');
    const me = await profileMe(own);
    return { profileId: me.id, wallet: me.embeddedAccount ?? (me.account || null) };
  };
  const [account, positions] = await Promise.all([who(), fetchPositions(api)]);

  // Locked, summed from the open orders.
  const byMarket = new Map<string, MarketLock>();
  const sharesLocked = new Map<string, bigint>();
  let usdcLocked = 0n;
  for (const order of positions.liveOrders) {
    const market = typeof order['market'] === 'string' ? order['market'] : '';
    const m = byMarket.get(market) ?? { market, locked: 0n, orders: 0 };
    m.orders++;
    const remaining = rawFromWire(order['remainingSize']);
    if (order['side'] === 'BUY') {
      const lock = buyLock(remaining, priceFromWire(order['price']) ?? 0n);
      m.locked += lock;
      usdcLocked += lock;
    } else {
      const key = `${market} ${String(order['token'])}`;
      sharesLocked.set(key, (sharesLocked.get(key) ?? 0n) + remaining);
    }
    byMarket.set(market, m);
  }

  // The positions: those held or locked, or every outcome of the markets named.
  const rows: PositionBalance[] = [];
  const wanted = o.markets?.length ? new Set(o.markets) : null;
  for (const r of positions.rows) {
    if (r.tokenId === null || (wanted && !wanted.has(r.market))) continue;
    const locked = sharesLocked.get(`${r.market} ${r.outcome}`) ?? 0n;
    if (!wanted && r.shares === 0n && locked === 0n) continue;
    rows.push({ market: r.market, outcome: r.outcome, tokenId: r.tokenId, ...amounts(r.shares, locked) });
  }
  if (wanted) {
    const { getMarket } = await import('./markets.js');
    for (const slug of wanted) {
      const ids = (await getMarket(api, slug)).positionIds;
      if (!ids) continue;
      ids.forEach((tokenId, i) => {
        const outcome = i === 0 ? 'YES' : 'NO';
        if (!rows.some((r) => r.tokenId === tokenId)) rows.push({ market: slug, outcome, tokenId, ...amounts(0n, 0n) });
      });
    }
  }

  let held: bigint;
  let wallet = account.wallet;
  let chain: Balance['chain'] = null;
  if (source === 'exchange') {
    const s = await sandboxHeld(own, account.profileId);
    held = s.held;
    wallet = s.wallet;
  } else {
    const { Chain, chainSetup } = await import('./chain.js');
    const { url, sandboxChain, proxy } = await core.rpcUrl(o.rpcUrl);
    const c = await Chain.connect(chainSetup({ rpcUrl: url, sandbox: sandboxChain, proxy }), { timeoutMs: core.timeoutMs });
    if (wallet === null || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) {
      throw new ExchangeError(`the exchange gave no wallet address for profile ${account.profileId}: its USDC cannot be read on chain`);
    }
    const address = wallet as `0x${string}`;
    const [usdc, eth, shares] = await Promise.all([
      c.usdc(address),
      c.eth(address),
      c.positions(
        address,
        rows.map((r) => r.tokenId),
      ),
    ]);
    held = usdc;
    chain = { chainId: c.setup.chainId, rpcUrl: c.setup.rpcUrl, eth };
    rows.forEach((r, i) => Object.assign(r, amounts(shares[i] ?? 0n, r.locked)));
  }
  return {
    profileId: account.profileId,
    wallet,
    onBehalfOf: onBehalfOf ?? null,
    source,
    chain,
    usdc: amounts(held, usdcLocked),
    // (The markets named, when some are: their locks, as their positions.)
    markets: [...byMarket.values()]
      .filter((m) => m.market !== '' && (!wanted || wanted.has(m.market)))
      .sort((a, b) => (a.market < b.market ? -1 : 1)),
    // By market, YES before NO.
    positions: rows.sort((a, b) =>
      a.market === b.market ? (a.outcome === b.outcome ? 0 : a.outcome === 'YES' ? -1 : 1) : a.market < b.market ? -1 : 1,
    ),
  };
}

/** An amount in JSON: decimal strings beside the raw integers. */
export interface AmountsJson {
  held: string;
  heldRaw: string;
  locked: string;
  lockedRaw: string;
  free: string;
  freeRaw: string;
}

/** The JSON of `pm balance` and of the library's funds.balance(). */
export interface BalanceJson {
  profileId: number;
  wallet: string | null;
  onBehalfOf: number | null;
  source: 'exchange' | 'chain';
  chainId?: number;
  rpcUrl?: string;
  eth?: string;
  ethRaw?: string;
  usdc: AmountsJson;
  markets?: { market: string; locked: string; lockedRaw: string; orders: number }[];
  positions: (AmountsJson & { market: string; outcome: 'YES' | 'NO'; tokenId: string })[];
}

const amountsJson = (a: Amounts): AmountsJson => ({
  held: formatUnits(a.held),
  heldRaw: a.held.toString(),
  locked: formatUnits(a.locked),
  lockedRaw: a.locked.toString(),
  free: formatUnits(a.free),
  freeRaw: a.free.toString(),
});

/** `pm --json balance` and the library's funds.balance(): decimal strings beside `…Raw` integers. */
export function balanceJson(b: Balance, o: { byMarket?: boolean | undefined } = {}): BalanceJson {
  return {
    profileId: b.profileId,
    wallet: b.wallet,
    onBehalfOf: b.onBehalfOf,
    source: b.source,
    ...(b.chain
      ? { chainId: b.chain.chainId, rpcUrl: b.chain.rpcUrl, eth: formatUnits(b.chain.eth, 18), ethRaw: b.chain.eth.toString() }
      : {}),
    usdc: amountsJson(b.usdc),
    ...(o.byMarket
      ? {
          markets: b.markets.map((m) => ({
            market: m.market,
            locked: formatUnits(m.locked),
            lockedRaw: m.locked.toString(),
            orders: m.orders,
          })),
        }
      : {}),
    positions: b.positions.map((p) => ({ market: p.market, outcome: p.outcome, tokenId: p.tokenId, ...amountsJson(p) })),
  };
}
