// The EIP-712 Order type of wire-facts §3.1, written out once for the tests (independently of
// src/core and src/sandbox, which each have their own copy, pinned to the published vector).
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
};

/** The published Go/Rust order vector (wire-facts §3.1): key, signer, venue, order, signature. */
export const VECTOR_KEY = '0x59c6995e998f97a5a0044966f0945382d7f84be58f4d1e8e8f8d0f9f5c5e7d5a' as const;
export const VECTOR_ADDRESS = '0xa00BCB04073B243E8A55f3B5899AefF596bF17C6' as const;
export const VECTOR_EXCHANGE = '0xa4409D988CA2218d956BeEFD3874100F444f0DC3' as const;
export const VECTOR_SIGNATURE =
  '0x0cd29c83ce6390a8adba01ae3d49a0dbf875bd8d06902f6381676a11159afbcf22c35f5acaea3aca85152f254851e548946fe56f68f793ced0b08c2626729adc1c' as const;
export const VECTOR_ORDER = {
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
} as const;
