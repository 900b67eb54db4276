// EIP-712 order signatures as the exchange checks them (wire-facts §3.1). Written against viem
// directly, never src/core, so a client-side signing bug cannot be mirrored here.
import { hashTypedData, recoverAddress, type TypedDataDomain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from './types.js';

export const CHAIN_ID = 8453;
export const DOMAIN_NAME = 'Limitless CTF Exchange';
export const DOMAIN_VERSION = '1';
export const ZERO_ADDRESS: Hex = '0x0000000000000000000000000000000000000000';

/** The 12 signed fields, in the order the contract hashes them. */
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

/** The signed part of an order, already normalised to bigint and checksummed hex. */
export interface SignedOrderFields {
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
  side: number;
  signatureType: number;
}

/** The domain for a market's venue: verifyingContract is `venue.exchange`. */
export function orderDomain(verifyingContract: Hex): TypedDataDomain {
  return { name: DOMAIN_NAME, version: DOMAIN_VERSION, chainId: CHAIN_ID, verifyingContract };
}

/** The EIP-712 digest of an order under a venue's exchange. */
export function orderDigest(order: SignedOrderFields, verifyingContract: Hex): Hex {
  return hashTypedData({ domain: orderDomain(verifyingContract), types: ORDER_TYPES, primaryType: 'Order', message: order });
}

/**
 * Recovers the address that signed `order` for the venue `verifyingContract`; null when the
 * signature is malformed (not 65 bytes of hex, or not a valid curve point).
 */
export async function recoverOrderSigner(
  order: SignedOrderFields,
  signature: string,
  verifyingContract: Hex,
): Promise<Hex | null> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null;
  try {
    return await recoverAddress({ hash: orderDigest(order, verifyingContract), signature: signature as Hex });
  } catch {
    return null;
  }
}

/** Signs an order with a managed key (delegated signing for server-wallet sub-accounts). */
export async function signOrderWithKey(order: SignedOrderFields, privateKey: Hex, verifyingContract: Hex): Promise<Hex> {
  const account = privateKeyToAccount(privateKey);
  return account.signTypedData({ domain: orderDomain(verifyingContract), types: ORDER_TYPES, primaryType: 'Order', message: order });
}
