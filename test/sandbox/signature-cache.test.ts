// The sandbox's signature check against the signer's known key (a cached point): pinned to the
// published vector, and it accepts and refuses exactly what public-key recovery does — including
// a signature by another key, a flipped recovery bit and the high-s twin — once the key is cached.
import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1';
import {
  checkOrderSignature,
  forgetKnownKeys,
  recoverOrderSigner,
  signOrderWithKey,
  type SignedOrderFields,
} from '../../src/sandbox/eip712.js';
import { DEV } from '../helpers/fixture.js';
import type { Hex } from '../../src/sandbox/types.js';
import { VECTOR_ADDRESS, VECTOR_EXCHANGE, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

const OTHER_EXCHANGE = '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5' as const;

const vectorOrder: SignedOrderFields = VECTOR_ORDER;

/** The same signature with the recovery bit flipped. */
function flipV(sig: string): string {
  const v = Number.parseInt(sig.slice(130), 16);
  return `${sig.slice(0, 130)}${(v === 27 ? 28 : v === 28 ? 27 : v ^ 1).toString(16).padStart(2, '0')}`;
}

/** The high-s twin (r, n − s, v flipped): recovery still yields the same key. */
function highS(sig: string): string {
  const s = BigInt(`0x${sig.slice(66, 130)}`);
  return flipV(`${sig.slice(0, 66)}${(secp256k1.CURVE.n - s).toString(16).padStart(64, '0')}${sig.slice(130)}`);
}

describe('signature check against a cached key', () => {
  it('accepts the vector, by recovery first and by the cached point after', async () => {
    forgetKnownKeys();
    expect(await checkOrderSignature(vectorOrder, VECTOR_SIGNATURE, VECTOR_EXCHANGE, VECTOR_ADDRESS)).toEqual({
      ok: true,
      via: 'recovery',
    });
    expect(await checkOrderSignature(vectorOrder, VECTOR_SIGNATURE, VECTOR_EXCHANGE, VECTOR_ADDRESS)).toEqual({
      ok: true,
      via: 'cached-key',
    });
  });

  it('still refuses a signature by another key once the signer is cached, naming the recovered address', async () => {
    forgetKnownKeys();
    const alice = { ...vectorOrder, maker: DEV.alice.address, signer: DEV.alice.address };
    const good = await signOrderWithKey(alice, DEV.alice.key, OTHER_EXCHANGE);
    expect(await checkOrderSignature(alice, good, OTHER_EXCHANGE, DEV.alice.address)).toEqual({ ok: true, via: 'recovery' });
    const forged = await signOrderWithKey(alice, DEV.bob.key, OTHER_EXCHANGE);
    expect(await checkOrderSignature(alice, forged, OTHER_EXCHANGE, DEV.alice.address)).toEqual({ ok: false, recovered: DEV.bob.address });
    // The cached key is not fooled by another field, another venue or a flipped recovery bit.
    expect((await checkOrderSignature({ ...alice, makerAmount: alice.makerAmount + 1n }, good, OTHER_EXCHANGE, DEV.alice.address)).ok).toBe(
      false,
    );
    expect((await checkOrderSignature(alice, good, VECTOR_EXCHANGE, DEV.alice.address)).ok).toBe(false);
    expect((await checkOrderSignature(alice, flipV(good), OTHER_EXCHANGE, DEV.alice.address)).ok).toBe(false);
    expect(await checkOrderSignature(alice, `0x${'00'.repeat(65)}`, OTHER_EXCHANGE, DEV.alice.address)).toEqual({
      ok: false,
      recovered: null,
    });
    expect(await checkOrderSignature(alice, '0x1234', OTHER_EXCHANGE, DEV.alice.address)).toEqual({ ok: false, recovered: null });
    expect(await checkOrderSignature(alice, good, OTHER_EXCHANGE, DEV.alice.address)).toEqual({ ok: true, via: 'cached-key' });
  });

  it('agrees with recovery on 300 random orders, signers and tamperings', async () => {
    forgetKnownKeys();
    const keys = [DEV.alice.key, DEV.bob.key, DEV.partner.key];
    let seed = 42;
    const rnd = (k: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * k);
    };
    const counts = { accepted: 0, refused: 0, cached: 0 };
    for (let i = 0; i < 300; i++) {
      const claimed = privateKeyToAccount(keys[rnd(3)] as Hex).address;
      const signingKey = rnd(4) === 0 ? (keys[rnd(3)] as Hex) : (keys.find((k) => privateKeyToAccount(k).address === claimed) as Hex);
      const order: SignedOrderFields = {
        ...vectorOrder,
        maker: claimed,
        signer: claimed,
        salt: BigInt(rnd(1e9)),
        makerAmount: BigInt(1 + rnd(1e9)),
        side: rnd(2),
      };
      let sig: string = await signOrderWithKey(order, signingKey, OTHER_EXCHANGE);
      const t = rnd(6);
      if (t === 0) sig = flipV(sig);
      if (t === 1) sig = highS(sig);
      if (t === 2) sig = `${sig.slice(0, 130)}${rnd(2) === 0 ? '00' : '01'}`; // yParity form of v
      if (t === 3) sig = `${sig.slice(0, 10)}${((Number.parseInt(sig.slice(10, 11), 16) + 1) % 16).toString(16)}${sig.slice(11)}`;
      const checked = order.makerAmount % 7n === 0n ? { ...order, takerAmount: order.takerAmount + 1n } : order;
      const byRecovery = (await recoverOrderSigner(checked, sig, OTHER_EXCHANGE)) === claimed;
      const res = await checkOrderSignature(checked, sig, OTHER_EXCHANGE, claimed);
      expect(res.ok, `case ${i} (tampering ${t})`).toBe(byRecovery);
      if (res.ok) counts.accepted += 1;
      else counts.refused += 1;
      if (res.ok && res.via === 'cached-key') counts.cached += 1;
    }
    expect(counts.accepted).toBeGreaterThan(50);
    expect(counts.refused).toBeGreaterThan(50);
    expect(counts.cached).toBeGreaterThan(40);
  });
});
