import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { fokAmounts, limitAmounts, parseAmount, parsePrice, parseSize } from '../../src/core/trade/amounts.js';
import { signOrder } from '../../src/core/trade/eip712.js';
import { newClientOrderId, newSalt, prepareOrder } from '../../src/core/trade/build.js';
import { parseOrderInput } from '../../src/core/trade/flow.js';
import { batchClientId, lineInput } from '../../src/core/trade/batch.js';
import { parseMarket } from '../../src/core/market-wire.js';
import { ValidationError } from '../../src/core/errors.js';
import { VECTOR_ADDRESS, VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

describe('EIP-712 order signing (client)', () => {
  it('matches the published Go/Rust vector (wire-facts §3.1)', async () => {
    const account = privateKeyToAccount(VECTOR_KEY);
    expect(account.address).toBe(VECTOR_ADDRESS);
    const sig = await signOrder(account, VECTOR_EXCHANGE, VECTOR_ORDER);
    expect(sig).toBe(VECTOR_SIGNATURE);
  });
});

describe('amounts (wire-facts §3.3–3.4)', () => {
  it('computes the worked examples exactly', () => {
    expect(limitAmounts('BUY', parsePrice('0.55'), parseSize('10'))).toEqual({ makerAmount: 5_500_000n, takerAmount: 10_000_000n });
    expect(limitAmounts('BUY', parsePrice('0.38'), parseSize('22.123'))).toEqual({ makerAmount: 8_406_740n, takerAmount: 22_123_000n });
    expect(limitAmounts('SELL', parsePrice('0.38'), parseSize('22.123'))).toEqual({ makerAmount: 22_123_000n, takerAmount: 8_406_740n });
    // ceil for BUY, floor for SELL where the product is not whole
    expect(limitAmounts('BUY', parsePrice('0.333'), parseSize('0.001'))).toEqual({ makerAmount: 333n, takerAmount: 1000n });
    expect(limitAmounts('BUY', parsePrice('0.001'), parseSize('0.001')).makerAmount).toBe(1n);
    expect(limitAmounts('SELL', parsePrice('0.001'), parseSize('0.001')).takerAmount).toBe(1n);
    expect(limitAmounts('BUY', parsePrice('0.999'), parseSize('1.001')).makerAmount).toBe(999_999n);
    expect(fokAmounts(parseAmount('25'))).toEqual({ makerAmount: 25_000_000n, takerAmount: 1n });
  });
  it('refuses off-grid input and proposes the nearest valid values', () => {
    expect(() => parsePrice('0.4235')).toThrow('price 0.4235 is off the 0.001 tick: use 0.423 or 0.424');
    expect(() => parsePrice('0')).toThrow(/above 0/);
    expect(() => parsePrice('1.001')).toThrow(/at most 1/);
    expect(parsePrice('1')).toBe(1_000_000n);
    expect(() => parsePrice('abc')).toThrow(ValidationError);
    expect(() => parseSize('10.0005')).toThrow('size 10.0005 is off the 0.001-share grid: use 10 or 10.001');
    expect(() => parseSize('0')).toThrow(/greater than 0/);
    expect(() => parseAmount('0.0000001')).toThrow(ValidationError);
  });
});

const market = parseMarket({
  slug: 'btc-100k-2026',
  title: 'BTC',
  status: 'FUNDED',
  tradeType: 'clob',
  marketType: 'single',
  expired: false,
  expirationTimestamp: Date.now() + 86_400_000,
  positionIds: ['111', '222'],
  venue: { exchange: '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5', adapter: null },
});

describe('request building', () => {
  const base = {
    market,
    outcome: 'YES' as const,
    side: 'BUY' as const,
    clientOrderId: 'cid-1',
    ownerId: 7,
    feeRateBps: 300,
    maker: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const,
    salt: 123n,
  };
  it('builds the body with the SDK key order and types', () => {
    const { body } = prepareOrder({ ...base, type: 'GTC', price: 550_000n, size: 10_000_000n, postOnly: true });
    expect(JSON.stringify(body)).toBe(
      '{"order":{"salt":123,"maker":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","taker":"0x0000000000000000000000000000000000000000","tokenId":"111","makerAmount":5500000,"takerAmount":10000000,"expiration":"0","nonce":0,"feeRateBps":300,"side":0,"signatureType":0,"price":0.55},"orderType":"GTC","marketSlug":"btc-100k-2026","ownerId":7,"postOnly":true,"clientOrderId":"cid-1"}',
    );
    const fok = prepareOrder({ ...base, outcome: 'NO', side: 'SELL', type: 'FOK', amount: 5_000_000n }).body;
    expect(fok.order.price).toBeUndefined();
    expect(fok.order.takerAmount).toBe(1);
    expect(fok.order.tokenId).toBe('222');
    expect(fok.postOnly).toBeUndefined();
  });
  it('builds a delegated order: zero-address maker, no signature, owner = sub-account', () => {
    const { body } = prepareOrder({
      ...base,
      type: 'GTC',
      price: 500_000n,
      size: 1_000_000n,
      delegated: true,
      onBehalfOf: 99,
      maker: null,
    });
    expect(body.order.maker).toBe('0x0000000000000000000000000000000000000000');
    expect(body.ownerId).toBe(99);
    expect(body.onBehalfOf).toBe(99);
  });
  it('refuses invalid orders before any network call, naming the field', () => {
    const p = (o: Record<string, unknown>) => () => parseOrderInput({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', ...o });
    expect(p({ type: 'fok', price: '0.5', amount: '10' })).toThrow(/FOK orders take --amount and no --price/);
    expect(p({ type: 'fak', amount: '10' })).toThrow(/FAK orders take --price and --size/);
    expect(p({ type: 'fok', amount: '10', postOnly: true })).toThrow(/--post-only works with GTC orders only/);
    expect(p({ price: '0.5' })).toThrow(/need --size/);
    expect(p({ side: 'hold', price: '0.5', size: '1' })).toThrow(/side must be one of buy, sell/);
    expect(p({ outcome: 'maybe', price: '0.5', size: '1' })).toThrow(/outcome must be one of yes, no/);
    expect(p({ price: '0.5', size: '1', clientId: 'x'.repeat(129) })).toThrow(/at most 128/);
    expect(p({ price: '0.5', size: '1', delegated: true })).toThrow(/--on-behalf-of/);
    const resolved = parseMarket({ ...market.raw, status: 'RESOLVED', winningOutcomeIndex: 0 });
    expect(() => prepareOrder({ ...base, market: resolved, type: 'GTC', price: 1n * 500_000n, size: 1_000_000n })).toThrow(/resolved/);
    const expired = parseMarket({ ...market.raw, expired: true });
    expect(() => prepareOrder({ ...base, market: expired, type: 'GTC', price: 500_000n, size: 1_000_000n })).toThrow(/deadline/);
    const group = parseMarket({ ...market.raw, tradeType: 'group', markets: [{ slug: 'child-a' }] });
    expect(() => prepareOrder({ ...base, market: group, type: 'GTC', price: 500_000n, size: 1_000_000n })).toThrow(/child-a/);
  });
  it('makes unique client ids and JSON-safe salts', () => {
    const ids = new Set(Array.from({ length: 200 }, newClientOrderId));
    expect(ids.size).toBe(200);
    for (let i = 0; i < 200; i++) expect(newSalt()).toBeLessThan(2n ** 53n);
  });
});

describe("self-trade prevention policy (--stp, a batch line's stp)", () => {
  it("is parsed, sent at the top level of the body, and changes a batch line's id only when given", () => {
    const base = { market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.4', size: '1', clientId: 'c-1' };
    expect(parseOrderInput(base).stpPolicy).toBeUndefined();
    expect(parseOrderInput({ ...base, stp: 'CANCEL_TAKER' }).stpPolicy).toBe('cancel_taker');
    expect(() => parseOrderInput({ ...base, stp: 'cancel_all' })).toThrow(/stp must be one of cancel_maker, cancel_taker, cancel_both/);
    expect(lineInput({ ...base, stp: 'cancel_both' }).stp).toBe('cancel_both');
    const plain = parseOrderInput(lineInput({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.4', size: '1' }));
    // The id of a line without stp is what it was before the field existed (resumable batches;
    // the value computed by the build before it).
    expect(batchClientId(plain, 0, 'b')).toBe('pmb-3334b1316bbccde7403c3a14f612e866');
    expect(batchClientId({ ...plain, stpPolicy: 'cancel_taker' }, 0, 'b')).not.toBe(batchClientId(plain, 0, 'b'));
  });
});
