// `pm watch orders` fills every gap from REST: orders placed, filled, cancelled and settled while
// the stream was away are written once, marked "replayed": true, and nothing is written twice,
// whether an event comes live first or replayed first. Plus the ledger's rules on their own.
import { afterAll, describe, expect, it } from 'vitest';
import { OrderLedger, eventKey } from '../../src/core/gapfill.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import {
  authHeaders,
  cancel,
  duplicateKeys,
  faults,
  livePm,
  newMarket,
  ordersSubscribed,
  place,
  record,
  sockets,
  until,
} from '../helpers/stream.js';
import type { Live, Recorder } from '../helpers/stream.js';

const ALICE = 1001;
const BOB = 1002;
// Settlement right away, so that it too happens within the gap.
const sb = useSandbox({ settlement: { minedAfterMs: 1, confirmedAfterMs: 1 } });
const home = tempHome();
afterAll(() => home.cleanup());

function watch(argv: string[]): Live {
  const a = sb.current.info.accounts.find((x) => x.name === 'alice');
  return livePm(['--json', 'watch', 'orders', ...argv], {
    PATH: process.env['PATH'],
    PM_HOME: home.home,
    PM_BASE_URL: sb.current.baseUrl,
    PM_WS_URL: sb.current.wsUrl,
    PM_TOKEN_ID: a?.token.tokenId,
    PM_TOKEN_SECRET: a?.token.secret,
  });
}

const orders = (w: Live) => w.records().filter((r) => r['event'] === 'orderEvent');
const lifecycle = (w: Live, type: string) => w.records().filter((r) => r['event'] === 'lifecycle' && r['type'] === type);
/** What the stream wrote about one order, in order: type (EXECUTION's status) and replayed. */
const story = (w: Live, orderId: string) =>
  orders(w)
    .filter((r) => r['orderId'] === orderId)
    .map(
      (r) =>
        `${r['source'] === 'SETTLEMENT' ? 'S:' : ''}${r['type']}${r['status'] ? `:${r['status']}` : ''}${r['replayed'] ? ' (replayed)' : ''}`,
    );

describe('pm watch orders: the gap is filled from REST', () => {
  it('replays what happened while disconnected, once, then nothing more on the next gap', async () => {
    const slug = 'gap-fill';
    await newMarket(sb.current, slug);
    // E was open before the watch began; bob's NO bid is what alice's FAK will take.
    const e = place(sb.current, ALICE, { slug, side: 'BUY', price: 450_000n, size: 5_000_000n, clientOrderId: 'gap-e' });
    place(sb.current, BOB, { slug, side: 'BUY', outcome: 1, price: 500_000n, size: 4_000_000n });
    const w = watch([]);
    try {
      await w.waitFor(() => lifecycle(w, 'subscribed').length === 1);
      const d = place(sb.current, ALICE, { slug, side: 'BUY', price: 400_000n, size: 8_000_000n, clientOrderId: 'gap-d' });
      const c = place(sb.current, ALICE, { slug, side: 'BUY', price: 200_000n, size: 3_000_000n, clientOrderId: 'gap-c' });
      await w.waitFor(() => orders(w).length === 2);

      await faults(sb.current, { dropSockets: 1 });
      await until(async () => !(await ordersSubscribed(sb.current, ALICE)));
      const a = place(sb.current, ALICE, { slug, side: 'BUY', price: 100_000n, size: 2_000_000n, clientOrderId: 'gap-a' });
      place(sb.current, BOB, { slug, side: 'BUY', outcome: 1, price: 550_000n, size: 5_000_000n, type: 'FAK' }); // fills E
      place(sb.current, BOB, { slug, side: 'BUY', outcome: 1, price: 600_000n, size: 3_000_000n, type: 'FAK' }); // 3 of D
      cancel(sb.current, ALICE, c.id);
      const b = place(sb.current, ALICE, { slug, side: 'BUY', price: 500_000n, size: 2_000_000n, type: 'FAK', clientOrderId: 'gap-b' });
      await until(() => [e, d, b].every((o) => sb.current.ctx.state.orders.find((x) => x.id === o.id)?.settlementStatus === 'CONFIRMED'));
      // All of that, settlement included, happened before the stream subscribed again.
      expect(await ordersSubscribed(sb.current, ALICE)).toBe(false);

      await w.waitFor(() => lifecycle(w, 'caught-up').length === 1, 15_000);
      expect(lifecycle(w, 'resubscribed')).toMatchObject([{ confirmed: true }]);
      expect(story(w, a.id)).toEqual(['PLACEMENT (replayed)']);
      expect(story(w, b.id)).toEqual(['EXECUTION:FILLED (replayed)', 'S:MATCHED (replayed)', 'S:MINED (replayed)']);
      expect(story(w, c.id)).toEqual(['PLACEMENT', 'CANCELLATION (replayed)']);
      expect(story(w, d.id)).toEqual(['PLACEMENT', 'UPDATE (replayed)', 'S:MATCHED (replayed)', 'S:MINED (replayed)']);
      expect(story(w, e.id)).toEqual(['EXECUTION:FILLED (replayed)', 'S:MATCHED (replayed)', 'S:MINED (replayed)']);
      const replayed = orders(w).filter((r) => r['replayed'] === true);
      expect(lifecycle(w, 'caught-up')).toMatchObject([{ replayed: replayed.length }]);
      expect(orders(w).find((r) => r['orderId'] === d.id && r['type'] === 'UPDATE')).toMatchObject({
        source: 'OME',
        marketSlug: slug,
        clientOrderId: 'gap-d',
        side: 'BUY',
        token: 'YES',
        price: '0.4',
        remainingSize: '5',
        remainingSizeRaw: '5000000',
        userId: ALICE,
      });
      expect(orders(w).find((r) => r['orderId'] === d.id && r['type'] === 'MINED')).toMatchObject({
        source: 'SETTLEMENT',
        amountContracts: '3',
        amountContractsRaw: '3000000',
        amountCollateral: '1.2',
        amountCollateralRaw: '1200000',
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });

      // The stream is live again; a second gap with nothing new replays nothing.
      const g = place(sb.current, ALICE, { slug, side: 'BUY', price: 110_000n, size: 1_000_000n, clientOrderId: 'gap-g' });
      await w.waitFor(() => story(w, g.id).length === 1);
      expect(story(w, g.id)).toEqual(['PLACEMENT']);
      await faults(sb.current, { dropSockets: 1 });
      await w.waitFor(() => lifecycle(w, 'caught-up').length === 2, 15_000);
      expect(lifecycle(w, 'caught-up')[1]).toMatchObject({ replayed: 0 });
      expect(duplicateKeys(w.records())).toEqual([]);
    } finally {
      w.abort();
      await w.done;
    }
  });

  it('an event that comes both replayed and live is written once', async () => {
    const slug = 'gap-overlap';
    await newMarket(sb.current, slug);
    const w = watch([]);
    let spy: Recorder | undefined;
    try {
      await w.waitFor(() => lifecycle(w, 'subscribed').length === 1);
      // Stream messages (the confirmation too) now reach clients 3 s late: REST, read once the
      // confirmation is in, already shows orders whose live events are still on their way.
      await faults(sb.current, { eventDelayMs: 3_000 });
      const before = (await sockets(sb.current)).map((x) => x.id);
      await faults(sb.current, { dropSockets: 1 });
      const inGap = [0, 1].map(
        (i) => place(sb.current, ALICE, { slug, side: 'BUY', price: 100_000n + BigInt(i) * 1_000n, size: 1_000_000n }).id,
      );
      await until(async () =>
        (await sockets(sb.current)).some((x) => x.profileId === ALICE && x.subscriptions.orders && !before.includes(x.id)),
      );
      // A second subscriber shows what the exchange sends live.
      spy = await record(sb.current, authHeaders(sb.current, 'alice'));
      spy.socket.emit('subscribe_order_events', {});
      await until(async () => (await sockets(sb.current)).filter((x) => x.profileId === ALICE && x.subscriptions.orders).length === 2);
      const overlap: string[] = [];
      for (let i = 0; lifecycle(w, 'resubscribed').length === 0; i++) {
        overlap.push(place(sb.current, ALICE, { slug, side: 'BUY', price: 150_000n + BigInt(i) * 1_000n, size: 1_000_000n }).id);
        await new Promise((r) => setTimeout(r, 100)); // a trader's pace, not a wait
      }
      await w.waitFor(() => lifecycle(w, 'caught-up').length === 1, 15_000);
      // Every live event sent so far has arrived once a sentinel placed now has.
      const last = place(sb.current, ALICE, { slug, side: 'BUY', price: 50_000n, size: 1_000_000n }).id;
      await w.waitFor(() => story(w, last).length > 0, 10_000);
      const sent = new Set((spy.of('orderEvent') as { orderId: string }[]).map((e) => e.orderId));
      expect(overlap.every((id) => sent.has(id))).toBe(true); // each was sent live…
      for (const id of [...inGap, ...overlap]) expect(story(w, id).map((x) => x.replace(' (replayed)', ''))).toEqual(['PLACEMENT']); // …and written once
      for (const id of inGap) expect(story(w, id)).toEqual(['PLACEMENT (replayed)']);
      // Some came replayed first: their live copies were the ones dropped.
      expect(overlap.filter((id) => story(w, id)[0]?.endsWith('(replayed)')).length).toBeGreaterThan(0);
      expect(duplicateKeys(w.records())).toEqual([]);
    } finally {
      spy?.close();
      await faults(sb.current, { eventDelayMs: 0 });
      w.abort();
      await w.done;
    }
  });
});

describe('pm watch orders: fills from before the watch began', () => {
  it('are not replayed after a later gap (an open order partly filled before the watch: nothing of it is news)', async () => {
    const slug = 'gap-before';
    await newMarket(sb.current, slug);
    const early = place(sb.current, ALICE, { slug, side: 'BUY', price: 450_000n, size: 5_000_000n, clientOrderId: 'gap-early' });
    place(sb.current, BOB, { slug, side: 'BUY', outcome: 1, price: 550_000n, size: 2_000_000n, type: 'FAK' }); // 2 of it, settled
    await until(() => sb.current.ctx.state.orders.find((x) => x.id === early.id)?.settlementStatus === 'CONFIRMED');
    const w = watch([]);
    try {
      await w.waitFor(() => lifecycle(w, 'subscribed').length === 1);
      await faults(sb.current, { dropSockets: 1 });
      await w.waitFor(() => lifecycle(w, 'caught-up').length === 1, 15_000);
      expect(story(w, early.id)).toEqual([]);
    } finally {
      w.abort();
      await w.done;
    }
  });
});

describe('OrderLedger', () => {
  const ome = (type: string, remainingSize: number, extra: Record<string, unknown> = {}) => ({
    source: 'OME',
    type,
    orderId: 'o1',
    marketSlug: 'm',
    remainingSize,
    ...extra,
  });
  const settle = (type: string, tradeEventId: string, amountContracts = '1000000') => ({
    source: 'SETTLEMENT',
    type,
    orderId: 'o1',
    tradeEventId,
    amountContracts,
  });

  it('admits an event once; equal ones, or ones behind what was written, are dropped', () => {
    const l = new OrderLedger();
    expect(l.admit(ome('PLACEMENT', 5_000_000))).toBe(true);
    expect(l.admit(ome('PLACEMENT', 5_000_000, { replayed: true }))).toBe(false); // same key
    expect(l.admit(ome('UPDATE', 3_000_000))).toBe(true);
    expect(l.admit(ome('UPDATE', 4_000_000))).toBe(false); // behind: larger remaining
    expect(l.admit(ome('PLACEMENT', 3_000_000))).toBe(false); // behind: placed already
    expect(l.admit(settle('MINED', 't1'))).toBe(true);
    expect(l.admit(settle('MATCHED', 't1'))).toBe(true); // missed live, replayed after MINED: still news
    expect(l.admit(settle('MATCHED', 't1'))).toBe(false); // same key
    expect(l.admit(settle('MATCHED', 't2'))).toBe(true); // another trade of the same size
    expect(l.admit(ome('CANCELLATION', 3_000_000))).toBe(true);
    expect(l.admit(ome('UPDATE', 1_000_000))).toBe(false); // after a terminal event
    expect(l.admit({ source: 'OME', type: 'PLACEMENT' })).toBe(true); // no order id: not judged
    // A PLACEMENT missed live (the order was placed in a gap, then filled live) is still news.
    expect(l.admit({ ...ome('EXECUTION', 0, { status: 'FILLED' }), orderId: 'o2' })).toBe(true);
    expect(l.admit({ ...ome('PLACEMENT', 4_000_000), orderId: 'o2' })).toBe(true);
    expect(l.admit({ ...ome('PLACEMENT', 4_000_000), orderId: 'o2' })).toBe(false);
    expect(eventKey(ome('EXECUTION', 0, { status: 'FILLED' }))).toBe('o1|EXECUTION|FILLED|0');
    expect(l.unfinished()).toEqual(['o1']); // t2 is only matched; o2 is filled
    expect(l.markets(5)).toEqual(['m']);
  });
});
