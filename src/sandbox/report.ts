// What one profile's trading came to, per market and in total (GET /__sandbox/report; `pm
// sandbox report`): orders placed, filled and cancelled, volume, fees, realised and unrealised
// PnL, the PnL curve and its maximum drawdown. All of it from the profile's ledger (the same fold
// as GET /portfolio/positions, so the figures agree with it to the raw unit), its orders and the
// markets' price histories. Pure: state in, figures out.
//
// The curve: one point at each moment the profile's PnL can change (one of its ledger entries, a
// trade in a market it touched, a resolution), from its first ledger entry to `nowMs`. At each
// point a position is marked at its market's last trade price up to then (1 or 0 from the
// resolution on); the last point marks at the market's current price, exactly as the positions
// route does. Before a market's first recorded trade, its first recorded price stands in.
// Drawdown is measured from the running peak, the start (PnL 0) included.
import { foldEntry, type ProjectedAccount } from './ledger.js';
import { ONE } from './orders/amounts.js';
import { ledgerOf, yesMark } from './portfolio.js';
import type { LedgerEntry, MarketRecord, Profile, SandboxState } from './types.js';

/** Counts and sums shared by a market's line and the total (money in raw USDC units). */
export interface ReportFigures {
  placed: number;
  /** Orders with at least one fill (as taker or maker). */
  filled: number;
  /** Orders that ended CANCELED (by the owner, by self-trade prevention, by a resolution). */
  cancelled: number;
  /** Ledger fills: a taker order's fills count once, a maker order once per taker that hit it. */
  fills: number;
  /** USDC traded, before fees. */
  volume: bigint;
  fees: bigint;
  realisedPnl: bigint;
  unrealisedPnl: bigint;
  pnl: bigint;
  maxDrawdown: bigint;
}

export interface MarketReport extends ReportFigures {
  slug: string;
  title: string;
  resolved: boolean;
  /** The YES mark the unrealised PnL is taken at (micro-units): last trade, or 1/0 once resolved. */
  yesPrice: bigint;
}

export interface ProfileReport {
  profileId: number;
  name: string;
  markets: MarketReport[];
  total: ReportFigures;
  curve: { t: number; pnl: bigint }[];
}

/** A market of the report while the curve is walked: its mark and its PnL so far. */
interface Walked {
  m: MarketRecord;
  yes: string;
  no: string;
  mark: bigint;
  pnl: bigint;
  peak: bigint;
  drawdown: bigint;
}

type Step = { t: number; entry: LedgerEntry } | { t: number; market: Walked; price: bigint };

/** PnL of a market's two positions at its current mark: realised, plus value − remaining cost. */
function marketPnl(acct: ProjectedAccount, w: Walked): { realised: bigint; unrealised: bigint } {
  let realised = 0n;
  let unrealised = 0n;
  for (const [token, mark] of [
    [w.yes, w.mark],
    [w.no, ONE - w.mark],
  ] as const) {
    const p = acct.positions[token];
    if (!p) continue;
    realised += p.realisedPnl;
    unrealised += (p.shares * mark) / ONE - p.cost;
  }
  return { realised, unrealised };
}

/** The markets a profile's report covers: every one it holds, held, or placed an order in. */
function reportMarkets(state: SandboxState, ledger: readonly LedgerEntry[], profileId: number): Walked[] {
  const tokens = new Set(ledger.map((e) => e.tokenId).filter((t) => t !== undefined));
  const slugs = new Set(state.orders.filter((o) => o.ownerId === profileId).map((o) => o.marketSlug));
  const out: Walked[] = [];
  for (const m of state.markets) {
    if (!m.positionIds) continue;
    const [yes, no] = m.positionIds;
    if (!tokens.has(yes) && !tokens.has(no) && !slugs.has(m.slug)) continue;
    const first = m.priceHistory[0]?.price ?? yesMark(m);
    out.push({ m, yes, no, mark: first, pnl: 0n, peak: 0n, drawdown: 0n });
  }
  return out;
}

/** Everything that moves the profile's PnL, in time order (ledger order kept within a time). */
function steps(ledger: readonly LedgerEntry[], walked: readonly Walked[]): Step[] {
  const out: Step[] = ledger.map((entry) => ({ t: Date.parse(entry.at), entry }));
  for (const w of walked) {
    for (const h of w.m.priceHistory) out.push({ t: h.t, market: w, price: h.price });
    if (w.m.status === 'RESOLVED' && w.m.winningOutcomeIndex !== null)
      out.push({ t: Date.parse(w.m.updatedAt), market: w, price: yesMark(w.m) });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** Takes a new value into a running peak and maximum drawdown. */
function track(d: { peak: bigint; drawdown: bigint }, v: bigint): void {
  if (v > d.peak) d.peak = v;
  if (d.peak - v > d.drawdown) d.drawdown = d.peak - v;
}

/** Walks the steps: the curve of total PnL, and each market's drawdown on the way. */
function walk(
  ledger: readonly LedgerEntry[],
  walked: Walked[],
  nowMs: number,
): { acct: ProjectedAccount; curve: ProfileReport['curve']; drawdown: bigint } {
  const acct: ProjectedAccount = { usdc: 0n, positions: {} };
  const byToken = new Map<string, Walked>();
  for (const w of walked) byToken.set(w.yes, w).set(w.no, w);
  const curve: ProfileReport['curve'] = [];
  const total = { peak: 0n, drawdown: 0n };
  const start = ledger[0] ? Date.parse(ledger[0].at) : nowMs;
  const point = (t: number, dirty: Iterable<Walked>): void => {
    for (const w of dirty) {
      const p = marketPnl(acct, w);
      w.pnl = p.realised + p.unrealised;
      track(w, w.pnl);
    }
    let sum = 0n;
    for (const w of walked) sum += w.pnl;
    track(total, sum);
    const last = curve[curve.length - 1];
    if (last?.t === t) last.pnl = sum;
    else if (last?.pnl !== sum || t === nowMs) curve.push({ t, pnl: sum });
  };
  const all = steps(ledger, walked);
  for (let i = 0; i < all.length; ) {
    const t = all[i]?.t ?? 0;
    const dirty = new Set<Walked>();
    for (let s = all[i]; s !== undefined && s.t === t; s = all[++i]) {
      if ('entry' in s) {
        foldEntry(acct, s.entry);
        const w = s.entry.tokenId === undefined ? undefined : byToken.get(s.entry.tokenId);
        if (w) dirty.add(w);
      } else {
        s.market.mark = s.price;
        dirty.add(s.market);
      }
    }
    if (t >= start && t < nowMs) point(t, dirty);
  }
  // The end: every market at its current mark, as the positions route marks it.
  for (const w of walked) w.mark = yesMark(w.m);
  point(nowMs, walked);
  return { acct, curve, drawdown: total.drawdown };
}

const zero = (): ReportFigures => ({
  placed: 0,
  filled: 0,
  cancelled: 0,
  fills: 0,
  volume: 0n,
  fees: 0n,
  realisedPnl: 0n,
  unrealisedPnl: 0n,
  pnl: 0n,
  maxDrawdown: 0n,
});

/** Each market's orders and fills, in one pass over the ledger and one over the orders. */
function countActivity(
  state: SandboxState,
  ledger: readonly LedgerEntry[],
  profileId: number,
  walked: readonly Walked[],
): Map<Walked, ReportFigures> {
  const byToken = new Map<string, Walked>();
  const bySlug = new Map<string, Walked>();
  const out = new Map<Walked, ReportFigures>();
  const filled = new Map<Walked, Set<string>>();
  for (const w of walked) {
    byToken.set(w.yes, w).set(w.no, w);
    bySlug.set(w.m.slug, w);
    out.set(w, zero());
    filled.set(w, new Set());
  }
  for (const e of ledger) {
    const w = e.kind === 'trade' && e.tokenId !== undefined ? byToken.get(e.tokenId) : undefined;
    const f = w && out.get(w);
    if (!w || !f) continue;
    f.fills++;
    f.volume += e.usdc;
    f.fees += e.fee ?? 0n;
    if (e.orderId) filled.get(w)?.add(e.orderId);
  }
  for (const o of state.orders) {
    const w = o.ownerId === profileId ? bySlug.get(o.marketSlug) : undefined;
    const f = w && out.get(w);
    if (!f) continue;
    f.placed++;
    if (o.status === 'CANCELED') f.cancelled++;
  }
  for (const [w, f] of out) f.filled = filled.get(w)?.size ?? 0;
  return out;
}

/** One market's line: its activity, and its PnL at its current mark. */
function marketLine(acct: ProjectedAccount, w: Walked, activity: ReportFigures): MarketReport {
  const p = marketPnl(acct, w);
  const resolved = w.m.status === 'RESOLVED' && w.m.winningOutcomeIndex !== null;
  return {
    slug: w.m.slug,
    title: w.m.title,
    resolved,
    yesPrice: w.mark,
    ...activity,
    realisedPnl: p.realised,
    unrealisedPnl: p.unrealised,
    pnl: p.realised + p.unrealised,
    maxDrawdown: w.drawdown,
  };
}

/**
 * The report of one profile at `nowMs`.
 * @example const r = profileReport(ctx.state, alice, Date.now()); r.total.pnl
 */
export function profileReport(state: SandboxState, profile: Profile, nowMs: number): ProfileReport {
  const ledger = ledgerOf(state, profile.id);
  const walked = reportMarkets(state, ledger, profile.id);
  const { acct, curve, drawdown } = walk(ledger, walked, nowMs);
  const activity = countActivity(state, ledger, profile.id, walked);
  const markets = walked.map((w) => marketLine(acct, w, activity.get(w) ?? zero()));
  const total = zero();
  for (const m of markets) {
    total.placed += m.placed;
    total.filled += m.filled;
    total.cancelled += m.cancelled;
    total.fills += m.fills;
    total.volume += m.volume;
    total.fees += m.fees;
    total.realisedPnl += m.realisedPnl;
    total.unrealisedPnl += m.unrealisedPnl;
  }
  total.pnl = total.realisedPnl + total.unrealisedPnl;
  total.maxDrawdown = drawdown;
  return { profileId: profile.id, name: profile.name, markets, total, curve };
}
