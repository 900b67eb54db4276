// pm's key account (src/keystore/key-account.ts) is viem's privateKeyToAccount with
// the public key from node:crypto and signing without viem: same fields, address, public key and signatures, for the published
// development keys and random ones.
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { expect, it } from 'vitest';
import { keyAccount } from '../../src/keystore/key-account.js';

it('matches privateKeyToAccount: fields, address, public key, sign, signMessage, signTypedData, signTransaction, signAuthorization', async () => {
  const keys: Hex[] = [
    '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    ...Array.from({ length: 20 }, (): Hex => `0x${randomBytes(32).toString('hex')}`),
  ];
  for (const key of keys) {
    const ours = keyAccount(key);
    const viem = privateKeyToAccount(key);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(viem).sort());
    expect(ours.type).toBe(viem.type);
    expect(ours.address).toBe(viem.address);
    expect(ours.publicKey).toBe(viem.publicKey);
    expect(ours.source).toBe('privateKey');
    const hash: Hex = `0x${randomBytes(32).toString('hex')}`;
    expect(await ours.sign({ hash })).toBe(await viem.sign({ hash }));
    expect(await ours.signMessage({ message: 'pm' })).toBe(await viem.signMessage({ message: 'pm' }));
    const td = {
      domain: { name: 'x', version: '1', chainId: 8453 },
      types: { M: [{ name: 'a', type: 'uint256' }] },
      primaryType: 'M',
      message: { a: 1n },
    } as const;
    expect(await ours.signTypedData(td)).toBe(await viem.signTypedData(td));
    const tx = {
      type: 'eip1559',
      chainId: 8453,
      nonce: 7,
      to: viem.address,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    } as const;
    expect(await ours.signTransaction(tx)).toBe(await viem.signTransaction(tx));
    const auth = { address: viem.address, chainId: 8453, nonce: 3 } as const;
    expect(await ours.signAuthorization(auth)).toEqual(await viem.signAuthorization(auth));
  }
  expect(keyAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80').address).toBe(
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  );
});
