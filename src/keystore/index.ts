// The keystore's public API: encrypted wallets and token secrets at rest, and the resolver
// that turns them (or script-mode environment values) into an account and request signers.
export {
  encryptKeystore,
  decryptKeystore,
  encryptSecret,
  decryptSecret,
  parseEnvelope,
  parsePrivateKey,
  isValidPrivateKey,
  checksumAddress,
  keystoreAddress,
  DEFAULT_SCRYPT,
} from './v3.js';
export type { KeystoreV3, SecretEnvelope, CryptoSection, ScryptParams, Pbkdf2Params, EncryptOptions } from './v3.js';
export { Keystore, validateName } from './store.js';
export type { WalletInfo, StoredSecrets, SecretField, SecretsInfo, KeystoreOptions, WriteOptions } from './store.js';
export { resolveCredentials } from './credentials.js';
export type { Credentials, CredentialsInput, CredentialSource, UnlockMode } from './credentials.js';
export { resolvePassphrase } from './passphrase.js';
export type { PassphraseInput } from './passphrase.js';
