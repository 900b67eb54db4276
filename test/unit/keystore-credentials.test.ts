import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Keystore, resolveCredentials, resolvePassphrase } from '../../src/keystore/index.js';
import type { CredentialsInput } from '../../src/keystore/index.js';
import { authHeaders } from '../../src/core/auth.js';
import { signHmac } from '../../src/core/hmac.js';
import { AuthError, NotFoundError, UsageError, ValidationError } from '../../src/core/errors.js';

const ALICE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const STORED_SECRET = 'c2VjcmV0LWtleS1leGFtcGxlLWJhc2U2NC1lbmNvZGVk';
const ENV_SECRET = 'c3VwZXItc2VjcmV0LWtleQ==';
const TS = new Date('2026-03-23T12:34:56.789Z');

let home: string;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pm-cred-'));
  const ks = new Keystore(home, { scrypt: { n: 1024 } });
  await ks.importWalletKey('alice', ALICE_KEY, 'pw');
  await ks.saveSecrets(
    'alice',
    { tokenId: 'stored-tok', tokenSecret: STORED_SECRET, apiKey: 'lmts_storedkey123', identityToken: 'stored-identity' },
    'pw',
  );
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function input(
  env: CredentialsInput['env'],
  counter: { n: number },
  pass = 'pw',
  profile: CredentialsInput['profile'] = { wallet: 'alice', secrets: 'alice' },
): CredentialsInput {
  return {
    env,
    profile,
    home,
    passphrase: () => {
      counter.n++;
      return Promise.resolve(pass);
    },
  };
}

async function caught(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (e: unknown) => e,
  );
}

describe('resolveCredentials', () => {
  it('a public command path never asks for the passphrase, yet knows the address and sources', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(input({}, c));
    expect(creds.address).toBe(ALICE);
    expect(creds.sources).toEqual({ wallet: 'keystore', token: 'keystore', apiKey: 'keystore', identity: 'keystore' });
    expect(creds.auth).toEqual({});
    expect(c.n).toBe(0);
  });

  it('decrypts stored secrets once, on unlock, and signs with them', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(input({}, c));
    const auth = await creds.unlock();
    await creds.unlock('all');
    expect(c.n).toBe(1);
    expect(auth).toBe(creds.auth);
    expect(auth.hmac?.tokenId).toBe('stored-tok');
    const h = authHeaders(auth, 'auto', 'PATCH', '/orders?market=btc', '{"foo":"bar"}', TS);
    expect(h.headers['lmts-signature']).toBe(signHmac(STORED_SECRET, TS.toISOString(), 'PATCH', '/orders?market=btc', '{"foo":"bar"}'));
    expect(auth.apiKey?.id).toBe('lmts_sto…');
    expect(auth.apiKey?.header()).toBe('lmts_storedkey123');
    expect(auth.identity?.header()).toBe('Bearer stored-identity');
    expect((await creds.account())?.address).toBe(ALICE);
    expect(c.n).toBe(1);
  });

  it('environment wins over the profile, and then needs no passphrase', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(
      input({ privateKey: BOB_KEY.slice(2), tokenId: 'env-tok', tokenSecret: ENV_SECRET, identityToken: 'Bearer env-id' }, c),
    );
    expect(creds.address).toBe(BOB);
    expect(creds.sources).toEqual({ wallet: 'env', token: 'env', apiKey: null, identity: 'env' });
    const auth = await creds.unlock('all');
    expect(auth.hmac?.tokenId).toBe('env-tok');
    expect(auth.apiKey).toBeUndefined();
    expect(auth.identity?.header()).toBe('Bearer env-id');
    expect(authHeaders(auth, 'auto', 'PATCH', '/orders?market=btc', '{"foo":"bar"}', TS).headers['lmts-signature']).toBe(
      'mgMUpOd7FH4sOSti2MF30YKF9yDq+67VjFksPa5I5eE=',
    );
    expect((await creds.account())?.address).toBe(BOB);
    expect(c.n).toBe(0);
  });

  it('an env API key replaces the stored token; identity still comes from the keystore when asked', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(input({ apiKey: 'lmts_envkey' }, c));
    expect(creds.sources).toMatchObject({ token: null, apiKey: 'env', identity: 'keystore' });
    await creds.unlock('auto');
    expect(c.n).toBe(0);
    expect(creds.auth.hmac).toBeUndefined();
    await creds.unlock('identity');
    expect(c.n).toBe(1);
    expect(creds.auth.identity?.header()).toBe('Bearer stored-identity');
    expect(creds.auth.apiKey?.header()).toBe('lmts_envkey');
  });

  it('no profile and no env: nothing to sign with, account is null', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(input({}, c, 'pw', {}));
    expect(creds.address).toBeNull();
    expect(await creds.account()).toBeNull();
    expect(await creds.unlock('all')).toEqual({});
    expect(c.n).toBe(0);
  });

  it('a wrong passphrase fails with AuthError and asks again on retry', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(input({}, c, 'wrong'));
    expect(await caught(creds.unlock())).toBeInstanceOf(AuthError);
    expect(await caught(creds.account())).toBeInstanceOf(AuthError);
    expect(c.n).toBe(2);
  });

  it('a missing wallet or secrets file surfaces only when used', async () => {
    const c = { n: 0 };
    const creds = await resolveCredentials(input({}, c, 'pw', { wallet: 'ghost', secrets: 'ghost' }));
    expect(creds.address).toBeNull();
    expect(await caught(creds.unlock())).toBeInstanceOf(NotFoundError);
    expect(await caught(creds.account())).toBeInstanceOf(NotFoundError);
  });

  it('validates environment values', async () => {
    const c = { n: 0 };
    const e1 = await caught(resolveCredentials(input({ tokenId: 'x' }, c)));
    expect(e1).toBeInstanceOf(UsageError);
    expect((e1 as Error).message).toMatch(/PM_TOKEN_ID.*PM_TOKEN_SECRET/);
    const e2 = await caught(resolveCredentials(input({ tokenSecret: ENV_SECRET }, c)));
    expect(e2).toBeInstanceOf(UsageError);
    expect((e2 as Error).message).toMatch(/PM_TOKEN_SECRET is set but PM_TOKEN_ID is not/);
    const e3 = await caught(resolveCredentials(input({ tokenId: 'x', tokenSecret: 'not base64!' }, c)));
    expect(e3).toBeInstanceOf(ValidationError);
    expect((e3 as Error).message).toMatch(/PM_TOKEN_SECRET/);
    const e4 = await caught(resolveCredentials(input({ privateKey: '0xabc' }, c)));
    expect(e4).toBeInstanceOf(ValidationError);
    expect((e4 as Error).message).toMatch(/PM_PRIVATE_KEY: a private key is 32 bytes of hex/);
    expect((e4 as Error).message).not.toContain('abc');
    expect(c.n).toBe(0);
  });
});

describe('resolvePassphrase', () => {
  const never = () => Promise.reject(new Error('prompted'));

  it('the file (flag) wins over env (one trailing newline stripped), then the prompt', async () => {
    const f = join(home, 'pass.txt');
    writeFileSync(f, ' spaced pass \n\n', { mode: 0o600 });
    expect(await resolvePassphrase({ env: 'from-env', file: f, interactive: true, prompt: never })).toBe(' spaced pass \n');
    expect(await resolvePassphrase({ env: 'from-env', interactive: true, prompt: never })).toBe('from-env');
    expect(await resolvePassphrase({ file: f, interactive: true, prompt: never })).toBe(' spaced pass \n');
    writeFileSync(f, 'crlf\r\n');
    expect(await resolvePassphrase({ env: '', file: f, interactive: false, prompt: never })).toBe('crlf');
    expect(await resolvePassphrase({ interactive: true, prompt: () => Promise.resolve('typed') })).toBe('typed');
  });

  it('a passphrase file readable by others is refused with the chmod that fixes it', async () => {
    const f = join(home, 'open-pass.txt');
    writeFileSync(f, 'secret-pass\n');
    chmodSync(f, 0o644);
    const e = await caught(resolvePassphrase({ env: 'from-env', file: f, interactive: false, prompt: never }));
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).hint).toContain(`chmod 600 ${f}`);
    chmodSync(f, 0o600);
    expect(await resolvePassphrase({ file: f, interactive: false, prompt: never })).toBe('secret-pass');
  });

  it('a passphrase file in a directory anyone may write to (not sticky) is refused, naming the directory; a sticky one (/tmp) is fine', async () => {
    const open = join(home, 'open-dir');
    mkdirSync(open, { recursive: true });
    const f = join(open, 'pass.txt');
    writeFileSync(f, 'secret-pass\n', { mode: 0o600 });
    // Anyone could rename pass.txt away and put a file of their own in its place.
    chmodSync(open, 0o777);
    const e = await caught(resolvePassphrase({ file: f, interactive: false, prompt: never }));
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toContain(`inside ${open}`);
    expect((e as Error).message).toMatch(/mode 777/);
    // The same through a symlink from a private directory: the real path counts too.
    const link = join(home, 'pass-link.txt');
    symlinkSync(f, link);
    expect(await caught(resolvePassphrase({ file: link, interactive: false, prompt: never }))).toBeInstanceOf(UsageError);
    // Sticky (as /tmp is): only the file's owner may replace it.
    chmodSync(open, 0o1777);
    expect(await resolvePassphrase({ file: f, interactive: false, prompt: never })).toBe('secret-pass');
    chmodSync(open, 0o755);
    expect(await resolvePassphrase({ file: link, interactive: false, prompt: never })).toBe('secret-pass');
  });

  it('a missing file is a usage error', async () => {
    const e = await caught(resolvePassphrase({ file: join(home, 'nope.txt'), interactive: true, prompt: never }));
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toMatch(/nope\.txt/);
  });

  it('without a TTY it fails at once (exit 3) naming both ways to pass a passphrase', async () => {
    let prompted = false;
    const e = await caught(resolvePassphrase({ interactive: false, prompt: () => ((prompted = true), Promise.resolve('x')) }));
    expect(e).toBeInstanceOf(AuthError);
    expect((e as AuthError).exitCode).toBe(3);
    expect((e as Error).message).toMatch(/PM_PASSPHRASE/);
    expect((e as Error).message).toMatch(/--passphrase-file/);
    expect((e as Error).message).toMatch(/no TTY/);
    expect(prompted).toBe(false);
  });
});
