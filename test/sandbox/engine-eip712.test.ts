// The sandbox's EIP-712 order recovery, pinned to the published Go/Rust vector (wire-facts §3.1)
// and cross-checked against ethers (an independent implementation).
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, orderDomain, recoverOrderSigner, signOrderWithKey, type SignedOrderFields } from '../../src/sandbox/eip712.js';

const VECTOR_KEY = '0x59c6995e998f97a5a0044966f0945382d7f84be58f4d1e8e8f8d0f9f5c5e7d5a' as const;
const VECTOR_ADDRESS = '0xa00BCB04073B243E8A55f3B5899AefF596bF17C6' as const;
const VECTOR_EXCHANGE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3' as const;
const VECTOR_SIGNATURE =
  '0x0cd29c83ce6390a8adba01ae3d49a0dbf875bd8d06902f6381676a11159afbcf22c35f5acaea3aca85152f254851e548946fe56f68f793ced0b08c2626729adc1c';

const order: SignedOrderFields = {
  salt: 1742191300000000n,
  maker: VECTOR_ADDRESS,
  signer: VECTOR_ADDRESS,
  taker: '0x0000000000000000000000000000000000000000',
  tokenId: 12345n,
  makerAmount: 470154n,
  takerAmount: 1234000n,
  expiration: 0n,
  nonce: 0n,
  feeRateBps: 300n,
  side: 0,
  signatureType: 0,
};

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
});
