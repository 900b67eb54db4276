// The sandbox's EIP-712 order recovery, pinned to the published Go/Rust vector (wire-facts §3.1)
// and cross-checked against ethers (an independent implementation).
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, orderDomain, recoverOrderSigner, signOrderWithKey, type SignedOrderFields } from '../../src/sandbox/eip712.js';
import { VECTOR_ADDRESS, VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

const order: SignedOrderFields = VECTOR_ORDER;

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
