// The portfolio as a projection of the ledger: positions with average cost basis and PnL, the
// realised-PnL chart, trades and history all derive from a profile's ledger (projectAccount)
// plus market prices and LIVE orders. Nothing here is stored, so nothing can drift.
//
// Cost basis is the average cost: a buy adds its USDC (fee included) to the position's cost; a
// sale or redemption removes cost × sold / held (integer division) and realises proceeds (after
// fee) minus that cost. Value is shares × mark, where the mark is the last trade's price (YES;
// NO = 1 − YES), or 1 / 0 once a market resolves. Unrealised PnL = value − remaining cost.
import { buyLock, formatRaw, ONE } from './orders/amounts.js';
import { userOrderView } from './orders/views.js';
import { projectAccount, type ProjectedAccount, type ProjectedPosition } from './ledger.js';
import type { Hex, LedgerEntry, MarketRecord, OrderRecord, Profile, SandboxState } from './types.js';

export const USDC_ADDRESS: Hex = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The wallet a profile trades from: its server wallet when it has one, else its address. */
export function tradingWallet(p: Profile): Hex {
  return p.serverWalletAddress ?? p.address;
}

/** A profile's ledger (empty when it has none). */
export function ledgerOf(state: SandboxState, profileId: number): LedgerEntry[] {
  return state.ledger?.[String(profileId)] ?? [];
}

/** The market a position token belongs to, with its outcome index. */
function marketOfToken(state: SandboxState, tokenId: string): { market: MarketRecord; index: 0 | 1 } | null {
  for (const m of state.markets) {
    if (!m.positionIds) continue;
    if (m.positionIds[0] === tokenId) return { market: m, index: 0 };
    if (m.positionIds[1] === tokenId) return { market: m, index: 1 };
  }
  return null;
}

/** The mark of a market's YES token in micro-units: 1/0 once resolved, else the last trade. */
export function yesMark(m: MarketRecord): bigint {
  if (m.status === 'RESOLVED' && m.winningOutcomeIndex !== null) return m.winningOutcomeIndex === 0 ? ONE : 0n;
  return m.lastTradePrice ?? ONE / 2n;
}

/** Is the market's payout posted, so winning shares can be redeemed? */
export function payoutPosted(m: MarketRecord): boolean {
  return m.status === 'RESOLVED' && m.winningOutcomeIndex !== null && m.payoutPending !== true;
}

const EMPTY: ProjectedPosition = { shares: 0n, cost: 0n, realisedPnl: 0n };

function sideView(p: ProjectedPosition, price: bigint): Record<string, string> {
  const value = (p.shares * price) / ONE;
  return {
    cost: p.cost.toString(),
    fillPrice: p.shares > 0n ? ((p.cost * ONE) / p.shares).toString() : '0',
    marketValue: value.toString(),
    realisedPnl: p.realisedPnl.toString(),
    unrealizedPnl: (value - p.cost).toString(),
  };
}

/**
 * The clob market object of a position: the contract's snake_case fields, plus the camelCase
 * fields the official TS SDK types as required or expected (`PositionMarket`: id, slug, closed,
 * conditionId, winningOutcomeIndex; wire-facts §10 lists both shapes).
 */
function positionMarket(state: SandboxState, m: MarketRecord): Record<string, unknown> {
  const resolved = m.status === 'RESOLVED' && m.winningOutcomeIndex !== null;
  const group = m.groupSlug ? state.markets.find((g) => g.slug === m.groupSlug) : undefined;
  return {
    id: m.id,
    slug: m.slug,
    address: m.address,
    title: m.title,
    proxyTitle: null,
    description: m.description,
    question_id: m.negRiskRequestId,
    condition_id: m.conditionId,
    position_ids: m.positionIds,
    outcome_slot_count: 2,
    winning_index: resolved ? m.winningOutcomeIndex : null,
    // Null until the payout is posted on chain: a resolved market with null here is not redeemable yet.
    payout_numerators: payoutPosted(m) ? (m.winningOutcomeIndex === 0 ? [1, 0] : [0, 1]) : null,
    status: m.status,
    og_url: null,
    image_url: null,
    deadline: new Date(m.expirationTimestamp).toISOString(),
    hidden: false,
    txHash: null,
    resolutionTxHash: m.resolutionTxHash ?? null,
    priority_index: m.id,
    closed: m.status === 'RESOLVED' || m.expired,
    conditionId: m.conditionId,
    winningOutcomeIndex: resolved ? m.winningOutcomeIndex : null,
    ...(group ? { group: { id: group.id, slug: group.slug, title: group.title } } : {}),
  };
}

function clobItem(
  state: SandboxState,
  profile: Profile,
  m: MarketRecord,
  acct: ProjectedAccount,
  live: OrderRecord[],
): Record<string, unknown> {
  const [yesId, noId] = m.positionIds ?? ['', ''];
  const yes = acct.positions[yesId] ?? EMPTY;
  const no = acct.positions[noId] ?? EMPTY;
  const mark = yesMark(m);
  let locked = 0n;
  for (const o of live) if (o.side === 'BUY') locked += buyLock(o.remainingSize, o.price ?? 0n);
  return {
    market: positionMarket(state, m),
    makerAddress: tradingWallet(profile),
    positions: { yes: sideView(yes, mark), no: sideView(no, ONE - mark) },
    tokensBalance: { yes: yes.shares.toString(), no: no.shares.toString() },
    latestTrade: {
      latestYesPrice: Number(formatRaw(mark)),
      latestNoPrice: Number(formatRaw(ONE - mark)),
      outcomeTokenPrice: Number(formatRaw(mark)),
    },
    orders: { liveOrders: live.map((o) => userOrderView(state, o)), totalCollateralLocked: locked.toString() },
    rewards: { epochs: [], isEarning: false },
  };
}

/** GET /portfolio/positions for one profile. */
export function positionsView(state: SandboxState, profile: Profile): Record<string, unknown> {
  const acct = projectAccount(ledgerOf(state, profile.id));
  const liveBySlug = new Map<string, OrderRecord[]>();
  for (const o of state.orders) {
    if (o.ownerId !== profile.id || o.status !== 'LIVE') continue;
    const l = liveBySlug.get(o.marketSlug) ?? [];
    l.push(o);
    liveBySlug.set(o.marketSlug, l);
  }
  const clob: Record<string, unknown>[] = [];
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const m of state.markets) {
    if (!m.positionIds) continue;
    const touched = m.positionIds.some((t) => {
      const p = acct.positions[t];
      return p !== undefined && (p.shares !== 0n || p.cost !== 0n || p.realisedPnl !== 0n);
    });
    const live = liveBySlug.get(m.slug) ?? [];
    if (!touched && live.length === 0) continue;
    const item = clobItem(state, profile, m, acct, live);
    if (m.groupSlug) {
      const list = groups.get(m.groupSlug) ?? [];
      list.push(item);
      groups.set(m.groupSlug, list);
    } else clob.push(item);
  }
  const group = [...groups.entries()].map(([slug, items]) => {
    const g = state.markets.find((x) => x.slug === slug);
    return {
      market: {
        id: g?.id ?? null,
        slug,
        title: g?.title ?? slug,
        negRiskRequestId: g?.negRiskRequestId ?? null,
        status: g?.status ?? null,
      },
      clob: items,
    };
  });
  return {
    rewards: { todaysRewards: '0', totalUnpaidRewards: '0', totalUserRewardsLastEpoch: '0', rewardsByEpoch: [], rewardsChartData: [] },
    points: 0,
    accumulativePoints: 0,
    amm: [],
    clob,
    group,
  };
}

/** Realised PnL of a projection (raw USDC). */
function realised(acct: ProjectedAccount): bigint {
  let sum = 0n;
  for (const p of Object.values(acct.positions)) sum += p.realisedPnl;
  return sum;
}

/** Unrealised PnL of a projection at current marks (raw USDC). */
function unrealised(state: SandboxState, acct: ProjectedAccount): bigint {
  let sum = 0n;
  for (const [tokenId, p] of Object.entries(acct.positions)) {
    if (p.shares === 0n && p.cost === 0n) continue;
    const at = marketOfToken(state, tokenId);
    if (!at) continue;
    const mark = at.index === 0 ? yesMark(at.market) : ONE - yesMark(at.market);
    sum += (p.shares * mark) / ONE - p.cost;
  }
  return sum;
}

export const TIMEFRAMES: Record<string, { spanMs: number; points: number } | null> = {
  '1d': { spanMs: 86_400_000, points: 24 },
  '7d': { spanMs: 7 * 86_400_000, points: 28 },
  '30d': { spanMs: 30 * 86_400_000, points: 30 },
  all: null,
};

const usd = (raw: bigint): number => Number(formatRaw(raw));
const money = (raw: bigint): { raw: string; formatted: string } => ({ raw: raw.toString(), formatted: formatRaw(raw) });

/** GET /portfolio/pnl-chart: realised PnL over the window, one point per step, from the ledger. */
export function pnlChart(state: SandboxState, profileId: number, timeframe: string, nowMs: number): Record<string, unknown> {
  const ledger = ledgerOf(state, profileId);
  const times = ledger.map((e) => Date.parse(e.at));
  const tf = TIMEFRAMES[timeframe];
  let start: number;
  let points: number;
  if (tf) {
    start = nowMs - tf.spanMs;
    points = tf.points;
  } else {
    start = Math.min(times[0] ?? nowMs, nowMs - 3_600_000);
    points = 30;
  }
  /** Realised PnL from the entries booked at or before t (the ledger is in time order). */
  const realisedAt = (t: number): bigint => {
    let n = 0;
    while (n < ledger.length && (times[n] ?? 0) <= t) n++;
    return realised(projectAccount(ledger.slice(0, n)));
  };
  const step = (nowMs - start) / points;
  const data: { timestamp: number; value: number; valueRaw: string }[] = [];
  for (let i = 1; i <= points; i++) {
    const t = i === points ? nowMs : Math.round(start + step * i);
    const v = realisedAt(t);
    data.push({ timestamp: t, value: usd(v), valueRaw: v.toString() });
  }
  const acct = projectAccount(ledger);
  const cur = realised(acct);
  const prev = realisedAt(start);
  const unr = unrealised(state, acct);
  const pct = prev === 0n ? 0 : Math.round((Number(cur - prev) / Math.abs(Number(prev))) * 10_000) / 100;
  return {
    timeframe,
    data,
    currentValue: usd(cur),
    previousValue: usd(prev),
    percentChange: pct,
    current: { realised: money(cur), unrealised: money(unr), total: money(cur + unr) },
  };
}

function tradeMarket(state: SandboxState, m: MarketRecord): Record<string, unknown> {
  return {
    id: m.id,
    slug: m.slug,
    title: m.title,
    conditionId: m.conditionId,
    expirationDate: new Date(m.expirationTimestamp).toISOString(),
    closed: m.status === 'RESOLVED' || m.expired,
    collateral: { symbol: 'USDC', id: USDC_ADDRESS, decimals: 6 },
    ...(m.groupSlug
      ? { group: { slug: m.groupSlug, title: state.markets.find((g) => g.slug === m.groupSlug)?.title ?? m.groupSlug } }
      : {}),
  };
}

/** The settlement tx hash of a fill, when the trade has one yet. */
function fillTx(state: SandboxState, e: LedgerEntry): string | null {
  if (!e.orderId) return null;
  const o = state.orders.find((x) => x.id === e.orderId);
  const t = o?.trades?.find((x) => x.tradeEventId === e.tradeId || x.id === e.matchId);
  return t?.txHash ?? null;
}

/** GET /portfolio/trades: the profile's fills, newest first. */
export function tradesView(state: SandboxState, profileId: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const ledger = ledgerOf(state, profileId);
  for (let i = ledger.length - 1; i >= 0; i--) {
    const e = ledger[i];
    if (e?.kind !== 'trade' || !e.tokenId) continue;
    const at = marketOfToken(state, e.tokenId);
    if (!at) continue;
    const shares = e.shares ?? 0n;
    const fee = e.fee ?? 0n;
    const net = e.side === 'BUY' ? e.usdc + fee : e.usdc - fee;
    out.push({
      id: `${profileId}-${i}`,
      blockTimestamp: e.at,
      market: tradeMarket(state, at.market),
      outcomeIndex: at.index,
      outcomeTokenAmounts: at.index === 0 ? [shares.toString(), '0'] : ['0', shares.toString()],
      outcomeTokenAmount: shares.toString(),
      outcomeTokenNetCost: (e.side === 'BUY' ? net : -net).toString(),
      collateralAmount: e.usdc.toString(),
      outcomeTokenPrice: shares > 0n ? formatRaw((e.usdc * ONE) / shares) : '0',
      strategy: e.side === 'BUY' ? 'Buy' : 'Sell',
      transactionHash: fillTx(state, e),
      // sandbox additions
      side: e.side,
      role: e.role,
      fee: fee.toString(),
      orderId: e.orderId ?? null,
      tradeId: e.tradeId ?? null,
    });
  }
  return out;
}

const STRATEGY: Record<string, string> = { deposit: 'Deposit', withdrawal: 'Withdraw', redemption: 'Claim' };

/** One history item of a ledger entry (grants are the seed's opening positions: not history). */
function historyItem(state: SandboxState, profileId: number, i: number, e: LedgerEntry): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: `${profileId}-${i}`,
    blockTimestamp: Math.floor(Date.parse(e.at) / 1000),
    at: e.at,
    collateralAmount: e.usdc.toString(),
    strategy:
      e.kind === 'trade'
        ? e.role === 'maker'
          ? e.side === 'BUY'
            ? 'Limit Buy'
            : 'Limit Sell'
          : e.side === 'BUY'
            ? 'Buy'
            : 'Sell'
        : (STRATEGY[e.kind] ?? e.kind),
    transactionHash: e.txHash ?? (e.kind === 'trade' ? fillTx(state, e) : null),
  };
  if (e.tokenId) {
    const at = marketOfToken(state, e.tokenId);
    if (at) {
      // History's market snapshot carries its id as a string (HistoryMarket in both official SDKs).
      item['market'] = { ...tradeMarket(state, at.market), id: String(at.market.id) };
      item['outcomeIndex'] = at.index;
    }
    const shares = e.shares ?? 0n;
    item['outcomeTokenAmount'] = shares.toString();
    item['outcomeTokenPrice'] = shares > 0n ? formatRaw((e.usdc * ONE) / shares) : '0';
  }
  if (e.fee !== undefined) item['fee'] = e.fee.toString();
  if (e.destination) item['destination'] = e.destination;
  return item;
}

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

/** An opaque cursor for history paging: the ledger index the next page starts below. */
function encodeCursor(index: number): string {
  return Buffer.from(`h:${index}`).toString('base64url');
}

/** The ledger index of a cursor, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  const m = /^h:(\d{1,12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

/**
 * GET /portfolio/history: newest first, `limit` per page. The cursor is a position in the
 * append-only ledger, so entries booked while a client pages never shift a page (no duplicate,
 * no gap); they show up on a fresh first page.
 */
export function historyPage(
  state: SandboxState,
  profileId: number,
  before: number | null,
  limit: number,
): { data: Record<string, unknown>[]; nextCursor: string | null } {
  const ledger = ledgerOf(state, profileId);
  const data: Record<string, unknown>[] = [];
  let i = Math.min(before ?? ledger.length, ledger.length) - 1;
  for (; i >= 0 && data.length < limit; i--) {
    const e = ledger[i];
    if (!e || e.kind === 'grant') continue;
    data.push(historyItem(state, profileId, i, e));
  }
  // Anything older left? (skip grants, which are not history)
  let more = false;
  for (let j = i; j >= 0; j--) {
    if (ledger[j]?.kind !== 'grant') {
      more = true;
      break;
    }
  }
  return { data, nextCursor: more ? encodeCursor(i + 1) : null };
}
