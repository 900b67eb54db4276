// The base-point table sized for a few signatures (src/core/curve.ts): with the small window,
// and across the switch to the full one at the 16th signature, signatures stay byte-identical
// (the published vector, and ethers' independent implementation for random orders).
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { curveForFewSignatures, curveWindow, resetCurveWindow } from '../../src/core/curve.js';
import { ORDER_TYPES, orderDomain, signOrder } from '../../src/core/trade/eip712.js';
import type { Hex, UnsignedOrder } from '../../src/core/trade/eip712.js';
import { VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';


it('signs identically with the small table and after the switch to the full one', async () => {
  resetCurveWindow(); // test files may share a process: start from a fresh process's state
  expect(curveWindow()).toBe(0);
  curveForFewSignatures();
  expect(curveWindow()).toBe(4);
  const vector = privateKeyToAccount(VECTOR_KEY);
  const order: UnsignedOrder = VECTOR_ORDER;
  expect(vector.address).toBe(VECTOR_ORDER.maker);
  expect(await signOrder(vector, VECTOR_EXCHANGE, order)).toBe(VECTOR_SIGNATURE);
  const key: Hex = `0x${randomBytes(32).toString('hex')}`;
  const account = privateKeyToAccount(key);
  const wallet = new Wallet(key);
  expect(account.address).toBe(wallet.address);
  for (let i = 0; i < 40; i++) {
    const o: UnsignedOrder = { ...order, maker: account.address, signer: account.address, salt: BigInt(i + 1), tokenId: BigInt(`0x${randomBytes(32).toString('hex')}`), side: (i % 2) as 0 | 1 };
    const theirs = await wallet.signTypedData(orderDomain(VECTOR_EXCHANGE), { Order: [...ORDER_TYPES.Order] }, o);
    expect(await signOrder(account, VECTOR_EXCHANGE, o), `order ${i}`).toBe(theirs);
  }
  // The 16th signature switched to the full table; a later call does not shrink it again.
  expect(curveWindow()).toBe(8);
  curveForFewSignatures();
  expect(curveWindow()).toBe(8);
  expect(await signOrder(vector, VECTOR_EXCHANGE, order)).toBe(VECTOR_SIGNATURE);
});
