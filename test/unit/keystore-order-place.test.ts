// What `pm order place` with PM_PASSPHRASE decrypts (issue 33, item 5): only the profile's wallet
// and token secret, of a home holding 7 encrypted files, each derived once, the two in parallel
// (both key derivations start before either ends: scrypt runs on the thread pool). Counted through
// the keystore's derive hook, on the client core's own path (tradingDeps, then the signing account):
// no timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientCore } from '../../src/core/clientcore.js';
import { Settings } from '../../src/core/settings.js';
import { Keystore, resolveCredentials } from '../../src/keystore/index.js';

const BOB_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SECRET = 'c2VjcmV0LWtleS1leGFtcGxlLWJhc2U2NC1lbmNvZGVk';
const PASS = 'order-place-pass';

let home: string;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pm-ks-place-'));
  const ks = new Keystore(home, { scrypt: { n: 1024 } });
  await ks.importWalletKey('main', BOB_KEY, PASS);
  await ks.saveSecrets('main', { tokenId: 'tok-main', tokenSecret: SECRET }, PASS);
  // Five wallets the profile does not use: 7 encrypted files in all.
  for (let k = 1; k <= 5; k++) await ks.createWallet(`spare-${k}`, PASS);
  expect(ks.encryptedFiles()).toHaveLength(7);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A client core as the CLI builds it for a profile with a stored wallet and token, PM_PASSPHRASE set. */
function core(events: string[], asked: { n: number }): ClientCore {
  const profile = { baseUrl: 'http://127.0.0.1:9', wallet: 'main', secrets: 'main' };
  return new ClientCore({
    home,
    settings: new Settings({ flag: {}, env: {}, profile, names: { baseUrl: '--base-url', wsUrl: '--ws-url', rpcUrl: '--rpc-url' } }),
    profile,
    profileName: 'p',
    credentials: () =>
      resolveCredentials({
        env: {},
        profile,
        home,
        passphrase: () => {
          asked.n++;
          return Promise.resolve(PASS);
        },
        onDerive: (label) => {
          events.push(`start ${label}`);
          return () => events.push(`end ${label}`);
        },
      }),
    userAgent: 'test',
  });
}

describe('order place with the keystore', () => {
  it('derives the keys of the wallet and the token secret only, once each, both started before either ends', async () => {
    const events: string[] = [];
    const asked = { n: 0 };
    const c = core(events, asked);
    try {
      const deps = await c.tradingDeps();
      expect(deps.credentialId).toBe('hmac:tok-main');
      const account = await (await c.credentials()).account();
      expect(account?.address).toBe(BOB);
      expect([...events].sort()).toEqual(['end secrets "main"', 'end wallet "main"', 'start secrets "main"', 'start wallet "main"']);
      // In parallel: the two starts come before the first end (sequential would be start, end, start, end).
      expect(events.slice(0, 2).every((e) => e.startsWith('start '))).toBe(true);
      expect(asked.n).toBe(1);
    } finally {
      await c.close();
    }
  });
});
