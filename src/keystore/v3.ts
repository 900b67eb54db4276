// Web3 Secret Storage v3: the format geth, cast and ethers read and write. One crypto path for
// everything pm keeps at rest: wallets are V3 keystores, token secrets use the same envelope
// (scrypt or pbkdf2 → aes-128-ctr, MAC = keccak256(dk[16:32] ++ ciphertext)).
// The key derivation and AES are node:crypto's (OpenSSL); @noble's scrypt loads only for the
// parameters OpenSSL refuses, so that reading a wallet's address (or a command that signs
// through the session agent) loads no KDF or cipher code.
import { createCipheriv, createDecipheriv, pbkdf2 as pbkdf2Cb, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { scrypt as scryptCb } from 'node:crypto';
import { keccak_256 } from '../core/keccak.js';
import type { Hex } from 'viem';
import { AuthError, ValidationError } from '../core/errors.js';
import { addressOfKey, checksumAddress } from './secp256k1.js';

export interface ScryptParams {
  dklen: number;
  n: number;
  r: number;
  p: number;
  salt: string;
}

export interface Pbkdf2Params {
  c: number;
  dklen: number;
  prf: 'hmac-sha256';
  salt: string;
}

export type CryptoSection =
  | { cipher: 'aes-128-ctr'; cipherparams: { iv: string }; ciphertext: string; kdf: 'scrypt'; kdfparams: ScryptParams; mac: string }
  | { cipher: 'aes-128-ctr'; cipherparams: { iv: string }; ciphertext: string; kdf: 'pbkdf2'; kdfparams: Pbkdf2Params; mac: string };

/** The encrypted envelope shared by wallets and token secrets. */
export interface SecretEnvelope {
  crypto: CryptoSection;
  id: string;
  version: 3;
}

/** A V3 keystore file as geth writes it (address lowercase, no 0x). */
export interface KeystoreV3 extends SecretEnvelope {
  address: string;
}

export interface EncryptOptions {
  /** scrypt cost (power of two); default 131072, what geth and ethers use. */
  n?: number;
  r?: number;
  p?: number;
  uuid?: string;
  iv?: Uint8Array;
  salt?: Uint8Array;
}

const DEFAULT_SCRYPT = { n: 131072, r: 8, p: 1 } as const;

// Refuse files whose KDF would take minutes or gigabytes: a keystore is untrusted input.
// geth's "standard" preset (n=262144, r=8, p=1) needs 256 MiB and 2^21 block mixes.
const MAX_SCRYPT_MEM = 1024 * 1024 * 1024;
const MAX_SCRYPT_WORK = 2 ** 23;
const MAX_PBKDF2_ROUNDS = 10_000_000;

// Private key checks live in key.ts (the env-key path loads no keystore file code).
export { parsePrivateKey } from './key.js';
import { isValidPrivateKey, parsePrivateKey } from './key.js';

/**
 * Encrypts arbitrary bytes into a V3 envelope (used for token secrets; wallets go through
 * encryptKeystore). Defaults to scrypt n=131072, r=8, p=1.
 */
export async function encryptSecret(plaintext: Uint8Array, passphrase: string, opts: EncryptOptions = {}): Promise<SecretEnvelope> {
  const n = opts.n ?? DEFAULT_SCRYPT.n;
  const r = opts.r ?? DEFAULT_SCRYPT.r;
  const p = opts.p ?? DEFAULT_SCRYPT.p;
  const salt = opts.salt ?? randomBytes(32);
  const iv = opts.iv ?? randomBytes(16);
  if (iv.length !== 16) throw new ValidationError('the aes-128-ctr iv must be 16 bytes');
  const kdfparams: ScryptParams = { dklen: 32, n, r, p, salt: hex(salt) };
  checkScrypt(kdfparams);
  const dk = await deriveKey({ kdf: 'scrypt', kdfparams }, normalizePassphrase(passphrase));
  const ciphertext = aes128ctr(dk, iv, plaintext, 'encrypt');
  return {
    crypto: {
      cipher: 'aes-128-ctr',
      cipherparams: { iv: hex(iv) },
      ciphertext: hex(ciphertext),
      kdf: 'scrypt',
      kdfparams,
      mac: hex(mac(dk, ciphertext)),
    },
    id: opts.uuid ?? randomUUID(),
    version: 3,
  };
}

/**
 * Told when a key derivation (scrypt, pbkdf2) of the file `label` starts; returns what to call
 * when it ends. Tests count them and see them overlap (decryptions run in parallel).
 */
export type DeriveHook = (label: string) => () => void;

/**
 * Decrypts a V3 envelope (object or JSON text). Wrong passphrase → AuthError (exit 3);
 * anything that is not a V3 envelope pm can read → ValidationError naming the problem.
 * `label` names the file in messages.
 */
export async function decryptSecret(json: unknown, passphrase: string, label = 'keystore', onDerive?: DeriveHook): Promise<Uint8Array> {
  const env = parseEnvelope(json, label);
  const { crypto } = env;
  const ciphertext = unhex(crypto.ciphertext, `${label}: crypto.ciphertext`);
  const iv = unhex(crypto.cipherparams.iv, `${label}: crypto.cipherparams.iv`);
  const expected = unhex(crypto.mac, `${label}: crypto.mac`);
  if (iv.length !== 16) throw new ValidationError(`${label}: crypto.cipherparams.iv must be 16 bytes, got ${iv.length}`);
  if (expected.length !== 32) throw new ValidationError(`${label}: crypto.mac must be 32 bytes, got ${expected.length}`);
  // ethers normalises passphrases to NFKC, geth uses the raw bytes: try both so files from
  // either tool open with the passphrase the user typed.
  const candidates = [...new Set([normalizePassphrase(passphrase), passphrase])];
  for (const pw of candidates) {
    const ended = onDerive?.(label);
    const dk = await deriveKey(crypto, pw).finally(ended);
    if (timingSafeEqual(mac(dk, ciphertext), expected)) return aes128ctr(dk, iv, ciphertext, 'decrypt');
  }
  throw new AuthError(`wrong passphrase for ${label}`, {
    details: 'The MAC did not match: the passphrase is wrong (or the file was altered). Nothing was changed.',
    hint: 'Type it again, or check PM_PASSPHRASE / --passphrase-file.',
  });
}

/** Encrypts a private key into a V3 keystore that geth, cast and ethers can open. */
export async function encryptKeystore(privateKey: Hex, passphrase: string, opts: EncryptOptions = {}): Promise<KeystoreV3> {
  const key = parsePrivateKey(privateKey);
  const address = addressOfKey(key).slice(2).toLowerCase();
  const env = await encryptSecret(Buffer.from(key.slice(2), 'hex'), passphrase, opts);
  // geth's field order, so a diff against a geth file is quiet.
  return { address, crypto: env.crypto, id: env.id, version: 3 };
}

/**
 * Decrypts a V3 keystore (object or JSON text; `crypto` or ethers' `Crypto`; scrypt or pbkdf2)
 * to the private key. Checks the key against the file's `address` when one is present.
 */
export async function decryptKeystore(json: unknown, passphrase: string, label?: string, onDerive?: DeriveHook): Promise<Hex> {
  const obj = toObject(json, label ?? 'keystore');
  const addr = typeof obj['address'] === 'string' ? obj['address'] : undefined;
  const name = label ?? (addr ? `keystore 0x${addr.replace(/^0x/i, '').toLowerCase()}` : 'keystore');
  const plain = await decryptSecret(obj, passphrase, name, onDerive);
  if (!isValidPrivateKey(plain)) throw new ValidationError(`${name} does not hold a secp256k1 private key (${plain.length} bytes)`);
  const key: Hex = `0x${Buffer.from(plain).toString('hex')}`;
  if (addr !== undefined) {
    const derived = addressOfKey(key).slice(2).toLowerCase();
    if (derived !== addr.replace(/^0x/i, '').toLowerCase()) {
      throw new ValidationError(`${name}: the key decrypts to 0x${derived}, not the file's address 0x${addr}`, {
        hint: 'The file was edited by hand; restore it from a backup.',
      });
    }
  }
  return key;
}

/** Reads the `address` field without decrypting (checksummed), or null when absent. */
export function keystoreAddress(json: unknown, label = 'keystore'): Hex | null {
  const obj = toObject(json, label);
  const a = obj['address'];
  if (a === undefined) return null;
  if (typeof a !== 'string') throw new ValidationError(`${label}: "address" is not a string`);
  return checksumAddress(a);
}

// --- parsing at the boundary ---

function toObject(json: unknown, label: string): Record<string, unknown> {
  let v = json;
  if (typeof v === 'string' || v instanceof Uint8Array) {
    try {
      v = JSON.parse(typeof v === 'string' ? v : Buffer.from(v).toString('utf8'));
    } catch {
      throw new ValidationError(`${label} is not JSON`, { hint: 'A V3 keystore is the JSON file geth, cast or ethers writes.' });
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ValidationError(`${label} is not a JSON object`);
  return v as Record<string, unknown>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Record<string, unknown>, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new ValidationError(`${where}.${key} is ${v === undefined ? 'missing' : 'not a string'}`);
  return v;
}

function int(o: Record<string, unknown>, key: string, where: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
    throw new ValidationError(`${where}.${key} is ${v === undefined ? 'missing' : 'not a positive integer'}`);
  return v;
}

/** Checks the shape of a V3 envelope and returns it typed. */
export function parseEnvelope(json: unknown, label = 'keystore'): SecretEnvelope {
  const o = toObject(json, label);
  if (o['version'] !== 3) {
    throw new ValidationError(`${label}: unsupported keystore version ${JSON.stringify(o['version'] ?? null)}`, {
      hint: 'pm reads Web3 Secret Storage version 3 files only.',
    });
  }
  const c = o['crypto'] ?? o['Crypto'];
  if (!isRecord(c))
    throw new ValidationError(`${label}: the "crypto" section is missing`, { hint: 'This does not look like a V3 keystore.' });
  const where = `${label}: crypto`;
  const cipher = str(c, 'cipher', where);
  if (cipher !== 'aes-128-ctr')
    throw new ValidationError(`${label}: unsupported cipher "${cipher}"`, { hint: 'Only aes-128-ctr is supported.' });
  const cp = c['cipherparams'];
  if (!isRecord(cp)) throw new ValidationError(`${where}.cipherparams is missing`);
  const iv = str(cp, 'iv', `${where}.cipherparams`);
  const ciphertext = str(c, 'ciphertext', where);
  const macHex = str(c, 'mac', where);
  const kdf = str(c, 'kdf', where);
  const kp = c['kdfparams'];
  if (!isRecord(kp)) throw new ValidationError(`${where}.kdfparams is missing`);
  const kw = `${where}.kdfparams`;
  const id = typeof o['id'] === 'string' ? o['id'] : '';
  if (kdf === 'scrypt') {
    const kdfparams: ScryptParams = {
      dklen: int(kp, 'dklen', kw),
      n: int(kp, 'n', kw),
      r: int(kp, 'r', kw),
      p: int(kp, 'p', kw),
      salt: str(kp, 'salt', kw),
    };
    checkScrypt(kdfparams, label);
    return { crypto: { cipher: 'aes-128-ctr', cipherparams: { iv }, ciphertext, kdf, kdfparams, mac: macHex }, id, version: 3 };
  }
  if (kdf === 'pbkdf2') {
    const prf = str(kp, 'prf', kw);
    if (prf !== 'hmac-sha256')
      throw new ValidationError(`${label}: unsupported pbkdf2 prf "${prf}"`, { hint: 'Only hmac-sha256 is supported.' });
    const kdfparams: Pbkdf2Params = { c: int(kp, 'c', kw), dklen: int(kp, 'dklen', kw), prf, salt: str(kp, 'salt', kw) };
    if (kdfparams.c > MAX_PBKDF2_ROUNDS)
      throw new ValidationError(`${label}: pbkdf2 c=${kdfparams.c} is above pm's limit of ${MAX_PBKDF2_ROUNDS}`);
    checkDklen(kdfparams.dklen, label);
    return { crypto: { cipher: 'aes-128-ctr', cipherparams: { iv }, ciphertext, kdf, kdfparams, mac: macHex }, id, version: 3 };
  }
  throw new ValidationError(`${label}: unsupported kdf "${kdf}"`, { hint: 'pm reads scrypt and pbkdf2 keystores.' });
}

function checkDklen(dklen: number, label: string): void {
  // The AES key is dk[0:16] and the MAC key dk[16:32], so fewer than 32 bytes cannot work.
  if (dklen < 32 || dklen > 1024) throw new ValidationError(`${label}: kdfparams.dklen must be 32 or more (got ${dklen})`);
}

// RFC 7914 asks for N < 2^(128·r/8); geth and noble do not enforce it (the published scrypt
// vector has n=262144 with r=1), so neither does pm: it bounds memory and work instead.
function checkScrypt(k: ScryptParams, label = 'keystore'): void {
  checkDklen(k.dklen, label);
  if (k.n < 2 || (k.n & (k.n - 1)) !== 0 || k.n > 2 ** 30)
    throw new ValidationError(`${label}: scrypt n=${k.n} is not a power of two above 1`);
  const mem = 128 * k.r * (k.n + k.p + 1);
  if (mem > MAX_SCRYPT_MEM)
    throw new ValidationError(
      `${label}: scrypt n=${k.n}, r=${k.r}, p=${k.p} needs ${Math.ceil(mem / 2 ** 20)} MiB; pm refuses above ${MAX_SCRYPT_MEM / 2 ** 20} MiB`,
    );
  if (k.n * k.r * k.p > MAX_SCRYPT_WORK)
    throw new ValidationError(`${label}: scrypt n·r·p=${k.n * k.r * k.p} is above pm's limit of ${MAX_SCRYPT_WORK}`);
}

type KdfSpec = { kdf: 'scrypt'; kdfparams: ScryptParams } | { kdf: 'pbkdf2'; kdfparams: Pbkdf2Params };

function nodeScrypt(
  pw: Uint8Array,
  salt: Uint8Array,
  len: number,
  o: { N: number; r: number; p: number; maxmem: number },
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scryptCb(pw, salt, len, o, (err, key) => (err ? reject(err) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length))));
  });
}

async function deriveKey(c: KdfSpec, passphrase: string): Promise<Uint8Array> {
  const pw = new TextEncoder().encode(passphrase);
  if (c.kdf === 'scrypt') {
    const k = c.kdfparams;
    const salt = unhex(k.salt, 'kdfparams.salt');
    // node:crypto's scrypt (OpenSSL, off the main thread) is about twice as fast as @noble's;
    // OpenSSL refuses parameters outside RFC 7914 (n ≥ 2^(16·r)), which some keystores use.
    try {
      return await nodeScrypt(pw, salt, k.dklen, { N: k.n, r: k.r, p: k.p, maxmem: MAX_SCRYPT_MEM + 4 * 1024 * 1024 });
    } catch {
      const { scryptAsync } = await import('@noble/hashes/scrypt.js');
      return scryptAsync(pw, salt, { N: k.n, r: k.r, p: k.p, dkLen: k.dklen, maxmem: MAX_SCRYPT_MEM + 1024 * 1024 });
    }
  }
  const k = c.kdfparams;
  const salt = unhex(k.salt, 'kdfparams.salt');
  return new Promise((resolve, reject) => {
    pbkdf2Cb(pw, salt, k.c, k.dklen, 'sha256', (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length)),
    );
  });
}

/** AES-128-CTR with the first 16 bytes of the derived key (V3: the counter block is the iv). */
function aes128ctr(dk: Uint8Array, iv: Uint8Array, data: Uint8Array, dir: 'encrypt' | 'decrypt'): Uint8Array {
  const c =
    dir === 'encrypt' ? createCipheriv('aes-128-ctr', dk.subarray(0, 16), iv) : createDecipheriv('aes-128-ctr', dk.subarray(0, 16), iv);
  const out = Buffer.concat([c.update(data), c.final()]);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

function mac(dk: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const buf = new Uint8Array(16 + ciphertext.length);
  buf.set(dk.subarray(16, 32), 0);
  buf.set(ciphertext, 16);
  return keccak_256(buf);
}

function normalizePassphrase(p: string): string {
  return p.normalize('NFKC');
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

function unhex(s: string, what: string): Uint8Array {
  const h = s.replace(/^0x/i, '');
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new ValidationError(`${what} is not hex`);
  return Buffer.from(h, 'hex');
}
