import { describe, expect, it } from 'vitest';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { decryptKeystore, decryptSecret, encryptKeystore, encryptSecret, parsePrivateKey } from '../../src/keystore/index.js';
import { AuthError, ValidationError } from '../../src/core/errors.js';
import { PBKDF2_VEC, SCRYPT_VEC, VEC_KEY } from '../helpers/keystore-vectors.js';

const ALICE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const FAST = { n: 1024 };

async function rejectsWith<T extends Error>(p: Promise<unknown>, cls: new (...a: never[]) => T, re: RegExp): Promise<T> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(cls);
  expect((e as Error).message).toMatch(re);
  return e as T;
}

describe('published vectors', () => {
  it('decrypts the PBKDF2 vector to the published key', async () => {
    expect(await decryptKeystore(PBKDF2_VEC, 'testpassword')).toBe(VEC_KEY);
  });

  it('decrypts the scrypt vector (n=262144, r=1, p=8, which RFC 7914 strictly forbids) like geth does', async () => {
    expect(await decryptKeystore(JSON.stringify(SCRYPT_VEC), 'testpassword')).toBe(VEC_KEY);
  });

  it('rejects a wrong passphrase on the vector with AuthError (exit 3)', async () => {
    const e = await rejectsWith(decryptKeystore(PBKDF2_VEC, 'nope'), AuthError, /wrong passphrase for keystore/);
    expect(e.exitCode).toBe(3);
  });
});

describe('encrypt/decrypt', () => {
  it('round trips and writes geth-shaped fields', async () => {
    const ks = await encryptKeystore(ALICE_KEY, 'pw', FAST);
    expect(ks.version).toBe(3);
    expect(ks.address).toBe(ALICE.slice(2).toLowerCase());
    expect(ks.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ks.crypto.cipher).toBe('aes-128-ctr');
    expect(ks.crypto.kdf).toBe('scrypt');
    expect(ks.crypto.kdfparams).toMatchObject({ n: 1024, r: 8, p: 1, dklen: 32 });
    expect(JSON.stringify(ks)).not.toContain(ALICE_KEY.slice(2));
    expect(await decryptKeystore(ks, 'pw')).toBe(ALICE_KEY);
  });

  it('uses the default cost n=131072, r=8, p=1', async () => {
    // Fixed salt/iv/uuid make the output deterministic; only the params are checked here.
    const ks = await encryptKeystore(ALICE_KEY, 'pw', { uuid: 'u', iv: new Uint8Array(16), salt: new Uint8Array(32) });
    expect(ks.crypto.kdfparams).toMatchObject({ n: 131072, r: 8, p: 1, dklen: 32, salt: '00'.repeat(32) });
    expect(ks.crypto.cipherparams.iv).toBe('00'.repeat(16));
    expect(ks.id).toBe('u');
  });

  it('pm → ethers: a pm keystore opens in ethers to the same address', async () => {
    const ks = await encryptKeystore(ALICE_KEY, 'correct horse', FAST);
    const w = await Wallet.fromEncryptedJson(JSON.stringify(ks), 'correct horse');
    expect(w.address).toBe(ALICE);
    expect(w.privateKey).toBe(ALICE_KEY);
  });

  it('ethers → pm: reads ethers files (capital "Crypto", scrypt) and non-ASCII passphrases (NFKC)', async () => {
    const pw = 'ｐä\u0073s';
    const json = await encryptKeystoreJson({ address: ALICE, privateKey: ALICE_KEY }, pw, { scrypt: { N: 1024 } });
    expect(await decryptKeystore(json, pw)).toBe(ALICE_KEY);
    const capital = JSON.parse(json) as Record<string, unknown>;
    if (!('Crypto' in capital)) {
      capital['Crypto'] = capital['crypto'];
      delete capital['crypto'];
    }
    expect(await decryptKeystore(capital, pw)).toBe(ALICE_KEY);
  });

  it('generic secrets use the same envelope', async () => {
    const plain = new TextEncoder().encode('{"tokenSecret":"c3VwZXItc2VjcmV0LWtleQ=="}');
    const env = await encryptSecret(plain, 'pw', FAST);
    expect(env.version).toBe(3);
    expect(JSON.stringify(env)).not.toContain('c3VwZXIt');
    expect(Buffer.from(await decryptSecret(env, 'pw')).toString()).toBe('{"tokenSecret":"c3VwZXItc2VjcmV0LWtleQ=="}');
    await rejectsWith(decryptSecret(env, 'pW', 'secrets "x"'), AuthError, /wrong passphrase for secrets "x"/);
  });
});

describe('foreign or corrupt input', () => {
  const base = () => JSON.parse(JSON.stringify(PBKDF2_VEC)) as { crypto: Record<string, unknown> } & Record<string, unknown>;

  it('names what is wrong', async () => {
    await rejectsWith(decryptKeystore('not json', 'x'), ValidationError, /not JSON/);
    await rejectsWith(decryptKeystore([], 'x'), ValidationError, /not a JSON object/);
    await rejectsWith(decryptKeystore({ ...base(), version: 1 }, 'x'), ValidationError, /unsupported keystore version 1/);
    const noCrypto = base();
    delete (noCrypto as Record<string, unknown>)['crypto'];
    await rejectsWith(decryptKeystore(noCrypto, 'x'), ValidationError, /"crypto" section is missing/);
    const cipher = base();
    cipher.crypto['cipher'] = 'aes-128-cbc';
    await rejectsWith(decryptKeystore(cipher, 'x'), ValidationError, /unsupported cipher "aes-128-cbc"/);
    const kdf = base();
    kdf.crypto['kdf'] = 'argon2';
    await rejectsWith(decryptKeystore(kdf, 'x'), ValidationError, /unsupported kdf "argon2"/);
    const prf = base();
    (prf.crypto['kdfparams'] as Record<string, unknown>)['prf'] = 'hmac-sha512';
    await rejectsWith(decryptKeystore(prf, 'x'), ValidationError, /unsupported pbkdf2 prf/);
    const mac = base();
    delete mac.crypto['mac'];
    await rejectsWith(decryptKeystore(mac, 'x'), ValidationError, /crypto\.mac is missing/);
    const iv = base();
    iv.crypto['cipherparams'] = { iv: 'zz' };
    await rejectsWith(decryptKeystore(iv, 'x'), ValidationError, /iv is not hex/);
  });

  it('refuses scrypt parameters that would exhaust memory or CPU, before deriving', async () => {
    const huge = JSON.parse(JSON.stringify(SCRYPT_VEC)) as { crypto: { kdfparams: Record<string, unknown> } };
    huge.crypto.kdfparams['n'] = 2 ** 24;
    huge.crypto.kdfparams['r'] = 8;
    huge.crypto.kdfparams['p'] = 1;
    await rejectsWith(decryptKeystore(huge, 'x'), ValidationError, /needs 1638\d MiB; pm refuses above 1024 MiB/);
    const notPow2 = JSON.parse(JSON.stringify(SCRYPT_VEC)) as { crypto: { kdfparams: Record<string, unknown> } };
    notPow2.crypto.kdfparams['n'] = 1000;
    await rejectsWith(decryptKeystore(notPow2, 'x'), ValidationError, /not a power of two/);
  });

  it('detects a file whose address does not match its key', async () => {
    const ks = await encryptKeystore(ALICE_KEY, 'pw', FAST);
    await rejectsWith(
      decryptKeystore({ ...ks, address: '70997970c51812dc3a010c7d01b50e0d17dc79c8' }, 'pw'),
      ValidationError,
      /not the file's address/,
    );
  });
});

describe('parsePrivateKey', () => {
  it('accepts 64 hex digits with or without 0x', () => {
    expect(parsePrivateKey(ALICE_KEY.slice(2))).toBe(ALICE_KEY);
    expect(parsePrivateKey(ALICE_KEY.toUpperCase().replace('0X', '0x'))).toBe(ALICE_KEY);
  });
  it('rejects wrong lengths, non-hex, zero and keys ≥ n', () => {
    for (const bad of ['', '0x1234', `${ALICE_KEY}00`, 'zz'.repeat(32)]) {
      expect(() => parsePrivateKey(bad)).toThrow(/a private key is 32 bytes of hex \(64 hex digits\)/);
    }
    expect(() => parsePrivateKey('00'.repeat(32))).toThrow(ValidationError);
    expect(() => parsePrivateKey('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141')).toThrow(/out of range/);
    expect(parsePrivateKey('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140')).toMatch(/^0xf/);
  });
});
