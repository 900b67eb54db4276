// The client's keccak-256 (src/core/keccak.ts, js-sha3) against @noble/hashes' on every length
// around the sponge's rate (136 bytes), and on the published empty-input vector.
import { randomBytes } from 'node:crypto';
import { keccak_256 as noble } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { keccak_256 } from '../../src/core/keccak.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('keccak_256', () => {
  it('hashes the empty input to the published value', () => {
    expect(hex(keccak_256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('equals @noble/hashes on every length from 0 to 420 bytes (three blocks and their edges)', () => {
    for (let n = 0; n <= 420; n++) {
      const data = new Uint8Array(randomBytes(n));
      expect(hex(keccak_256(data)), `length ${n}`).toBe(hex(noble(data)));
    }
  });

  it('reads a Buffer or a view into a larger buffer by its own bytes only', () => {
    const big = new Uint8Array(randomBytes(200));
    const view = big.subarray(17, 117);
    expect(hex(keccak_256(view))).toBe(hex(noble(view.slice())));
    expect(hex(keccak_256(Buffer.from(view)))).toBe(hex(noble(view.slice())));
  });
});
