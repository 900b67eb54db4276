// Malleable signatures: every ECDSA signature (r, s, v) has a twin (r, n−s, v^1) that recovers
// the same signer. The exchange's contract checks signatures with OpenZeppelin's ECDSA, which
// refuses s above n/2, so an order has exactly one valid signature; the sandbox does the same.
import { secp256k1 } from '@noble/curves/secp256k1';
import { describe, expect, it } from 'vitest';
import { checkOrderSignature, forgetKnownKeys, recoverOrderSigner } from '../../src/sandbox/eip712.js';
import { VECTOR_ADDRESS, VECTOR_EXCHANGE, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';
import { hmac, send, seeded, signedOrderBody, unpaced } from '../helpers/http.js';
import { useSandbox } from '../helpers/sandbox.js';

const N = secp256k1.CURVE.n;

/** The high-s twin of a 65-byte signature: (r, n − s, v flipped between 27 and 28). */
function twin(sig: string): string {
  const s = BigInt(`0x${sig.slice(66, 130)}`);
  const v = Number.parseInt(sig.slice(130), 16) === 27 ? '1c' : '1b';
  return `${sig.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${v}`;
}

const sb = useSandbox();

describe('high-s signatures', () => {
  it('the twin of the published vector is refused by recovery and by the cached-key path of the check', async () => {
    const high = twin(VECTOR_SIGNATURE);
    expect(BigInt(`0x${high.slice(66, 130)}`) > N / 2n).toBe(true);
    forgetKnownKeys();
    expect(await recoverOrderSigner(VECTOR_ORDER, VECTOR_SIGNATURE, VECTOR_EXCHANGE)).toBe(VECTOR_ADDRESS);
    expect(await recoverOrderSigner(VECTOR_ORDER, high, VECTOR_EXCHANGE)).toBeNull();
    // By recovery (key not cached yet) ...
    forgetKnownKeys();
    expect(await checkOrderSignature(VECTOR_ORDER, high, VECTOR_EXCHANGE, VECTOR_ADDRESS)).toEqual({ ok: false, recovered: null });
    // ... and against the cached key, which the low-s original has just put there.
    expect((await checkOrderSignature(VECTOR_ORDER, VECTOR_SIGNATURE, VECTOR_EXCHANGE, VECTOR_ADDRESS)).ok).toBe(true);
    expect(await checkOrderSignature(VECTOR_ORDER, high, VECTOR_EXCHANGE, VECTOR_ADDRESS)).toEqual({ ok: false, recovered: null });
  });

  it('POST /orders: the high-s twin answers 400 saying why (s in the upper half); the low-s original then 201', async () => {
    const alice = seeded(sb.current, 'alice');
    await unpaced(sb.current);
    const before = sb.current.ctx.state.orders.length;
    const body = await signedOrderBody(sb.current, alice, { slug: 'btc-100k-2026', price: 0.4, shares: 5_000_000n });
    const order = body['order'] as Record<string, unknown>;
    const low = String(order['signature']);
    const highBody = JSON.stringify({ ...body, order: { ...order, signature: twin(low) } });
    const refused = await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', highBody), highBody);
    // It is 65 bytes and recovers the signer: the refusal names the reason, not a malformed signature.
    expect(refused.status).toBe(400);
    expect((refused.json as { message: string }).message).toMatch(
      /^Invalid order signature: s is in the upper half of the curve order \(a malleable signature\)/,
    );
    expect((refused.json as { message: string }).message).not.toMatch(/not a valid 65-byte/);
    expect(sb.current.ctx.state.orders.length).toBe(before);

    const shortBody = JSON.stringify({ ...body, order: { ...order, signature: low.slice(0, 100) } });
    const short = await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', shortBody), shortBody);
    expect(short).toEqual({ status: 400, json: { message: 'order.signature is not a valid 65-byte signature' } });

    const lowBody = JSON.stringify(body);
    const placed = await send(sb.current, 'POST', '/orders', hmac(alice, 'POST', '/orders', lowBody), lowBody);
    expect(placed.status).toBe(201);
    expect((placed.json as { order: { signature: string } }).order.signature).toBe(low);
  });
});
