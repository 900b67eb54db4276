// keccak-256, the one implementation of the client (addresses, EIP-712 digests, keystore MACs).
// js-sha3 (MIT, the keccak of ethers 5 and web3.js) is bundled rather than @noble/hashes' keccak
// because a command runs it cold: a one-order `pm order place` hashes about ten blocks in a new
// process, before V8 has optimised anything, and js-sha3's permutation (one unrolled function over
// local variables) runs those in about half the time of noble's (loops over a typed array):
// ~2.4 ms against ~4.6 ms on Node 24, the first four hashes of an order. test/unit/keccak.test.ts
// pins it to @noble/hashes (still used for scrypt where OpenSSL's is unavailable).
import sha3 from 'js-sha3';

/** keccak-256 of `data`: 32 bytes. */
export const keccak_256 = (data: Uint8Array): Uint8Array => new Uint8Array(sha3.keccak256.arrayBuffer(data));
