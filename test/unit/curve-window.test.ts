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

const VECTOR_KEY: Hex = '0x59c6995e998f97a5a0044966f0945382d7f84be58f4d1e8e8f8d0f9f5c5e7d5a';
const VECTOR_EXCHANGE: Hex = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3';
const VECTOR_SIG = '0x0cd29c83ce6390a8adba01ae3d49a0dbf875bd8d06902f6381676a11159afbcf22c35f5acaea3aca85152f254851e548946fe56f68f793ced0b08c2626729adc1c';

it('signs identically with the small table and after the switch to the full one', async () => {
  resetCurveWindow(); // test files may share a process: start from a fresh process's state
  expect(curveWindow()).toBe(0);
  curveForFewSignatures();
  expect(curveWindow()).toBe(4);
  const vector = privateKeyToAccount(VECTOR_KEY);
  const order: UnsignedOrder = { salt: 1742191300000000n, maker: vector.address, signer: vector.address, taker: '0x0000000000000000000000000000000000000000', tokenId: 12345n, makerAmount: 470154n, takerAmount: 1234000n, expiration: 0n, nonce: 0n, feeRateBps: 300n, side: 0, signatureType: 0 };
  expect(await signOrder(vector, VECTOR_EXCHANGE, order)).toBe(VECTOR_SIG);
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
  expect(await signOrder(vector, VECTOR_EXCHANGE, order)).toBe(VECTOR_SIG);
});
