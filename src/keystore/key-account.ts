// The account of a private key pm holds (PM_PRIVATE_KEY, a wallet decrypted from the keystore,
// the session agent's wallets): the same fields, address and signatures as viem's
// privateKeyToAccount (a test compares them), built without loading viem. Placing orders needs
// only the address and signatures of digests (secp256k1.ts: node:crypto for a process's first
// signatures). The other signing methods (messages, typed data, transactions, authorizations)
// are viem's own, loaded on first use (key-account-viem.ts), so a command that only places
// orders never loads viem's account, encoding and transaction modules (~75 KB of bundle).
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { addressOfPublicKey, publicKeyOf, signDigest } from './secp256k1.js';

const viemSigning = () => import('./key-account-viem.js');

/** Same fields and behaviour as viem's privateKeyToAccount(privateKey). */
export function keyAccount(privateKey: Hex): PrivateKeyAccount {
  const publicKey = publicKeyOf(privateKey);
  const account = {
    address: addressOfPublicKey(publicKey),
    nonceManager: undefined,
    sign: ({ hash }: { hash: Hex }) => signDigest(hash, privateKey),
    async signAuthorization(authorization: object) {
      return (await viemSigning()).signAuthorization({ ...authorization, privateKey } as never);
    },
    async signMessage({ message }: { message: unknown }) {
      return (await viemSigning()).signMessage({ message, privateKey } as never);
    },
    async signTransaction(transaction: unknown, { serializer }: { serializer?: unknown } = {}) {
      return (await viemSigning()).signTransaction({ privateKey, transaction, serializer } as never);
    },
    async signTypedData(typedData: object) {
      return (await viemSigning()).signTypedData({ ...typedData, privateKey } as never);
    },
    publicKey,
    source: 'privateKey',
    type: 'local',
  };
  return account as unknown as PrivateKeyAccount;
}
