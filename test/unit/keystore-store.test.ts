import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { Keystore, decryptKeystore } from '../../src/keystore/index.js';
import { AuthError, ConflictError, NotFoundError, ValidationError } from '../../src/core/errors.js';

const ALICE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN_SECRET = 'c2VjcmV0LWtleS1leGFtcGxlLWJhc2U2NC1lbmNvZGVk';
const API_KEY = 'lmts_0123456789abcdef0123456789abcdef';
const IDENTITY = 'eyJhbGciOiJFUzI1NiJ9.identity-token-payload.sig';

let home: string;
let ks: Keystore;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pm-ks-'));
  ks = new Keystore(home, { scrypt: { n: 1024 } });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? allFiles(join(dir, d.name)) : [join(dir, d.name)]));
}

async function caught(p: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e;
  }
  return null;
}

describe('wallets', () => {
  it('imports a key, lists it without decrypting, exports it, and writes a file ethers opens', async () => {
    const info = await ks.importWalletKey('alice', ALICE_KEY.slice(2), 'pw');
    expect(info).toMatchObject({ name: 'alice', address: ALICE, path: join(home, 'keystores', 'alice.json') });
    const list = ks.listWallets();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'alice', address: ALICE });
    expect(Number.isNaN(Date.parse(list[0]?.createdAt ?? ''))).toBe(false);
    expect(ks.walletAddress('alice')).toBe(ALICE);
    expect(await ks.exportWalletKey('alice', 'pw')).toBe(ALICE_KEY);
    expect((await ks.openWallet('alice', 'pw')).address).toBe(ALICE);
    const json = ks.exportWalletJson('alice');
    expect((await Wallet.fromEncryptedJson(json, 'pw')).address).toBe(ALICE);
  });

  it('creates random wallets, never overwrites without force', async () => {
    const a = await ks.createWallet('main', 'pw');
    expect(a.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const before = readFileSync(a.path);
    const e = await caught(ks.createWallet('main', 'pw'));
    expect(e).toBeInstanceOf(ConflictError);
    expect(await caught(ks.importWalletKey('main', ALICE_KEY, 'pw'))).toBeInstanceOf(ConflictError);
    expect(readFileSync(a.path).equals(before)).toBe(true);
    const b = await ks.importWalletKey('main', ALICE_KEY, 'pw', { force: true });
    expect(b.address).toBe(ALICE);
    expect(ks.walletAddress('main')).toBe(ALICE);
  });

  it('wrong passphrase: AuthError and the file is byte-for-byte unchanged', async () => {
    const { path } = await ks.importWalletKey('alice', ALICE_KEY, 'right');
    const before = readFileSync(path);
    const e = await caught(ks.exportWalletKey('alice', 'wrong'));
    expect(e).toBeInstanceOf(AuthError);
    expect((e as AuthError).message).toMatch(/wrong passphrase for wallet "alice"/);
    expect(await caught(ks.openWallet('alice', 'wrong'))).toBeInstanceOf(AuthError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('imports an ethers keystore by re-encrypting it with pm’s passphrase; a wrong source passphrase writes nothing', async () => {
    const src = join(home, 'from-ethers.json');
    writeFileSync(src, await encryptKeystoreJson({ address: BOB, privateKey: BOB_KEY }, 'ethers-pw', { scrypt: { N: 1024 } }));
    const srcBytes = readFileSync(src);
    expect(await caught(ks.importWalletFile('bob', src, 'nope', 'pm-pw'))).toBeInstanceOf(AuthError);
    expect(existsSync(ks.walletPath('bob'))).toBe(false);
    const info = await ks.importWalletFile('bob', src, 'ethers-pw', 'pm-pw');
    expect(info.address).toBe(BOB);
    expect(await decryptKeystore(readFileSync(info.path, 'utf8'), 'pm-pw')).toBe(BOB_KEY);
    expect(readFileSync(src).equals(srcBytes)).toBe(true);
    expect(await caught(ks.importWalletFile('x', join(home, 'missing.json'), 'a', 'b'))).toBeInstanceOf(NotFoundError);
  });

  it('rejects bad names and bad keys before writing', async () => {
    for (const bad of ['../evil', '', '.hidden', 'a/b', 'x'.repeat(65)]) {
      expect(await caught(ks.createWallet(bad, 'pw'))).toBeInstanceOf(ValidationError);
    }
    const e = await caught(ks.importWalletKey('k', '0x1234', 'pw'));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as Error).message).toMatch(/a private key is 32 bytes of hex \(64 hex digits\)/);
    expect(await caught(ks.importWalletKey('k', '00'.repeat(32), 'pw'))).toBeInstanceOf(ValidationError);
    expect(existsSync(join(home, 'keystores', 'k.json'))).toBe(false);
  });

  it('remove and not-found', async () => {
    await ks.importWalletKey('alice', ALICE_KEY, 'pw');
    ks.removeWallet('alice');
    expect(ks.listWallets()).toEqual([]);
    expect(await caught(() => ks.removeWallet('alice'))).toBeInstanceOf(NotFoundError);
    expect(await caught(() => ks.walletAddress('alice'))).toBeInstanceOf(NotFoundError);
  });

  it('lists a broken file with its error instead of failing', async () => {
    await ks.importWalletKey('alice', ALICE_KEY, 'pw');
    writeFileSync(join(home, 'keystores', 'junk.json'), '{"hello":1}');
    const list = ks.listWallets();
    expect(list.map((w) => w.name)).toEqual(['alice', 'junk']);
    expect(list[1]?.address).toBeNull();
  });
});

describe('secrets', () => {
  it('saves, loads, merges and keeps only metadata in clear text', async () => {
    const info = await ks.saveSecrets('main', { tokenId: 'tok-1', tokenSecret: TOKEN_SECRET }, 'pw', { label: 'bot' });
    expect(info).toMatchObject({ name: 'main', tokenId: 'tok-1', label: 'bot', fields: ['tokenId', 'tokenSecret'] });
    expect(ks.hasSecrets('main')).toBe(true);
    await ks.saveSecrets('main', { apiKey: API_KEY }, 'pw');
    expect(await ks.loadSecrets('main', 'pw')).toEqual({ tokenId: 'tok-1', tokenSecret: TOKEN_SECRET, apiKey: API_KEY });
    expect(ks.secretsInfo('main')).toMatchObject({ label: 'bot', fields: ['tokenId', 'tokenSecret', 'apiKey'] });
    expect(ks.listSecrets().map((s) => s.name)).toEqual(['main']);
    ks.removeSecrets('main');
    expect(ks.hasSecrets('main')).toBe(false);
  });

  it('a wrong passphrase changes nothing (load or merge-save)', async () => {
    await ks.saveSecrets('main', { tokenId: 'tok-1', tokenSecret: TOKEN_SECRET }, 'pw');
    const path = ks.secretsPath('main');
    const before = readFileSync(path);
    expect(await caught(ks.loadSecrets('main', 'bad'))).toBeInstanceOf(AuthError);
    expect(await caught(ks.saveSecrets('main', { apiKey: API_KEY }, 'bad'))).toBeInstanceOf(AuthError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('validates what is saved', async () => {
    expect(await caught(ks.saveSecrets('s', { tokenId: 't', tokenSecret: 'not base64!' }, 'pw'))).toBeInstanceOf(ValidationError);
    expect(await caught(ks.saveSecrets('s', { tokenSecret: TOKEN_SECRET }, 'pw'))).toBeInstanceOf(ValidationError);
    expect(ks.hasSecrets('s')).toBe(false);
  });
});

describe('one keystore, one passphrase', () => {
  // Two Keystore objects on one home stand for two pm processes: each looked and found the
  // keystore empty (so each took its own new passphrase), then both write.
  it('a write under a passphrase that does not open the files already there is refused, even when the keystore was empty at the check', async () => {
    const other = new Keystore(home, { scrypt: { n: 1024 } });
    expect(await ks.checkPassphrase('first-pass')).toBeNull();
    expect(await other.checkPassphrase('second-pass')).toBeNull();
    await ks.createWallet('w1', 'first-pass');
    expect(await caught(other.createWallet('w2', 'second-pass'))).toBeInstanceOf(AuthError);
    expect(await caught(other.saveSecrets('s2', { tokenId: 't', tokenSecret: TOKEN_SECRET }, 'second-pass'))).toBeInstanceOf(AuthError);
    expect(ks.hasWallet('w2')).toBe(false);
    expect(ks.hasSecrets('s2')).toBe(false);
    // The keystore's own passphrase still writes, and replacing the only file may change it.
    await other.createWallet('w3', 'first-pass');
    expect((await ks.checkFiles('first-pass')).every((f) => f.problem === undefined)).toBe(true);
    const solo = mkdtempSync(join(tmpdir(), 'pm-ks-'));
    try {
      const one = new Keystore(solo, { scrypt: { n: 1024 } });
      await one.createWallet('only', 'old-pass');
      await one.importWalletKey('only', ALICE_KEY, 'new-pass', { force: true });
      expect(await one.checkPassphrase('new-pass')).toBe(true);
    } finally {
      rmSync(solo, { recursive: true, force: true });
    }
  });
});

describe('the passphrase verified once', () => {
  it('a second check of the same passphrase on one keystore derives no key; a wrong one and a changed file are checked again', async () => {
    const derived: string[] = [];
    const seen = new Keystore(home, { scrypt: { n: 1024 }, onDerive: (label) => (derived.push(label), () => undefined) });
    await ks.importWalletKey('a', ALICE_KEY, 'right-pass');
    await ks.importWalletKey('b', BOB_KEY, 'right-pass');
    expect(await seen.checkPassphrase('right-pass')).toBe(true);
    expect(derived).toHaveLength(1);
    expect(await seen.checkPassphrase('right-pass')).toBe(true);
    expect(derived).toHaveLength(1);
    expect(await seen.checkPassphrase('wrong-pass')).toBe(false);
    expect(derived.length).toBeGreaterThan(1);
    // The file it opened was rewritten (another passphrase, by another process): checked again.
    const before = derived.length;
    await new Keystore(home, { scrypt: { n: 1024 } }).changePassphrase('right-pass', 'next-pass');
    expect(await seen.checkPassphrase('right-pass')).toBe(false);
    expect(derived.length).toBeGreaterThan(before);
  });
});

describe('files at rest', () => {
  it('directories 0700, files 0600 (re-applied on rewrite), no plaintext secrets anywhere, no temp files left', async () => {
    await ks.importWalletKey('alice', ALICE_KEY, 'pw');
    await ks.importWalletKey('bob', BOB_KEY.slice(2), 'pw');
    await ks.saveSecrets('main', { tokenId: 'tok-1', tokenSecret: TOKEN_SECRET, apiKey: API_KEY, identityToken: IDENTITY }, 'pw');
    // Loosened by hand; the next write must tighten both again.
    chmodSync(join(home, 'keystores', 'alice.json'), 0o644);
    chmodSync(join(home, 'keystores'), 0o755);
    await ks.importWalletKey('alice', ALICE_KEY, 'pw', { force: true });
    for (const d of [home, join(home, 'keystores'), join(home, 'secrets')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    const files = allFiles(home);
    expect(files.map((f) => f.slice(home.length)).sort()).toEqual(['/keystores/alice.json', '/keystores/bob.json', '/secrets/main.json']);
    for (const f of files) {
      expect(statSync(f).mode & 0o777).toBe(0o600);
      const text = readFileSync(f, 'utf8').toLowerCase();
      for (const secret of [ALICE_KEY, ALICE_KEY.slice(2), BOB_KEY, BOB_KEY.slice(2), TOKEN_SECRET, API_KEY, IDENTITY]) {
        expect(text.includes(secret.toLowerCase()), `${secret} found in ${f}`).toBe(false);
      }
    }
  });

  it('checkFiles opens every file and names each that does not: damaged, or under another passphrase (doctor)', async () => {
    await ks.importWalletKey('a', ALICE_KEY, 'pass-1');
    await ks.importWalletKey('b', BOB_KEY, 'pass-1');
    await ks.saveSecrets('s', { tokenId: 'tid', tokenSecret: TOKEN_SECRET }, 'pass-1');
    const { checkKeystore } = await import('../../src/core/doctor.js');
    expect(await checkKeystore(ks, 'pass-1')).toMatchObject({ status: 'pass', detail: '3 encrypted file(s) open with the passphrase' });
    expect(await checkKeystore(ks, 'nope')).toMatchObject({ status: 'fail', detail: 'the passphrase does not open the keystore' });
    writeFileSync(ks.walletPath('b'), 'garbage');
    // (The store refuses to write under another passphrase: such a file comes from elsewhere.)
    const elsewhere = mkdtempSync(join(tmpdir(), 'pm-ks-'));
    try {
      const info = await new Keystore(elsewhere, { scrypt: { n: 1024 } }).saveSecrets(
        's',
        { tokenId: 'tid', tokenSecret: TOKEN_SECRET },
        'pass-2',
      );
      writeFileSync(ks.secretsPath('s'), readFileSync(info.path));
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const files = await ks.checkFiles('pass-1');
    expect(files.map((f) => [f.name, f.problem !== undefined, f.wrongPassphrase ?? false])).toEqual([
      ['a', false, false],
      ['b', true, false],
      ['s', true, true],
    ]);
    const r = await checkKeystore(ks, 'pass-1');
    expect(r.status).toBe('fail');
    expect(r.detail).toContain(ks.walletPath('b'));
    expect(r.detail).toContain(ks.secretsPath('s'));
    expect(r.fix).toContain(`mv ${ks.walletPath('b')}`);
  });
});
