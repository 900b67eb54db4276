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

/** What signs the tests' orders: an ethers Wallet. */
interface TypedSigner {
  address: string;
  signTypedData(domain: Record<string, unknown>, types: typeof ORDER_TYPES, value: Record<string, unknown>): Promise<string>;
}

export interface SdkOrder {
  wallet: TypedSigner;
  /** The venue's exchange contract (the EIP-712 verifyingContract). */
  exchange: string;
  slug: string;
  tokenId: string;
  ownerId: number;
  feeRateBps: number;
  side?: 0 | 1;
  type?: 'GTC' | 'FAK' | 'FOK';
  /** Decimal text (GTC/FAK); 0.5 when absent. */
  price?: string;
  /** Raw shares (GTC/FAK). */
  size?: bigint;
  /** FOK makerAmount: USDC (BUY) or shares (SELL), raw. */
  amount?: bigint;
  expiration?: string;
  postOnly?: boolean;
  clientOrderId?: string;
  /** Another key signs (the maker and signer fields stay the wallet's). */
  signWith?: TypedSigner;
  /** Amounts and salt as strings, as some clients send them. */
  stringAmounts?: boolean;
  salt?: number;
}

let saltCounter = 1;

/** A create-order body built and signed the way the TS SDK does (wire-facts §3.3–3.6). */
export async function sdkOrderBody(o: SdkOrder): Promise<Record<string, unknown>> {
  const side = o.side ?? 0;
  const type = o.type ?? 'GTC';
  let makerAmount: bigint;
  let takerAmount: bigint;
  if (type === 'FOK') {
    makerAmount = o.amount ?? 1_000_000n;
    takerAmount = 1n;
  } else {
    const price = BigInt(Math.round(Number(o.price ?? '0.5') * 1e6));
    const shares = o.size ?? 10_000_000n;
    const coll = side === 0 ? (shares * price + 999_999n) / 1_000_000n : (shares * price) / 1_000_000n;
    makerAmount = side === 0 ? coll : shares;
    takerAmount = side === 0 ? shares : coll;
  }
  const salt = o.salt ?? 1_742_191_300_000_000 + saltCounter++;
  const expiration = o.expiration ?? '0';
  const { address } = o.wallet;
  const zero = '0x0000000000000000000000000000000000000000';
  const signature = await (o.signWith ?? o.wallet).signTypedData(
    { name: 'Limitless CTF Exchange', version: '1', chainId: 8453, verifyingContract: o.exchange },
    ORDER_TYPES,
    {
      salt: BigInt(salt),
      maker: address,
      signer: address,
      taker: zero,
      tokenId: BigInt(o.tokenId),
      makerAmount,
      takerAmount,
      expiration: BigInt(expiration),
      nonce: 0n,
      feeRateBps: BigInt(o.feeRateBps),
      side,
      signatureType: 0,
    },
  );
  const num = (v: bigint) => (o.stringAmounts ? v.toString() : Number(v));
  const order: Record<string, unknown> = {
    salt: o.stringAmounts ? String(salt) : salt,
    maker: address,
    signer: address,
    taker: zero,
    tokenId: o.tokenId,
    makerAmount: num(makerAmount),
    takerAmount: num(takerAmount),
    expiration,
    nonce: 0,
    feeRateBps: o.feeRateBps,
    side,
    signatureType: 0,
    signature,
  };
  if (type !== 'FOK') order['price'] = Number(o.price ?? '0.5');
  const body: Record<string, unknown> = { order, orderType: type, marketSlug: o.slug, ownerId: o.ownerId };
  if (o.clientOrderId !== undefined) body['clientOrderId'] = o.clientOrderId;
  if (o.postOnly !== undefined) body['postOnly'] = o.postOnly;
  return body;
}
