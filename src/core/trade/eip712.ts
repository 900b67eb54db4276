// EIP-712 order signing (wire-facts §3.1), pinned to the published vector in tests.
import type { LocalAccount } from 'viem/accounts';

export type Hex = `0x${string}`;
export const CHAIN_ID = 8453;
export const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000';

/** The 12 signed fields, in the exchange contract's order. price, postOnly and client ids are not signed. */
export const ORDER_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

export interface UnsignedOrder {
  salt: bigint;
  maker: Hex;
  signer: Hex;
  taker: Hex;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  side: 0 | 1;
  signatureType: 0;
}

/** The domain of a venue: same name for NegRisk, only verifyingContract differs. */
export function orderDomain(exchange: Hex) {
  return { name: 'Limitless CTF Exchange', version: '1', chainId: CHAIN_ID, verifyingContract: exchange } as const;
}

/** Signs an order for the venue's exchange with a viem account (the key stays in the account). */
export function signOrder(account: LocalAccount, exchange: Hex, order: UnsignedOrder): Promise<Hex> {
  return account.signTypedData({ domain: orderDomain(exchange), types: ORDER_TYPES, primaryType: 'Order', message: order });
}
