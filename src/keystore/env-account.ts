// The account of a private key given in the environment (PM_PRIVATE_KEY), built as viem's
// privateKeyToAccount builds it, except that the public key comes from node:crypto's ECDH
// (OpenSSL: well under a millisecond) instead of a base-point multiplication in JavaScript, which
// costs a one-order command's start-up a table build and a scalar multiplication. Signing is
// viem's own (sign, signMessage, signTransaction, signTypedData with the key).
import { createECDH } from 'node:crypto';
import { publicKeyToAddress, sign, signAuthorization, signMessage, signTransaction, signTypedData, toAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Hex } from 'viem';

/** The uncompressed public key (0x04…) of a 32-byte private key. */
export function publicKeyOf(privateKey: Hex): Hex {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(privateKey.slice(2), 'hex'));
  return `0x${ecdh.getPublicKey('hex', 'uncompressed')}`;
}

/** Same fields and behaviour as viem's privateKeyToAccount(privateKey). */
export function envAccount(privateKey: Hex): PrivateKeyAccount {
  const publicKey = publicKeyOf(privateKey);
  const account = toAccount({
    address: publicKeyToAddress(publicKey),
    async sign({ hash }) {
      return sign({ hash, privateKey, to: 'hex' });
    },
    async signAuthorization(authorization) {
      return signAuthorization({ ...authorization, privateKey });
    },
    async signMessage({ message }) {
      return signMessage({ message, privateKey });
    },
    async signTransaction(transaction, { serializer } = {}) {
      return signTransaction({ privateKey, transaction, serializer });
    },
    async signTypedData(typedData) {
      return signTypedData({ ...typedData, privateKey } as Parameters<typeof signTypedData>[0]);
    },
  });
  return { ...account, publicKey, source: 'privateKey' } as PrivateKeyAccount;
}
