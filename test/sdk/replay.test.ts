// Conformance: the official TS SDK against a replay (`--replay`), unchanged: the replayed market
// is listed like any market, and alice's order placed through the SDK fills against the replay's
// recorded levels (the fill is a logged trade with the replay maker).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OrderType, Side } from '@limitless-exchange/sdk';
import { REPLAY_BOTS } from '../../src/sandbox/replay.js';
import { useSandbox } from '../helpers/sandbox.js';
import { account, eventually, sdkClient } from './helpers.js';

const SLUG = 'sdk-replayed';
const t = (ms: number): string => new Date(Date.parse('2026-11-28T09:00:00.000Z') + ms).toISOString();
const level = (price: number, shares: number) => ({ price, size: shares * 1_000_000 });
const file = join(mkdtempSync(join(tmpdir(), 'pm-sdk-replay-')), 'rec.ndjson');
writeFileSync(
  file,
  [
    {
      format: 'pm-recording',
      version: 1,
      pm: '0.1.0',
      source: 'http://x',
      startedAt: t(0),
      markets: [{ slug: SLUG, title: 'SDK replay' }],
    },
    { t: t(0), type: 'book', market: SLUG, data: { orderbook: { bids: [level(0.4, 10)], asks: [level(0.45, 10)] } } },
    // (Much later: the book stays as the first state while the test runs.)
    { t: t(600_000), type: 'book', market: SLUG, data: { orderbook: { bids: [level(0.3, 1)], asks: [level(0.7, 1)] } } },
  ]
    .map((l) => `${JSON.stringify(l)}\n`)
    .join(''),
);
const sb = useSandbox({ replay: { file, speed: 1 } });

describe('the TS SDK on a replay', () => {
  it('reads the replayed market and fills an order against its recorded levels', async () => {
    await eventually(() => (sb.current.replay?.status().applied ?? 0) >= 1, { what: 'the first book state' });
    const client = sdkClient(sb.current, 'alice');
    const market = await client.markets.getMarket(SLUG);
    expect(market.title).toBe('SDK replay');
    const [yes] = market.positionIds ?? [];
    if (!yes) throw new Error('no positionIds');
    const book = await client.markets.getOrderBook(SLUG);
    expect(book.asks[0]).toMatchObject({ price: 0.45 });
    const orders = client.newOrderClient(account(sb.current, 'alice').privateKey);
    const r = await orders.createOrder({ tokenId: yes, price: 0.45, size: 4, side: Side.BUY, orderType: OrderType.GTC, marketSlug: SLUG });
    expect(r.execution?.matched).toBe(true);
    const placed = sb.current.ctx.state.orders.find((o) => o.id === r.order.id);
    expect(placed?.status).toBe('MATCHED');
    // The other side of the fill is the replay maker's recorded ask.
    const makerIds = placed?.makerMatches.map((m) => m.orderId) ?? [];
    const makers = sb.current.ctx.state.orders.filter((o) => makerIds.includes(o.id));
    expect(makers.length).toBeGreaterThan(0);
    expect(makers.every((o) => o.ownerId === REPLAY_BOTS[0]?.id)).toBe(true);
  });
});
