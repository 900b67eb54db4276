// EIP-712 order signing (wire-facts §3.1), pinned to the published vector and to viem's
// signTypedData in tests. The digest is built by hand from keccak and the ABI word layout,
// with the Order type hash computed once and the domain separator cached per venue, so a
// batch signs at the curve's speed; the key never leaves the viem account (account.sign).
import { keccak_256 } from '../keccak.js';

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

/**
 * What signs an order: a viem LocalAccount fits. Its `sign` (a raw digest) when it has one, else
 * its `signTypedData`. (Written out here so the types of the library name no viem type.)
 */
export interface OrderAccount {
  address: string;
  sign?: ((p: { hash: Hex }) => Promise<Hex>) | undefined;
  signTypedData(p: {
    domain: ReturnType<typeof orderDomain>;
    types: typeof ORDER_TYPES;
    primaryType: 'Order';
    message: UnsignedOrder;
  }): Promise<Hex>;
}

/** Signs an order for the venue's exchange with a viem account (the key stays in the account). */
export function signOrder(account: OrderAccount, exchange: Hex, order: UnsignedOrder): Promise<Hex> {
  if (!account.sign)
    return account.signTypedData({ domain: orderDomain(exchange), types: ORDER_TYPES, primaryType: 'Order', message: order });
  return account.sign({ hash: toHex(orderDigest(exchange, order)) });
}

/** The Order type string, and the EIP-712 type strings and domain strings hashed below. */
export const ORDER_TYPE = `Order(${ORDER_TYPES.Order.map((f) => `${f.type} ${f.name}`).join(',')})`;
export const DOMAIN_TYPE = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)';
// Their keccak256, as constants: keccak is cold in a new process (~1 ms a call before V8 warms
// up), and a one-order command would spend four calls on hashes that never change.
// test/unit/eip712-fast.test.ts recomputes each one.
const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
export const ORDER_TYPEHASH = fromHex('a852566c4e14d00869b6db0220888a9090a13eccdaea03713ff0a3d27bf9767c');
export const DOMAIN_TYPEHASH = fromHex('8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f');
/** keccak256("Limitless CTF Exchange") and keccak256("1"): the domain's name and version. */
export const DOMAIN_NAME_HASH = fromHex('3a795e7c7985a40adc6880a2f6d64694c37223780f0986aea97e4f3245462023');
export const DOMAIN_VERSION_HASH = fromHex('c89efdaa54c0f20c7adf612882df0950f5a951637e0307cdcb4c672f298b8bc6');
const MAX_UINT256 = (1n << 256n) - 1n;
const separators = new Map<string, Uint8Array>();

function putUint(buf: Uint8Array, offset: number, v: bigint, bits: number, field: string): void {
  if (v < 0n || v > (bits === 256 ? MAX_UINT256 : (1n << BigInt(bits)) - 1n))
    throw new RangeError(`${field} ${v} does not fit uint${bits}`);
  let x = v;
  for (let i = 31; i >= 0 && x > 0n; i--) {
    buf[offset + i] = Number(x & 0xffn);
    x >>= 8n;
  }
}

function putAddress(buf: Uint8Array, offset: number, a: string, field: string): void {
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new RangeError(`${field} ${a} is not an address`);
  for (let i = 0; i < 20; i++) buf[offset + 12 + i] = parseInt(a.slice(2 + 2 * i, 4 + 2 * i), 16);
}

/** The EIP-712 domain separator of a venue (cached). */
export function domainSeparator(exchange: Hex): Uint8Array {
  const key = exchange.toLowerCase();
  let sep = separators.get(key);
  if (!sep) {
    const buf = new Uint8Array(5 * 32);
    buf.set(DOMAIN_TYPEHASH, 0);
    buf.set(DOMAIN_NAME_HASH, 32);
    buf.set(DOMAIN_VERSION_HASH, 64);
    putUint(buf, 96, BigInt(CHAIN_ID), 256, 'chainId');
    putAddress(buf, 128, exchange, 'verifyingContract');
    sep = keccak_256(buf);
    separators.set(key, sep);
  }
  return sep;
}

/** keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(order)): what the exchange recovers. */
export function orderDigest(exchange: Hex, o: UnsignedOrder): Uint8Array {
  const buf = new Uint8Array(13 * 32);
  buf.set(ORDER_TYPEHASH, 0);
  putUint(buf, 32, o.salt, 256, 'salt');
  putAddress(buf, 64, o.maker, 'maker');
  putAddress(buf, 96, o.signer, 'signer');
  putAddress(buf, 128, o.taker, 'taker');
  putUint(buf, 160, o.tokenId, 256, 'tokenId');
  putUint(buf, 192, o.makerAmount, 256, 'makerAmount');
  putUint(buf, 224, o.takerAmount, 256, 'takerAmount');
  putUint(buf, 256, o.expiration, 256, 'expiration');
  putUint(buf, 288, o.nonce, 256, 'nonce');
  putUint(buf, 320, o.feeRateBps, 256, 'feeRateBps');
  putUint(buf, 352, BigInt(o.side), 8, 'side');
  putUint(buf, 384, BigInt(o.signatureType), 8, 'signatureType');
  const msg = new Uint8Array(66);
  msg[0] = 0x19;
  msg[1] = 0x01;
  msg.set(domainSeparator(exchange), 2);
  msg.set(keccak_256(buf), 34);
  return keccak_256(msg);
}

function toHex(b: Uint8Array): Hex {
  return `0x${Buffer.from(b).toString('hex')}`;
}
