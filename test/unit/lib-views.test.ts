// The parse functions behind the library's typed results: exact money from the floats the wire
// may carry, and stream events as typed records (unknown shapes kept whole as `other`).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksumAddress } from '../../src/core/address.js';
import { usdFromWire } from '../../src/core/portfolio.js';
import { watchRecord } from '../../src/core/watch-records.js';

describe('usdFromWire', () => {
  it('reads dollars sent as JSON numbers or strings exactly, the sign kept, cut at 6 places', () => {
    expect(usdFromWire(110)).toBe(110_000_000n);
    expect(usdFromWire(0.1 + 0.2)).toBe(300_000n);
    expect(usdFromWire(-3.25)).toBe(-3_250_000n);
    expect(usdFromWire('12.3456789')).toBe(12_345_678n);
    expect(usdFromWire('x')).toBe(0n);
    expect(usdFromWire(undefined)).toBe(0n);
  });
});

describe('watchRecord', () => {
  it('an OME event: decimal price and sizes, the payload whole in raw', () => {
    const ev = {
      source: 'OME',
      type: 'UPDATE',
      orderId: 'o1',
      clientOrderId: 'c1',
      price: 0.42,
      remainingSize: 4500000,
      side: 'BUY',
      token: 'YES',
    };
    expect(watchRecord('orderEvent', ev)).toEqual({
      event: 'orderEvent',
      source: 'OME',
      type: 'UPDATE',
      orderId: 'o1',
      clientOrderId: 'c1',
      marketSlug: null,
      side: 'BUY',
      outcome: 'YES',
      price: '0.42',
      remainingSize: '4.5',
      remainingSizeRaw: '4500000',
      status: null,
      reason: null,
      eventId: null,
      timestamp: null,
      replayed: false,
      raw: ev,
    });
  });

  it('a settlement step, a book update, price data; anything unknown is other', () => {
    expect(
      watchRecord('orderEvent', {
        source: 'SETTLEMENT',
        type: 'MINED',
        orderId: 'o',
        amountContracts: '4000000',
        amountCollateral: '1680000',
        txHash: '0xab',
      }),
    ).toMatchObject({ source: 'SETTLEMENT', type: 'MINED', shares: '4', sharesRaw: '4000000', usd: '1.68', txHash: '0xab' });
    const book = watchRecord('orderbookUpdate', {
      marketSlug: 'm',
      orderbook: { bids: [{ price: 0.61, size: 100000000 }], asks: [{ price: 0.63, size: 1000000 }], tokenId: 't' },
    });
    expect(book).toMatchObject({ event: 'orderbookUpdate', marketSlug: 'm', book: { bestBid: '0.61', bestAsk: '0.63', midpoint: '0.62' } });
    expect(watchRecord('newPriceData', { updatedPrices: [{ marketId: 1, yesPrice: 0.63, noPrice: 0.37 }] })).toMatchObject({
      prices: [{ marketId: '1', yes: '0.63', no: '0.37' }],
    });
    expect(watchRecord('orderEvent', { type: 'SOMETHING', orderId: 'o' })).toMatchObject({ event: 'other', name: 'orderEvent' });
    expect(watchRecord('whatever', { a: 1 })).toEqual({ event: 'other', name: 'whatever', raw: { a: 1 } });
  });
});

describe('checksumAddress (EIP-55 without viem)', () => {
  it("matches viem's getAddress for the development accounts and 200 pseudo-random addresses, in any case", async () => {
    const { getAddress } = await import('viem');
    const addrs = [
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x0000000000000000000000000000000000000000',
    ];
    // (Reproducible: the first 20 bytes of sha256(i).)
    for (let i = 0; i < 200; i++) addrs.push(`0x${createHash('sha256').update(String(i)).digest('hex').slice(0, 40)}`);
    for (const a of addrs) {
      expect(checksumAddress(a)).toBe(getAddress(a));
      expect(checksumAddress(`0x${a.slice(2).toUpperCase()}`)).toBe(getAddress(a));
    }
  });
});
