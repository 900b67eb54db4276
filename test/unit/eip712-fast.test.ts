// The hand-built EIP-712 digest (cached type hash and domain separator) against the published
// vector and against viem's signTypedData for a few hundred random orders, byte for byte.
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { hashTypedData, keccak256, toBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  DOMAIN_NAME_HASH,
  DOMAIN_TYPE,
  DOMAIN_TYPEHASH,
  DOMAIN_VERSION_HASH,
  ORDER_TYPE,
  ORDER_TYPEHASH,
  ORDER_TYPES,
  orderDigest,
  orderDomain,
  signOrder,
} from '../../src/core/trade/eip712.js';
import { keyAccount } from '../../src/keystore/key-account.js';
import type { Hex, UnsignedOrder } from '../../src/core/trade/eip712.js';
import { VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

const big = (bytes: number): bigint => BigInt(`0x${randomBytes(bytes).toString('hex')}`);
const addr = (): Hex => `0x${randomBytes(20).toString('hex')}`;

describe('fast EIP-712 order signer', () => {
  it('matches the published vector (wire-facts §3.1)', async () => {
    for (const account of [privateKeyToAccount(VECTOR_KEY), keyAccount(VECTOR_KEY)]) {
      expect(account.address).toBe(VECTOR_ORDER.maker);
      expect(await signOrder(account, VECTOR_EXCHANGE, VECTOR_ORDER)).toBe(VECTOR_SIGNATURE);
    }
  });

  it("equals viem's hashTypedData and (pm's key account) signTypedData for 300 random orders on several venues", async () => {
    const key: Hex = `0x${randomBytes(32).toString('hex')}`;
    const account = keyAccount(key);
    const viem = privateKeyToAccount(key);
    const venues = [addr(), addr(), '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5' as Hex];
    for (let i = 0; i < 300; i++) {
      const exchange = venues[i % venues.length] as Hex;
      const o: UnsignedOrder = {
        salt: big(1 + (i % 32)),
        maker: account.address,
        signer: account.address,
        taker: i % 7 === 0 ? addr() : '0x0000000000000000000000000000000000000000',
        tokenId: big(32),
        makerAmount: big(1 + (i % 8)),
        takerAmount: big(1 + (i % 9)),
        expiration: i % 5 === 0 ? big(4) : 0n,
        nonce: BigInt(i % 3),
        feeRateBps: BigInt(i % 1000),
        side: (i % 2) as 0 | 1,
        signatureType: 0,
      };
      const typed = { domain: orderDomain(exchange), types: ORDER_TYPES, primaryType: 'Order' as const, message: o };
      expect(`0x${Buffer.from(orderDigest(exchange, o)).toString('hex')}`).toBe(hashTypedData(typed));
      if (i % 3 === 0) expect(await signOrder(account, exchange, o)).toBe(await viem.signTypedData(typed));
    }
  });

  it('its hash constants are the keccak256 of their strings', () => {
    const k = (text: string): string => keccak256(toBytes(text));
    const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;
    expect(ORDER_TYPE).toBe(
      'Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)',
    );
    expect(hex(ORDER_TYPEHASH)).toBe(k(ORDER_TYPE));
    expect(hex(DOMAIN_TYPEHASH)).toBe(k(DOMAIN_TYPE));
    expect(hex(DOMAIN_NAME_HASH)).toBe(k(orderDomain(VECTOR_EXCHANGE).name));
    expect(hex(DOMAIN_VERSION_HASH)).toBe(k(orderDomain(VECTOR_EXCHANGE).version));
  });

  it('refuses values that do not fit their ABI type', () => {
    const o: UnsignedOrder = {
      salt: -1n,
      maker: '0x0000000000000000000000000000000000000001',
      signer: '0x0000000000000000000000000000000000000001',
      taker: '0x0000000000000000000000000000000000000000',
      tokenId: 1n,
      makerAmount: 1n,
      takerAmount: 1n,
      expiration: 0n,
      nonce: 0n,
      feeRateBps: 0n,
      side: 0,
      signatureType: 0,
    };
    expect(() => orderDigest('0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5', o)).toThrow(/salt/);
    expect(() => orderDigest('0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5', { ...o, salt: 1n, tokenId: 1n << 256n })).toThrow(/tokenId/);
  });
});
