// pm's secp256k1 signer (src/keystore/secp256k1.ts): node:crypto for a process's first
// signatures, @noble/curves with its full table after the switch. Both give, byte for byte, the
// published vector and what viem (privateKeyToAccount → sign) and ethers give, for a few hundred
// random keys and digests and for the edge values of the digest and the key.
import { randomBytes } from 'node:crypto';
import { SigningKey, Wallet } from 'ethers';
import { privateKeyToAccount, sign } from 'viem/accounts';
import { expect, it } from 'vitest';
import { orderDigest, signOrder } from '../../src/core/trade/eip712.js';
import type { Hex } from '../../src/core/trade/eip712.js';
import { keyAccount } from '../../src/keystore/key-account.js';
import { SIGNATURES_BEFORE_TABLE, addressOfKey, signDigestNative, signDigestTable, signatureCount } from '../../src/keystore/secp256k1.js';
import { VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

const hex = (bytes: number): Hex => `0x${randomBytes(bytes).toString('hex')}`;
const N_MINUS_1: Hex = '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140';

it('signs the published order vector on both paths', async () => {
  expect(addressOfKey(VECTOR_KEY)).toBe(VECTOR_ORDER.maker);
  const digest: Hex = `0x${Buffer.from(orderDigest(VECTOR_EXCHANGE, VECTOR_ORDER)).toString('hex')}`;
  expect(signDigestNative(digest, VECTOR_KEY)).toBe(VECTOR_SIGNATURE);
  expect(await signDigestTable(digest, VECTOR_KEY)).toBe(VECTOR_SIGNATURE);
  expect(await signOrder(keyAccount(VECTOR_KEY), VECTOR_EXCHANGE, VECTOR_ORDER)).toBe(VECTOR_SIGNATURE);
});

it('equals viem and ethers for 300 random keys and digests, and the edge values', async () => {
  const cases: [Hex, Hex][] = Array.from({ length: 300 }, () => [hex(32), hex(32)]);
  // Digests at and above the group order (reduced mod n), zero; the smallest and largest keys.
  cases.push([hex(32), `0x${'ff'.repeat(32)}`], [hex(32), `0x${'00'.repeat(32)}`], [hex(32), N_MINUS_1]);
  cases.push([`0x${'00'.repeat(31)}01`, hex(32)], [N_MINUS_1, hex(32)]);
  for (const [key, hash] of cases) {
    const viem = await sign({ hash, privateKey: key, to: 'hex' });
    expect(signDigestNative(hash, key), `native ${key} ${hash}`).toBe(viem);
    expect(await signDigestTable(hash, key), `table ${key} ${hash}`).toBe(viem);
    expect(addressOfKey(key)).toBe(privateKeyToAccount(key).address);
  }
  for (const [key, hash] of cases.slice(0, 30)) {
    expect(signDigestNative(hash, key)).toBe(new SigningKey(key).sign(hash).serialized);
    expect(addressOfKey(key)).toBe(new Wallet(key).address);
  }
});

it('a key account signs identically across the switch to the table', async () => {
  const key = hex(32);
  const ours = keyAccount(key);
  const viem = privateKeyToAccount(key);
  // Test files may share a process: sign until past the switch (and 30 at least), whatever the count was.
  const until = Math.max(signatureCount() + 30, SIGNATURES_BEFORE_TABLE + 5);
  let checked = 0;
  while (signatureCount() < until) {
    const hash = hex(32);
    // Every 10th against viem, and the ones around the switch.
    const near = Math.abs(signatureCount() + 1 - SIGNATURES_BEFORE_TABLE) <= 2;
    const sig = await ours.sign!({ hash });
    if (near || signatureCount() % 10 === 0) {
      expect(sig).toBe(await viem.sign!({ hash }));
      checked++;
    }
  }
  expect(checked).toBeGreaterThanOrEqual(3);
  expect(signatureCount()).toBeGreaterThan(SIGNATURES_BEFORE_TABLE);
});
