// node:crypto, loaded on first use. Loading it costs about 5 ms on Node 24 (OpenSSL's algorithm
// tables), and a command that reads public data (markets show, book…) never needs it: the
// modules every command loads (the cache, the file lock, the HMAC signer) take it from here when
// they first hash or sign. test/cli/module-loading.test.ts checks that such a command loads none.
import type * as NodeCrypto from 'node:crypto';

export const nodeCrypto = (): typeof NodeCrypto => process.getBuiltinModule('node:crypto');
