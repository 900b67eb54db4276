// The sandbox's EIP-712 order recovery, pinned to the published Go/Rust vector (wire-facts §3.1)
// and cross-checked against ethers (an independent implementation).
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { hashTypedData } from 'viem';
import {
  ORDER_TYPES,
  orderDigest,
  orderDomain,
  recoverOrderSigner,
  signOrderWithKey,
  type SignedOrderFields,
} from '../../src/sandbox/eip712.js';
import { VECTOR_ADDRESS, VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

const order: SignedOrderFields = VECTOR_ORDER;
const ZERO = '0x0000000000000000000000000000000000000000' as const;

describe('sandbox EIP-712 order recovery', () => {
  it('recovers the vector signer from the published signature', async () => {
    expect(await recoverOrderSigner(order, VECTOR_SIGNATURE, VECTOR_EXCHANGE)).toBe(VECTOR_ADDRESS);
  });

  it('signs the vector to the published signature (delegated-signing path)', async () => {
    expect(await signOrderWithKey(order, VECTOR_KEY, VECTOR_EXCHANGE)).toBe(VECTOR_SIGNATURE);
  });

  it('agrees with ethers on domain and types', async () => {
    const wallet = new Wallet(VECTOR_KEY);
    const d = orderDomain(VECTOR_EXCHANGE);
    const sig = await wallet.signTypedData(
      { name: d.name ?? '', version: d.version ?? '', chainId: Number(d.chainId), verifyingContract: d.verifyingContract ?? '' },
      { Order: ORDER_TYPES.Order.map((f) => ({ name: f.name, type: f.type })) },
      order,
    );
    expect(sig).toBe(VECTOR_SIGNATURE);
  });

  it('recovers someone else when any signed field or the venue differs', async () => {
    expect(await recoverOrderSigner({ ...order, makerAmount: 470155n }, VECTOR_SIGNATURE, VECTOR_EXCHANGE)).not.toBe(VECTOR_ADDRESS);
    expect(await recoverOrderSigner(order, VECTOR_SIGNATURE, '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5')).not.toBe(VECTOR_ADDRESS);
  });

  it('returns null for malformed signatures', async () => {
    expect(await recoverOrderSigner(order, '0x1234', VECTOR_EXCHANGE)).toBeNull();
    expect(await recoverOrderSigner(order, `0x${'00'.repeat(65)}`, VECTOR_EXCHANGE)).toBeNull();
  });

  it("orderDigest is viem's hashTypedData of the order, for edge values and 200 random orders; out-of-range input is refused as viem refuses it", () => {
    const viem = (o: SignedOrderFields, vc: `0x${string}`) =>
      hashTypedData({ domain: orderDomain(vc), types: ORDER_TYPES, primaryType: 'Order', message: o });
    const max = 2n ** 256n - 1n;
    let seed = 7n;
    const rand = (bits: bigint): bigint => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return (seed * 0x9e3779b97f4a7c15n * (seed + 1n)) % 2n ** bits;
    };
    const addr = (): `0x${string}` => `0x${rand(160n).toString(16).padStart(40, '0')}`;
    const cases: [SignedOrderFields, `0x${string}`][] = [
      [order, VECTOR_EXCHANGE],
      [{ ...order, salt: 0n, tokenId: max, makerAmount: max, side: 255, signatureType: 0 }, VECTOR_EXCHANGE],
      [{ ...order, nonce: 1n, expiration: max, feeRateBps: 0n }, addr()],
    ];
    for (let i = 0; i < 200; i++) {
      const o: SignedOrderFields = {
        salt: rand(256n),
        maker: addr(),
        signer: addr(),
        taker: i % 2 ? addr() : ZERO,
        tokenId: rand(256n),
        makerAmount: rand(64n),
        takerAmount: rand(64n),
        expiration: rand(40n),
        nonce: rand(8n),
        feeRateBps: rand(12n),
        side: Number(rand(1n)),
        signatureType: Number(rand(2n)),
      };
      cases.push([o, i % 3 ? VECTOR_EXCHANGE : addr()]);
    }
    for (const [o, vc] of cases) expect(orderDigest(o, vc)).toBe(viem(o, vc));
    // (A mixed-case address whose checksum is wrong: viem refuses it.)
    const i = order.maker.search(/[a-fA-F]/);
    const ch = order.maker[i] ?? '';
    const wrongCase =
      `${order.maker.slice(0, i)}${ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()}${order.maker.slice(i + 1)}` as `0x${string}`;
    for (const bad of [{ salt: max + 1n }, { nonce: -1n }, { side: 256 }, { maker: '0x12' as `0x${string}` }, { maker: wrongCase }]) {
      const o = { ...order, ...bad };
      expect(() => viem(o, VECTOR_EXCHANGE)).toThrow();
      expect(() => orderDigest(o, VECTOR_EXCHANGE)).toThrow();
    }
  });
});
