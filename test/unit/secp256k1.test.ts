// pm's secp256k1 signer (src/keystore/secp256k1.ts, on node:crypto) gives the published RFC 6979
// vectors (nonce and signature), the published order vector, and, byte for byte, what viem
// (privateKeyToAccount → sign) and ethers give for a few hundred random keys and digests and for
// the edge values of the digest and the key.
import { createHash, randomBytes } from 'node:crypto';
import { SigningKey, Wallet } from 'ethers';
import { privateKeyToAccount, sign } from 'viem/accounts';
import { expect, it } from 'vitest';
import { orderDigest, signOrder } from '../../src/core/trade/eip712.js';
import type { Hex } from '../../src/core/trade/eip712.js';
import { keyAccount } from '../../src/keystore/key-account.js';
import { addressOfKey, rfc6979Nonce, signDigestNative } from '../../src/keystore/secp256k1.js';
import { VECTOR_EXCHANGE, VECTOR_KEY, VECTOR_ORDER, VECTOR_SIGNATURE } from '../helpers/eip712.js';

const hex = (bytes: number): Hex => `0x${randomBytes(bytes).toString('hex')}`;
const N_MINUS_1: Hex = '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140';

// Test vectors for RFC 6979 ECDSA, secp256k1, SHA-256: (private key, message, k, r‖s with low s),
// published on bitcointalk.org (topic 285142) and used by python-ecdsa, trezor-crypto
// (test_rfc6979), btcd (btcec's TestSignatureSerialize/RFC 6979 tests) and CoreBitcoin. The hash
// signed is SHA-256 of the message.
const RFC6979 = [
  [
    'cca9fbcc1b41e5a95d369eaa6ddcff73b61a4efaa279cfc6567e8daa39cbaf50',
    'sample',
    '2df40ca70e639d89528a6b670d9d48d9165fdc0febc0974056bdce192b8e16a3',
    'af340daf02cc15c8d5d08d7735dfe6b98a474ed373bdb5fbecf7571be52b38425009fb27f37034a9b24b707b7c6b79ca23ddef9e25f7282e8a797efe53a8f124',
  ],
  [
    '0000000000000000000000000000000000000000000000000000000000000001',
    'Satoshi Nakamoto',
    '8f8a276c19f4149656b280621e358cce24f5f52542772691ee69063b74f15d15',
    '934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d82442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5',
  ],
  [
    'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140',
    'Satoshi Nakamoto',
    '33a19b60e25fb6f4435af53a3d42d493644827367e6453928554f43e49aa6f90',
    'fd567d121db66e382991534ada77a6bd3106f0a1098c231e47993447cd6af2d06b39cd0eb1bc8603e159ef5c20a5c8ad685a45b06ce9bebed3f153d10d93bed5',
  ],
  [
    'f8b8af8ce3c7cca5e300d33939540c10d45ce001b8f252bfbc57ba0342904181',
    'Alan Turing',
    '525a82b70e67874398067543fd84c83d30c175fdc45fdeee082fe13b1d7cfdf1',
    '7063ae83e7f62bbb171798131b4a0564b956930092b33b07b395615d9ec7e15c58dfcc1e00a35e1572f366ffe34ba0fc47db1e7189759b9fb233c5b05ab388ea',
  ],
  [
    '0000000000000000000000000000000000000000000000000000000000000001',
    'All those moments will be lost in time, like tears in rain. Time to die...',
    '38aa22d72376b4dbc472e06c3ba403ee0a394da63fc58d88686c611aba98d6b3',
    '8600dbd41e348fe5c9465ab92d23e3db8b98b873beecd930736488696438cb6b547fe64427496db33bf66019dacbf0039c04199abb0122918601db38a72cfc21',
  ],
  [
    'e91671c46231f833a6406ccbea0e3e392c76c167bac1cb013f6f1013980455c2',
    "There is a computer disease that anybody who works with computers knows about. It's a very serious disease and it interferes completely with the work. The trouble with computers is that you 'play' with them!",
    '1f4b84c23a86a221d233f2521be018d9318639d5b8bbd6374a8a59232d16ad3d',
    'b552edd27580141f3b2a5463048cb7cd3e047b97c9f98076c32dbdf85a68718b279fa72dd19bfae05577e06c7c0c1900c371fcd5893f7e1d56a37d30174671f6',
  ],
] as const;

it('gives the published RFC 6979 secp256k1 vectors: the nonce k and the signature', () => {
  for (const [key, message, k, rs] of RFC6979) {
    const hash: Hex = `0x${createHash('sha256').update(message).digest('hex')}`;
    expect(rfc6979Nonce(hash, `0x${key}`), message).toBe(`0x${k}`);
    expect(signDigestNative(hash, `0x${key}`).slice(2, 130), message).toBe(rs);
  }
});

it('signs the published order vector', async () => {
  expect(addressOfKey(VECTOR_KEY)).toBe(VECTOR_ORDER.maker);
  const digest: Hex = `0x${Buffer.from(orderDigest(VECTOR_EXCHANGE, VECTOR_ORDER)).toString('hex')}`;
  expect(signDigestNative(digest, VECTOR_KEY)).toBe(VECTOR_SIGNATURE);
  expect(await signOrder(keyAccount(VECTOR_KEY), VECTOR_EXCHANGE, VECTOR_ORDER)).toBe(VECTOR_SIGNATURE);
});

it('equals viem and ethers for 300 random keys and digests, and the edge values', async () => {
  const cases: [Hex, Hex][] = Array.from({ length: 300 }, () => [hex(32), hex(32)]);
  // Digests at and above the group order (reduced mod n), zero; the smallest and largest keys.
  cases.push([hex(32), `0x${'ff'.repeat(32)}`], [hex(32), `0x${'00'.repeat(32)}`], [hex(32), N_MINUS_1]);
  cases.push([`0x${'00'.repeat(31)}01`, hex(32)], [N_MINUS_1, hex(32)]);
  for (const [key, hash] of cases) {
    const viem = await sign({ hash, privateKey: key, to: 'hex' });
    expect(signDigestNative(hash, key), `${key} ${hash}`).toBe(viem);
    expect(addressOfKey(key)).toBe(privateKeyToAccount(key).address);
  }
  for (const [key, hash] of cases.slice(0, 30)) {
    expect(signDigestNative(hash, key)).toBe(new SigningKey(key).sign(hash).serialized);
    expect(addressOfKey(key)).toBe(new Wallet(key).address);
  }
});

it("a key account signs as viem's account does, signature after signature", async () => {
  const key = hex(32);
  const ours = keyAccount(key);
  const viem = privateKeyToAccount(key);
  for (let i = 0; i < 20; i++) {
    const hash = hex(32);
    expect(await ours.sign!({ hash })).toBe(await viem.sign!({ hash }));
  }
});
