// The projection of the event log into stream messages (src/sandbox/projection.ts), without
// sockets: log entries in, messages out. Each entry is applied to a fixture state by the
// reducer first (as ctx.apply does before the log hands it to its subscribers), then projected.
import { describe, expect, it } from 'vitest';
import { decideCancel, decideOrder, type SubmitInput } from '../../src/sandbox/engine.js';
import { Projection, type StreamMessage } from '../../src/sandbox/projection.js';
import { apply } from '../../src/sandbox/reducer.js';
import type { LogEntry, StateEvent } from '../../src/sandbox/events.js';
import { IDS, tradingFixture } from '../helpers/fixture.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const M = 1_000_000n;

/** A fixture state, a projection of it, and `commit`: apply one event, then project it as entry `seq`. */
function world() {
  const state = tradingFixture();
  const projection = new Projection();
  projection.rebuild(state);
  let seq = 0;
  const commit = (ev: StateEvent): StreamMessage[] => {
    apply(state, ev);
    return projection.project({ ...ev, seq: ++seq } as LogEntry, state);
  };
  const order = (o: Partial<SubmitInput> & Pick<SubmitInput, 'ownerId' | 'side'>, id: string): StateEvent => {
    const m = state.markets[0];
    const input: SubmitInput = {
      marketSlug: 'btc-100k',
      tokenId: m?.positionIds?.[0] ?? '',
      orderType: 'GTC',
      price: 500_000n,
      size: 4n * M,
      makerAmount: 0n,
      takerAmount: 0n,
      postOnly: false,
      clientOrderId: null,
      feeRateBps: o.ownerId === IDS.alice ? 300 : 0,
      signedOrder: {},
      id,
      ...o,
    };
    const d = decideOrder(state, input, NOW);
    if (!d.ok) throw new Error(d.message);
    return d.event;
  };
  return { state, commit, order };
}

const orders = (ms: StreamMessage[]): Record<string, unknown>[] =>
  ms.flatMap((m) => (m.channel === 'orders' ? [{ to: m.profileId, ...m.payload }] : []));
const channels = (ms: StreamMessage[]) => ms.map((m) => m.channel);

describe('the projection of the log into stream messages', () => {
  it('a resting order: its PLACEMENT to its owner, and its book', () => {
    const w = world();
    const ms = w.commit(w.order({ ownerId: IDS.bob, side: 'SELL', clientOrderId: 'ask-1' }, 'ask'));
    expect(channels(ms)).toEqual(['orders', 'book']);
    expect(orders(ms)).toEqual([
      {
        to: IDS.bob,
        source: 'OME',
        type: 'PLACEMENT',
        eventId: 'ask:1',
        marketId: '1',
        marketSlug: 'btc-100k',
        orderId: 'ask',
        price: 0.5,
        remainingSize: 4_000_000,
        side: 'SELL',
        timestamp: new Date(NOW).toISOString(),
        token: 'YES',
        userId: IDS.bob,
        clientOrderId: 'ask-1',
      },
    ]);
    expect(ms[1]).toEqual({ channel: 'book', slug: 'btc-100k' });
  });

  it('a fill: the maker’s UPDATE with the size it has left, the taker’s EXECUTION, SETTLEMENT to both, positions of both', () => {
    const w = world();
    w.commit(w.order({ ownerId: IDS.bob, side: 'SELL', size: 10n * M }, 'ask'));
    const ms = w.commit(w.order({ ownerId: IDS.alice, side: 'BUY', size: 4n * M }, 'bid'));
    const ev = orders(ms);
    expect(ev.map((e) => [e.to, e['source'], e['type']])).toEqual([
      [IDS.bob, 'OME', 'UPDATE'],
      [IDS.alice, 'OME', 'EXECUTION'],
      [IDS.alice, 'SETTLEMENT', 'MATCHED'],
      [IDS.bob, 'SETTLEMENT', 'MATCHED'],
    ]);
    expect(ev[0]).toMatchObject({ orderId: 'ask', remainingSize: 6_000_000 });
    expect(ev[1]).toMatchObject({ orderId: 'bid', status: 'FILLED', price: 0.5, eventId: 'terminal:bid' });
    expect(ev[2]).toMatchObject({
      amountContracts: '4000000',
      amountCollateral: '2000000',
      feeAmountCollateral: '60000',
      isEstimate: true,
    });
    expect(ev[3]).toMatchObject({ orderId: 'ask', amountContracts: '4000000', amountCollateral: '2000000', feeAmountCollateral: '0' });
    const positions = ms.filter((m) => m.channel === 'positions');
    expect(positions.map((m) => m.channel === 'positions' && [m.profileId, m.market.slug])).toEqual([
      [IDS.bob, 'btc-100k'],
      [IDS.alice, 'btc-100k'],
    ]);
    const alicePos = positions[1];
    expect(alicePos?.channel === 'positions' && alicePos.payload['positions']).toEqual([
      expect.objectContaining({ outcome: 'YES', balance: '4000000', locked: '0' }),
      expect.objectContaining({ outcome: 'NO', balance: '0' }),
    ]);
    expect(channels(ms).at(-1)).toBe('book');
    // A second fill takes the rest: the maker's EXECUTION FILLED reports 0 left (from the projection's memory).
    const rest = orders(w.commit(w.order({ ownerId: IDS.alice, side: 'BUY', size: 6n * M }, 'bid-2')));
    expect(rest[0]).toMatchObject({ to: IDS.bob, type: 'EXECUTION', status: 'FILLED', orderId: 'ask', remainingSize: 0 });
  });

  it('a cancel reports the size the order had left; a resolution cancels with MARKET_RESOLVED and tells lifecycle subscribers', () => {
    const w = world();
    w.commit(w.order({ ownerId: IDS.bob, side: 'SELL', size: 10n * M }, 'ask'));
    w.commit(w.order({ ownerId: IDS.alice, side: 'BUY', size: 3n * M }, 'bid'));
    const c = decideCancel(w.state, 'ask', IDS.bob, NOW);
    if (!c.ok) throw new Error(c.message);
    const cancelled = w.commit(c.event);
    expect(orders(cancelled)).toEqual([
      expect.objectContaining({ to: IDS.bob, type: 'CANCELLATION', orderId: 'ask', remainingSize: 7_000_000 }),
    ]);
    expect(channels(cancelled)).toEqual(['orders', 'book']);
    w.commit(w.order({ ownerId: IDS.bob, side: 'SELL', price: 900_000n }, 'high'));
    const resolved = w.commit({
      type: 'market.resolved',
      at: NOW,
      slug: 'btc-100k',
      winningOutcomeIndex: 1,
      payoutPosted: true,
      txHash: '0x1',
      canceled: ['high'],
    });
    expect(orders(resolved)).toEqual([expect.objectContaining({ type: 'CANCELLATION', orderId: 'high', reason: 'MARKET_RESOLVED' })]);
    expect(resolved.find((m) => m.channel === 'lifecycle')).toEqual({
      channel: 'lifecycle',
      names: ['market.resolved', 'marketResolved'],
      payload: { slug: 'btc-100k', type: 'CLOB', winningOutcome: 'NO', winningIndex: 1, resolutionDate: new Date(NOW).toISOString() },
    });
  });

  it('settlement: MINED as SETTLEMENT orderEvents, CONFIRMED as one tx event per order of the trade', () => {
    const w = world();
    w.commit(w.order({ ownerId: IDS.bob, side: 'SELL' }, 'ask'));
    w.commit(w.order({ ownerId: IDS.alice, side: 'BUY' }, 'bid'));
    const tradeEventId = String(w.state.orders.find((o) => o.id === 'bid')?.tradeEventId);
    const step = (to: 'MINED' | 'CONFIRMED'): StreamMessage[] =>
      w.commit({ type: 'settlement', at: NOW, tradeEventId, takerOrderId: 'bid', makerOrderIds: ['ask'], to, txHash: '0xabc' });
    expect(orders(step('MINED')).map((e) => [e.to, e['type'], e['txHash']])).toEqual([
      [IDS.alice, 'MINED', '0xabc'],
      [IDS.bob, 'MINED', '0xabc'],
    ]);
    const tx = step('CONFIRMED');
    expect(tx.map((m) => m.channel === 'tx' && [m.profileId, m.eventId, m.payload['status'], m.payload['amountContracts']])).toEqual([
      [IDS.alice, '0xabc:bid', 'CONFIRMED', '4000000'],
      [IDS.bob, '0xabc:ask', 'CONFIRMED', '4000000'],
    ]);
  });

  it('a reset asks for fresh books; events the streams do not announce project to nothing', () => {
    const w = world();
    expect(w.commit({ type: 'funds.deposited', at: NOW, profileId: IDS.alice, amount: M, txHash: '0x2' })).toEqual([]);
    const p = new Projection();
    expect(p.project({ type: 'reset', at: NOW, seq: 9 }, tradingFixture())).toEqual([{ channel: 'reset' }]);
  });
});
