// Type tests of the published library, one block per namespace: checked by `npm run typecheck`
// and, against the installed package with `tsc --strict`, by test/e2e/install.e2e.test.ts. Never run.
import { expectTypeOf } from 'vitest';
import type { createClient } from 'pm-cli';
import type {
  AllowlistEntry,
  AllowlistRemoval,
  BatchResult,
  EoaSubAccount,
  MarketPage,
  ServerWalletSubAccount,
  CancelAllResult,
  CancelResult,
  RedeemJson,
  ReplaceResult,
  HistoryEntry,
  LifecycleRecord,
  Market,
  NewPriceDataRecord,
  Order,
  OrderBookJson,
  OrderEventRecord,
  OrderStatus,
  OrderbookUpdateRecord,
  OtherRecord,
  Outcome,
  PlaceResult,
  Pnl,
  PnlPoint,
  Position,
  PositionsRecord,
  Side,
  Trade,
  WatchRecord,
} from 'pm-cli';

export async function markets(pm: ReturnType<typeof createClient>): Promise<void> {
  expectTypeOf(await pm.markets.get('m')).toEqualTypeOf<Market>();
  expectTypeOf(await pm.markets.list()).toEqualTypeOf<Market[]>();
  expectTypeOf(await pm.markets.search('btc')).toEqualTypeOf<Market[]>();
  const m = await pm.markets.get('m');
  expectTypeOf(m.volumeRaw).toBeString();
  expectTypeOf(m.prices).toEqualTypeOf<{ yes: string; no: string } | null>();
  expectTypeOf(m.winningOutcome).toEqualTypeOf<Outcome | null>();
  const book = await pm.markets.book('m', { outcome: 'no' });
  expectTypeOf(book).toMatchTypeOf<OrderBookJson>();
  expectTypeOf(book.bids.at(0)?.price).toEqualTypeOf<string | undefined>();
  expectTypeOf(book.outcome).toEqualTypeOf<Outcome>();
  expectTypeOf(book.bestBid).toEqualTypeOf<string | null>();
  expectTypeOf((await pm.markets.history('m')).at(0)?.price).toEqualTypeOf<string | undefined>();
  // @ts-expect-error an outcome is yes or no
  await pm.markets.book('m', { outcome: 'maybe' });
}

export async function orders(pm: ReturnType<typeof createClient>): Promise<void> {
  const r = await pm.orders.place({ market: 'm', side: 'buy', outcome: 'yes', price: '0.42', size: '10', clientId: 'c' });
  expectTypeOf(r).toEqualTypeOf<PlaceResult>();
  expectTypeOf(r.order.id).toBeString();
  expectTypeOf(r.order.side).toEqualTypeOf<Side | null>();
  expectTypeOf(r.alreadyPlaced).toBeBoolean();
  expectTypeOf(r.execution.filled.sharesRaw).toBeString();
  // The order's money with its …Raw, as the CLI's JSON has it (null: no size, or no amount).
  expectTypeOf(r.order.sizeRaw).toEqualTypeOf<string | null>();
  expectTypeOf(r.order.amountRaw).toEqualTypeOf<string | null>();
  // @ts-expect-error a side is buy or sell
  await pm.orders.place({ market: 'm', side: 'bye', outcome: 'yes', price: '0.42', size: '10' });
  // @ts-expect-error an outcome is yes or no
  await pm.orders.place({ market: 'm', side: 'buy', outcome: 'maybe', price: '0.42', size: '10' });
  // @ts-expect-error a type is gtc, fok or fak
  await pm.orders.place({ market: 'm', side: 'buy', outcome: 'yes', type: 'ioc', price: '0.42', size: '10' });
  // @ts-expect-error a price is a decimal string
  await pm.orders.place({ market: 'm', side: 'buy', outcome: 'yes', price: 0.42, size: '10' });
  expectTypeOf(await pm.orders.list()).toEqualTypeOf<Order[]>();
  expectTypeOf(await pm.orders.status({ ids: ['x'] })).toEqualTypeOf<OrderStatus[]>();
  const s = (await pm.orders.status({ ids: ['x'] })).at(0);
  if (s?.found) expectTypeOf(s.orderId).toBeString();
  expectTypeOf(await pm.orders.placeBatch([{ market: 'm', side: 'sell', outcome: 'no', price: '0.9', size: '1' }])).toEqualTypeOf<
    BatchResult[]
  >();
  // One vocabulary: order.id, status, alreadyPlaced, clientId.
  const moved = await pm.orders.replace(r.order.id, { price: '0.43' });
  expectTypeOf(moved).toEqualTypeOf<ReplaceResult>();
  expectTypeOf(moved.replacement).toEqualTypeOf<PlaceResult | null>();
  expectTypeOf(moved.cancelled.status).toEqualTypeOf<'CANCELLED' | 'NOT_FOUND' | 'FAILED'>();
  const c = await pm.orders.cancel([r.order.id]);
  expectTypeOf(c).toEqualTypeOf<CancelResult>();
  expectTypeOf(c.results.at(0)?.order.id).toEqualTypeOf<string | undefined>();
  expectTypeOf(await pm.orders.cancelAll()).toEqualTypeOf<CancelAllResult>();
  const line = (await pm.orders.placeBatch([])).at(0);
  if (line?.ok) {
    expectTypeOf(line.order.id).toBeString();
    expectTypeOf(line.clientId).toBeString();
    expectTypeOf(line.alreadyPlaced).toBeBoolean();
    expectTypeOf(line.order.sizeRaw).toEqualTypeOf<string | null>();
  }
  expectTypeOf(r.clientId).toBeString();
  expectTypeOf(r.status).toBeString();
}

export async function portfolio(pm: ReturnType<typeof createClient>): Promise<void> {
  const p = await pm.portfolio.positions();
  expectTypeOf(p.positions).toEqualTypeOf<Position[]>();
  expectTypeOf(p.totals.realisedPnlRaw).toBeString();
  expectTypeOf(p.positions.at(0)?.outcome).toEqualTypeOf<Outcome | undefined>();
  const pnl = await pm.portfolio.pnl('1d');
  expectTypeOf(pnl).toEqualTypeOf<Pnl>();
  expectTypeOf(pnl.points).toEqualTypeOf<PnlPoint[]>();
  expectTypeOf(pnl.points.at(0)?.value).toEqualTypeOf<string | undefined>();
  expectTypeOf(await pm.portfolio.trades()).toEqualTypeOf<Trade[]>();
  for await (const e of pm.portfolio.history({ max: 1 })) expectTypeOf(e).toEqualTypeOf<HistoryEntry>();
}

export async function watch(pm: ReturnType<typeof createClient>, signal: AbortSignal): Promise<void> {
  for await (const ev of pm.watch.orders({ signal })) {
    expectTypeOf(ev).toEqualTypeOf<OrderEventRecord | LifecycleRecord | OtherRecord>();
    if (ev.event === 'orderEvent' && ev.source === 'OME') {
      expectTypeOf(ev.type).toEqualTypeOf<'PLACEMENT' | 'UPDATE' | 'CANCELLATION' | 'EXECUTION'>();
      expectTypeOf(ev.remainingSizeRaw).toEqualTypeOf<string | null>();
    }
    if (ev.event === 'orderEvent' && ev.type === 'MINED') expectTypeOf(ev.txHash).toEqualTypeOf<string | null>();
    if (ev.event === 'lifecycle' && ev.type === 'caught-up') expectTypeOf(ev.replayed).toBeNumber();
  }
  for await (const ev of pm.watch.prices(['m'], { signal })) {
    expectTypeOf(ev).toEqualTypeOf<OrderbookUpdateRecord | NewPriceDataRecord | LifecycleRecord | OtherRecord>();
    if (ev.event === 'orderbookUpdate') expectTypeOf(ev.book.midpoint).toEqualTypeOf<string | null>();
  }
  for await (const ev of pm.watch.positions({ signal })) expectTypeOf(ev).toMatchTypeOf<WatchRecord>();
  for await (const ev of pm.watch.positions({ signal })) if (ev.event === 'positions') expectTypeOf(ev).toEqualTypeOf<PositionsRecord>();
  for await (const ev of pm.watch.markets({ signal }))
    if (ev.event === 'marketResolved') expectTypeOf(ev.winningOutcome).toEqualTypeOf<Outcome | null>();
}

export async function partnerAndFunds(pm: ReturnType<typeof createClient>): Promise<void> {
  const page = await pm.partner.list();
  expectTypeOf(page.data.at(0)?.profileId).toEqualTypeOf<number | undefined>();
  expectTypeOf((await pm.partner.allowances(1)).ready).toBeBoolean();
  expectTypeOf(await pm.funds.redeem('m')).toEqualTypeOf<RedeemJson>();
  expectTypeOf((await pm.funds.withdraw({ amount: '1' })).amountRaw).toBeString();
  // Sub-accounts: the mode decides the result's type; an EOA's key is in the keystore (wallet) or the caller's (privateKey).
  expectTypeOf(await pm.partner.create({ serverWallet: true })).toEqualTypeOf<ServerWalletSubAccount>();
  const eoa = await pm.partner.create({ serverWallet: false, displayName: 'u' });
  expectTypeOf(eoa).toEqualTypeOf<EoaSubAccount>();
  if ('privateKey' in eoa) expectTypeOf(eoa.privateKey).toEqualTypeOf<`0x${string}`>();
  else expectTypeOf(eoa.wallet).toBeString();
  // @ts-expect-error the mode is chosen explicitly
  await pm.partner.create({ displayName: 'u' });
  expectTypeOf((await pm.orders.replace('o', { price: '0.5', onBehalfOf: 7, delegated: true })).replacement?.order.id).toEqualTypeOf<
    string | undefined
  >();
  expectTypeOf(await pm.orders.list({ market: 'm', all: true })).toEqualTypeOf<Order[]>();
  const mpage = await pm.markets.page('/crypto', { limit: 5, sort: '-deadline' });
  expectTypeOf(mpage).toEqualTypeOf<MarketPage>();
  expectTypeOf(mpage.markets).toEqualTypeOf<Market[]>();
  expectTypeOf(mpage.nextCursor).toEqualTypeOf<string | null>();
  expectTypeOf(await pm.funds.allowlist.list()).toEqualTypeOf<AllowlistEntry[]>();
  expectTypeOf((await pm.funds.allowlist.add('0x0', { label: 'l' })).deletedAt).toEqualTypeOf<string | null>();
  expectTypeOf(await pm.funds.allowlist.remove('0x0')).toEqualTypeOf<AllowlistRemoval>();
}
