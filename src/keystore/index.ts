// The keystore's public API: encrypted wallets and token secrets at rest, and the resolver
// that turns them (or script-mode environment values) into an account and request signers.
export { encryptKeystore, decryptKeystore, encryptSecret, decryptSecret, parsePrivateKey } from './v3.js';
export { Keystore } from './store.js';
export { resolveCredentials } from './credentials.js';
export type { CredentialsInput } from './credentials.js';
export { resolvePassphrase } from './passphrase.js';
