// Portfolio reads: positions flattened to one row per market and outcome (bigint raw units),
// the realised-PnL chart, trades, and history with cursor paging.
import type { ApiClient } from './http.js';
import { formatUnits, ONE, parseUnits, priceFromWire, rawFromWire } from './money.js';
import { NetworkError } from './errors.js';
import { isObj, textOrNull } from './wire.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface PositionRow {
  market: string;
  title: string;
  conditionId: string | null;
  group: string | null;
  outcome: 'YES' | 'NO';
  /** The outcome's position (token) id, when the exchange gives the market's ids. */
  tokenId: string | null;
  status: string;
  resolved: boolean;
  won: boolean | null;
  /** Resolved, payout posted, winning shares held. */
  redeemable: boolean;
  /** Resolved but the payout is not posted yet. */
  payoutPending: boolean;
  shares: bigint;
  cost: bigint;
  /** Average price in micro-units (cost / shares). */
  avgPrice: bigint;
  price: bigint;
  value: bigint;
  unrealisedPnl: bigint;
  realisedPnl: bigint;
  openOrders: number;
  lockedCollateral: bigint;
}

function rowsOf(item: Obj): PositionRow[] {
  const m = obj(item['market']);
  const pos = obj(item['positions']);
  const bal = obj(item['tokensBalance']);
  const latest = obj(item['latestTrade']);
  const orders = obj(item['orders']);
  const live = arr(orders['liveOrders']).map(obj);
  const status = textOrNull(m['status']) ?? '';
  const winning = typeof m['winning_index'] === 'number' ? (m['winning_index'] as number) : null;
  const resolved = status === 'RESOLVED' && winning !== null;
  const posted = resolved && Array.isArray(m['payout_numerators']);
  const yesPrice = priceFromWire(latest['latestYesPrice']) ?? 0n;
  const group = obj(m['group']);
  // snake_case per the contract; camelCase as some clients show it
  const ids = arr(m['position_ids'] ?? m['positionIds']);
  const out: PositionRow[] = [];
  for (const [key, index] of [
    ['yes', 0],
    ['no', 1],
  ] as const) {
    const p = obj(pos[key]);
    const shares = rawFromWire(bal[key]);
    const cost = rawFromWire(p['cost']);
    const realised = rawFromWire(p['realisedPnl']);
    const outcome = key === 'yes' ? 'YES' : 'NO';
    const nOrders = live.filter((o) => o['token'] === outcome).length;
    if (shares === 0n && cost === 0n && realised === 0n && nOrders === 0) continue;
    const won = resolved ? winning === index : null;
    out.push({
      market: textOrNull(m['slug']) ?? textOrNull(m['id']) ?? '',
      title: textOrNull(m['title']) ?? '',
      conditionId: textOrNull(m['condition_id']) ?? textOrNull(m['conditionId']),
      group: textOrNull(group['slug']),
      outcome,
      tokenId: typeof ids[index] === 'string' ? ids[index] : null,
      status,
      resolved,
      won,
      redeemable: posted && won === true && shares > 0n,
      payoutPending: resolved && !posted,
      shares,
      cost,
      avgPrice: rawFromWire(p['fillPrice']),
      price: index === 0 ? yesPrice : ONE - yesPrice,
      value: rawFromWire(p['marketValue']),
      unrealisedPnl: rawFromWire(p['unrealizedPnl']),
      realisedPnl: realised,
      openOrders: nOrders,
      lockedCollateral: lockedBy(live, outcome),
    });
  }
  return out;
}

/** USDC locked by the LIVE BUY orders of one outcome: ceil(remaining × price) each, as the exchange locks it. */
function lockedBy(live: Obj[], outcome: string): bigint {
  let sum = 0n;
  for (const o of live) {
    if (o['side'] !== 'BUY' || o['token'] !== outcome) continue;
    const price = priceFromWire(o['price']) ?? 0n;
    sum += (rawFromWire(o['remainingSize']) * price + ONE - 1n) / ONE;
  }
  return sum;
}

export interface Positions {
  rows: PositionRow[];
  liveOrders: Obj[];
  raw: Obj;
}

/** GET /portfolio/positions, flattened (clob[] and group[] children alike). */
export async function fetchPositions(api: ApiClient): Promise<Positions> {
  const res = await api.request<unknown>({ method: 'GET', path: '/portfolio/positions', auth: 'auto' });
  // An answer cut short or of another shape is no empty portfolio ("nothing to redeem"): exit 7.
  if (!isObj(res.data) || !Array.isArray(res.data['clob']))
    throw new NetworkError(`the exchange answered GET /portfolio/positions with HTTP ${res.status}, but pm cannot read the answer`, {
      status: res.status,
      hint: 'Run the same command again.',
    });
  const raw = res.data;
  const items = [...arr(raw['clob']).map(obj), ...arr(raw['group']).flatMap((g) => arr(obj(g)['clob']).map(obj))];
  const rows = items.flatMap(rowsOf);
  const liveOrders = items.flatMap((it) =>
    arr(obj(it['orders'])['liveOrders']).map((o) => ({ ...obj(o), market: textOrNull(obj(it['market'])['slug']) ?? '' })),
  );
  return { rows, liveOrders, raw };
}

export interface PnlChart {
  timeframe: string;
  /** Dollar values in raw USDC units (the exchange sends them as JSON numbers). */
  points: { timestamp: number; value: bigint }[];
  currentValue: bigint;
  previousValue: bigint;
  percentChange: number;
  realised: bigint | null;
  unrealised: bigint | null;
}

/**
 * A dollar amount the exchange sends as a JSON number (110.5, -3.25) or decimal string, in raw
 * USDC units, exactly via its decimal text (cut at 6 places); anything else is 0.
 * @example usdFromWire(-3.25) // -3250000n
 */
export function usdFromWire(v: unknown): bigint {
  const text = typeof v === 'number' && Number.isFinite(v) ? v.toFixed(6) : typeof v === 'string' ? v.trim() : '';
  const m = /^(-?)(\d+(?:\.\d{0,6})?)\d*$/.exec(text);
  if (!m) return 0n;
  const raw = parseUnits(m[2] ?? '0');
  return m[1] === '-' ? -raw : raw;
}

export async function fetchPnl(api: ApiClient, timeframe: string): Promise<PnlChart> {
  const d = obj((await api.request<unknown>({ method: 'GET', path: '/portfolio/pnl-chart', query: { timeframe }, auth: 'auto' })).data);
  const cur = obj(d['current']);
  const raw = (k: string): bigint | null => {
    const v = obj(cur[k]);
    return typeof v['raw'] === 'string' ? rawFromWire(v['raw']) : null;
  };
  return {
    timeframe: textOrNull(d['timeframe']) ?? timeframe,
    points: arr(d['data'])
      .map(obj)
      .map((p) => ({ timestamp: Number(p['timestamp']), value: usdFromWire(p['value']) })),
    currentValue: usdFromWire(d['currentValue']),
    previousValue: usdFromWire(d['previousValue']),
    percentChange: Number(d['percentChange'] ?? 0),
    realised: raw('realised'),
    unrealised: raw('unrealised'),
  };
}

export async function fetchTrades(api: ApiClient): Promise<Obj[]> {
  const d = (await api.request<unknown>({ method: 'GET', path: '/portfolio/trades', auth: 'auto' })).data;
  return arr(Array.isArray(d) ? d : obj(d)['data']).map(obj);
}

/** One fill of `portfolio.trades()`: the exchange's trade with money as a decimal string plus …Raw (the object whole in `raw`). */
export interface TradeJson {
  id: string | null;
  market: string;
  side: 'BUY' | 'SELL' | null;
  outcome: 'YES' | 'NO' | null;
  shares: string;
  sharesRaw: string;
  /** USDC per share, as a decimal. */
  price: string | null;
  usd: string;
  usdRaw: string;
  fee: string;
  feeRaw: string;
  /** ISO 8601, or epoch seconds as text, as the exchange gave it. */
  time: string | null;
  txHash: string | null;
  orderId: string | null;
  raw: Obj;
}

const outcomeOf = (v: unknown): 'YES' | 'NO' | null => (v === 0 ? 'YES' : v === 1 ? 'NO' : null);
const sideOf = (v: unknown): 'BUY' | 'SELL' | null => {
  const s = typeof v === 'string' ? v.toUpperCase() : '';
  return s.endsWith('BUY') ? 'BUY' : s.endsWith('SELL') ? 'SELL' : null;
};

/** A raw trade of GET /portfolio/trades as TradeJson. */
export function tradeJson(t: Obj): TradeJson {
  const shares = rawFromWire(t['outcomeTokenAmount']);
  const usd = rawFromWire(t['collateralAmount']);
  const fee = rawFromWire(t['fee']);
  const price = priceFromWire(t['outcomeTokenPrice']);
  return {
    id: textOrNull(t['id']),
    market: textOrNull(obj(t['market'])['slug']) ?? '',
    side: sideOf(t['side'] ?? t['strategy']),
    outcome: outcomeOf(t['outcomeIndex']),
    shares: formatUnits(shares),
    sharesRaw: shares.toString(),
    price: price === null ? null : formatUnits(price),
    usd: formatUnits(usd),
    usdRaw: usd.toString(),
    fee: formatUnits(fee),
    feeRaw: fee.toString(),
    time: textOrNull(t['blockTimestamp']),
    txHash: textOrNull(t['transactionHash']),
    orderId: textOrNull(t['orderId']),
    raw: t,
  };
}

/** One entry of `portfolio.history()`: a trade, deposit, withdrawal or claim, money as a decimal plus …Raw (the object whole in `raw`). */
export interface HistoryEntryJson {
  id: string | null;
  /** The exchange's strategy: Buy, Sell, Limit Buy, Limit Sell, Deposit, Withdraw, Claim… */
  kind: string;
  market: string | null;
  outcome: 'YES' | 'NO' | null;
  shares: string | null;
  sharesRaw: string | null;
  usd: string;
  usdRaw: string;
  /** Epoch seconds. */
  timestamp: number | null;
  txHash: string | null;
  raw: Obj;
}

/** A raw history entry as HistoryEntryJson. */
export function historyEntryJson(e: Obj): HistoryEntryJson {
  const shares = e['outcomeTokenAmount'] === undefined ? null : rawFromWire(e['outcomeTokenAmount']);
  const usd = rawFromWire(e['collateralAmount']);
  const ts = e['blockTimestamp'];
  return {
    id: textOrNull(e['id']),
    kind: textOrNull(e['strategy']) ?? '',
    market: textOrNull(obj(e['market'])['slug']),
    outcome: outcomeOf(e['outcomeIndex']),
    shares: shares === null ? null : formatUnits(shares),
    sharesRaw: shares === null ? null : shares.toString(),
    usd: formatUnits(usd),
    usdRaw: usd.toString(),
    timestamp: typeof ts === 'number' ? ts : null,
    txHash: textOrNull(e['transactionHash']),
    raw: e,
  };
}

/**
 * Pages through GET /portfolio/history (cursor= empty on the first page), yielding each entry;
 * stops at the last page, after `max` entries, or at the first entry older than `since` (ms).
 */
export async function* historyEntries(
  api: ApiClient,
  o: { limit: number; max?: number | undefined; since?: number | undefined },
): AsyncGenerator<Obj> {
  let cursor = '';
  let n = 0;
  for (;;) {
    const page = o.max === undefined ? o.limit : Math.min(o.limit, o.max - n);
    const d = obj(
      (await api.request<unknown>({ method: 'GET', path: '/portfolio/history', query: { cursor, limit: page }, auth: 'auto' })).data,
    );
    for (const e of arr(d['data']).map(obj)) {
      if (o.since !== undefined && typeof e['blockTimestamp'] === 'number' && e['blockTimestamp'] * 1000 < o.since) return;
      yield e;
      n++;
      if (o.max !== undefined && n >= o.max) return;
    }
    const next = d['nextCursor'];
    if (typeof next !== 'string' || next === '') return;
    cursor = next;
  }
}

/** One position as --json prints it: decimals for people, *Raw integer strings for programs. */
export interface PositionJson {
  market: string;
  title: string;
  outcome: 'YES' | 'NO';
  status: string;
  conditionId: string | null;
  group: string | null;
  shares: string;
  sharesRaw: string;
  avgPrice: string;
  avgPriceRaw: string;
  cost: string;
  costRaw: string;
  price: string;
  value: string;
  valueRaw: string;
  unrealisedPnl: string;
  unrealisedPnlRaw: string;
  realisedPnl: string;
  realisedPnlRaw: string;
  openOrders: number;
  lockedCollateral: string;
  lockedCollateralRaw: string;
  resolved: boolean;
  won: boolean | null;
  redeemable: boolean;
  payoutPending: boolean;
}

function positionJson(r: PositionRow): PositionJson {
  return {
    market: r.market,
    title: r.title,
    outcome: r.outcome,
    status: r.status,
    conditionId: r.conditionId,
    group: r.group,
    shares: formatUnits(r.shares),
    sharesRaw: r.shares.toString(),
    avgPrice: formatUnits(r.avgPrice),
    avgPriceRaw: r.avgPrice.toString(),
    cost: formatUnits(r.cost),
    costRaw: r.cost.toString(),
    price: formatUnits(r.price),
    value: formatUnits(r.value),
    valueRaw: r.value.toString(),
    unrealisedPnl: formatUnits(r.unrealisedPnl),
    unrealisedPnlRaw: r.unrealisedPnl.toString(),
    realisedPnl: formatUnits(r.realisedPnl),
    realisedPnlRaw: r.realisedPnl.toString(),
    openOrders: r.openOrders,
    lockedCollateral: formatUnits(r.lockedCollateral),
    lockedCollateralRaw: r.lockedCollateral.toString(),
    resolved: r.resolved,
    won: r.won,
    redeemable: r.redeemable,
    payoutPending: r.payoutPending,
  };
}

export interface PositionTotals {
  cost: bigint;
  value: bigint;
  unrealisedPnl: bigint;
  realisedPnl: bigint;
  lockedCollateral: bigint;
}

/** The totals line of a set of positions. */
export function positionTotals(rows: PositionRow[]): PositionTotals {
  const sum = (f: (r: PositionRow) => bigint): bigint => rows.reduce((a, r) => a + f(r), 0n);
  return {
    cost: sum((r) => r.cost),
    value: sum((r) => r.value),
    unrealisedPnl: sum((r) => r.unrealisedPnl),
    realisedPnl: sum((r) => r.realisedPnl),
    lockedCollateral: sum((r) => r.lockedCollateral),
  };
}

/** The totals of `pm portfolio positions --json`, each a decimal plus its …Raw. */
export type PositionTotalsJson = { [K in keyof PositionTotals | `${keyof PositionTotals}Raw`]: string };

/** `pm portfolio positions --json`: the rows and their totals, each amount also as a *Raw string. */
export function positionsJson(rows: PositionRow[]): { positions: PositionJson[]; totals: PositionTotalsJson } {
  const t = positionTotals(rows);
  const pair = <K extends keyof PositionTotals>(k: K) =>
    ({ [k]: formatUnits(t[k]), [`${k}Raw`]: t[k].toString() }) as Record<K | `${K}Raw`, string>;
  return {
    positions: rows.map(positionJson),
    totals: { ...pair('cost'), ...pair('value'), ...pair('unrealisedPnl'), ...pair('realisedPnl'), ...pair('lockedCollateral') },
  };
}

/** One point of the PnL series: epoch ms (as the exchange gives it), the same time in ISO 8601 (`at`), and the dollar value as a decimal plus …Raw. */
export interface PnlPointJson {
  timestamp: number;
  at: string | null;
  value: string;
  valueRaw: string;
}

/** `pm portfolio pnl --json` (and `portfolio.pnl()`): the series, every dollar amount a decimal plus …Raw. */
export interface PnlJson {
  timeframe: string;
  points: PnlPointJson[];
  currentValue: string;
  currentValueRaw: string;
  previousValue: string;
  previousValueRaw: string;
  /** A percentage, as the exchange gives it (not money). */
  percentChange: number;
  realised: string | null;
  realisedRaw: string | null;
  unrealised: string | null;
  unrealisedRaw: string | null;
}

/** `pm portfolio pnl --json`: the series, and realised/unrealised as decimals plus raw. */
export function pnlJson(pnl: PnlChart): PnlJson {
  return {
    timeframe: pnl.timeframe,
    points: pnl.points.map((p) => ({
      timestamp: p.timestamp,
      at: Number.isFinite(p.timestamp) ? new Date(p.timestamp).toISOString() : null,
      value: formatUnits(p.value),
      valueRaw: p.value.toString(),
    })),
    currentValue: formatUnits(pnl.currentValue),
    currentValueRaw: pnl.currentValue.toString(),
    previousValue: formatUnits(pnl.previousValue),
    previousValueRaw: pnl.previousValue.toString(),
    percentChange: pnl.percentChange,
    realised: pnl.realised === null ? null : formatUnits(pnl.realised),
    realisedRaw: pnl.realised?.toString() ?? null,
    unrealised: pnl.unrealised === null ? null : formatUnits(pnl.unrealised),
    unrealisedRaw: pnl.unrealised?.toString() ?? null,
  };
}
