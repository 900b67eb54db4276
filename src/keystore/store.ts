// Files under a home directory the caller names (the CLI passes PM_HOME):
//   <home>/keystores/<name>.json  plain V3 keystores (geth, cast and ethers open them as they are)
//   <home>/secrets/<name>.json    token secrets in the same V3 envelope; only the tokenId, a label,
//                                 which fields are set and timestamps sit outside the ciphertext
// Directories 0700, files 0600 (re-applied on every write), writes atomic. A wrong passphrase
// is detected before anything is written, so it never changes or deletes a file.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LocalAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { AuthError, ConflictError, NotFoundError, PmError, ValidationError } from '../core/errors.js';
import { ensurePrivateDir, writePrivateFileAtomic } from '../core/fsutil.js';
import { keyAccount } from './key-account.js';
import { addressOfKey, randomPrivateKey } from './secp256k1.js';
import { isBase64 } from '../core/hmac.js';
import { decryptKeystore, decryptSecret, encryptKeystore, encryptSecret, keystoreAddress, parseEnvelope, parsePrivateKey } from './v3.js';
import type { DeriveHook, EncryptOptions, KeystoreV3 } from './v3.js';

const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

/** Checks a wallet or secrets name (it becomes a file name, so no paths). */
function validateName(name: string, what = 'name'): string {
  if (!NAME_RE.test(name)) {
    throw new ValidationError(`invalid ${what} "${name}"`, {
      hint: 'Use 1–64 letters, digits, "_", "." or "-", starting with a letter or digit.',
    });
  }
  return name;
}

export interface WalletInfo {
  name: string;
  /** Checksummed address read from the file, or null when the file cannot be read. */
  address: Hex | null;
  path: string;
  /** ISO time the file was written. */
  createdAt: string;
  /** Why the file could not be read (list keeps going past a broken file). */
  error?: string;
}

/** What a secrets file holds once decrypted. */
export interface StoredSecrets {
  tokenId?: string;
  tokenSecret?: string;
  apiKey?: string;
  identityToken?: string;
  /** The token that the current one replaced (pm token derive, pm token add), for pm token use. */
  previousTokenId?: string;
  previousTokenSecret?: string;
}

export type SecretField = keyof StoredSecrets;
const SECRET_FIELDS: readonly SecretField[] = [
  'tokenId',
  'tokenSecret',
  'apiKey',
  'identityToken',
  'previousTokenId',
  'previousTokenSecret',
];

/** The clear-text part of a secrets file (readable without the passphrase). */
export interface SecretsInfo {
  name: string;
  path: string;
  tokenId?: string;
  label?: string;
  /** Which fields the encrypted part holds. */
  fields: SecretField[];
  createdAt: string;
  updatedAt: string;
}

/** One encrypted file as `checkFiles` found it. */
export interface FileCheck {
  kind: 'wallet' | 'secrets';
  name: string;
  path: string;
  /** Why it does not open (absent when it opens). */
  problem?: string;
  /** It is sound but the passphrase does not open it. */
  wrongPassphrase?: boolean;
}

export interface KeystoreOptions {
  /** scrypt cost for files pm writes; defaults to n=131072, r=8, p=1 (lower only in tests). */
  scrypt?: { n?: number; r?: number; p?: number };
  /** Told of every key derivation this keystore runs to open a file (tests count them). */
  onDerive?: DeriveHook | undefined;
}

export interface WriteOptions {
  /** Replace an existing file. */
  force?: boolean;
}

/**
 * The keystore under one home directory.
 * @example const ks = new Keystore(home); await ks.createWallet('main', pass); ks.walletAddress('main')
 */
export class Keystore {
  private readonly kdf: EncryptOptions;
  private readonly onDerive: DeriveHook | undefined;
  /** The passphrase this object last saw open a file, and that file as it was then. */
  private opened: { passphrase: string; path: string; mtimeMs: number } | undefined;

  constructor(
    readonly home: string,
    opts: KeystoreOptions = {},
  ) {
    const s = opts.scrypt ?? {};
    this.onDerive = opts.onDerive;
    this.kdf = { ...(s.n !== undefined && { n: s.n }), ...(s.r !== undefined && { r: s.r }), ...(s.p !== undefined && { p: s.p }) };
  }

  /** Path of a wallet's V3 file. */
  walletPath(name: string): string {
    return join(this.home, 'keystores', `${validateName(name, 'wallet name')}.json`);
  }

  /** Path of a secrets file. */
  secretsPath(name: string): string {
    return join(this.home, 'secrets', `${validateName(name, 'secrets name')}.json`);
  }

  /** True when a wallet file exists. */
  hasWallet(name: string): boolean {
    return existsSync(this.walletPath(name));
  }

  /** Creates a wallet with a fresh random key. */
  async createWallet(name: string, passphrase: string, opts: WriteOptions = {}): Promise<WalletInfo> {
    return this.writeWallet(name, randomPrivateKey(), passphrase, opts);
  }

  /** Imports a private key (64 hex digits, with or without 0x). */
  async importWalletKey(name: string, privateKey: string, passphrase: string, opts: WriteOptions = {}): Promise<WalletInfo> {
    return this.writeWallet(name, parsePrivateKey(privateKey), passphrase, opts);
  }

  /**
   * Imports a V3 keystore from geth, cast, ethers…: decrypts it with `sourcePassphrase` and
   * always re-encrypts it with `passphrase` (even when they are equal), so every file pm keeps
   * is checked readable and uses pm's KDF settings. The source is left untouched.
   */
  async importWalletJson(
    name: string,
    json: unknown,
    sourcePassphrase: string,
    passphrase: string,
    opts: WriteOptions = {},
  ): Promise<WalletInfo> {
    this.refuseExisting(name, opts);
    let key: Hex;
    try {
      key = await decryptKeystore(json, sourcePassphrase, 'the keystore to import');
    } catch (e) {
      // Its own passphrase, not pm's: the hint must not send the user to PM_PASSPHRASE.
      if (e instanceof AuthError)
        throw new AuthError(e.shortMessage, {
          details: e.details,
          hint: "It is the passphrase that file was saved with (--keystore-passphrase-file), not pm's keystore passphrase.",
        });
      throw e;
    }
    return this.writeWallet(name, key, passphrase, opts);
  }

  /** importWalletJson reading the JSON from a file. */
  async importWalletFile(
    name: string,
    file: string,
    sourcePassphrase: string,
    passphrase: string,
    opts: WriteOptions = {},
  ): Promise<WalletInfo> {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new NotFoundError(`cannot read keystore file ${file}`, { cause: e, details: errText(e) });
    }
    this.refuseExisting(name, opts);
    const key = await decryptKeystore(text, sourcePassphrase, `keystore ${file}`);
    return this.writeWallet(name, key, passphrase, opts);
  }

  /** Every wallet, with its address read from the file (no decryption). */
  listWallets(): WalletInfo[] {
    const dir = join(this.home, 'keystores');
    return jsonNames(dir).map((name) => {
      const path = join(dir, `${name}.json`);
      const createdAt = fileTime(path);
      try {
        return { name, address: keystoreAddress(readFileSync(path, 'utf8'), `wallet "${name}"`), path, createdAt };
      } catch (e) {
        return { name, address: null, path, createdAt, error: errText(e) };
      }
    });
  }

  /** A wallet's address, read from its file without the passphrase. */
  walletAddress(name: string): Hex {
    const address = this.parsed('wallet', name, () => keystoreAddress(this.readWallet(name), `wallet "${name}"`));
    if (address === null)
      throw new ValidationError(`wallet "${name}" has no address field`, { hint: `Re-import it: pm wallet import ${name} --force` });
    return address;
  }

  /** Decrypts a wallet into a viem account (the key stays in the account's closure). */
  async openWallet(name: string, passphrase: string): Promise<LocalAccount> {
    return keyAccount(await this.exportWalletKey(name, passphrase));
  }

  /** Decrypts a wallet and returns its private key hex (for `wallet export`). */
  async exportWalletKey(name: string, passphrase: string): Promise<Hex> {
    const text = this.readWallet(name);
    return this.parsedAsync('wallet', name, () => decryptKeystore(text, passphrase, `wallet "${name}"`, this.onDerive));
  }

  /** The wallet's V3 JSON as stored (still encrypted). */
  exportWalletJson(name: string): string {
    return this.readWallet(name);
  }

  /** Deletes a wallet file. */
  removeWallet(name: string): void {
    this.readWallet(name);
    rmSync(this.walletPath(name));
  }

  /**
   * Stores token secrets under `name`. When the file exists it is first decrypted with
   * `passphrase` (so a wrong one changes nothing) and the new fields are merged over the old;
   * `force` skips that and replaces the file.
   */
  async saveSecrets(
    name: string,
    secrets: StoredSecrets,
    passphrase: string,
    opts: WriteOptions & { label?: string } = {},
  ): Promise<SecretsInfo> {
    // Merging reads the file and writes it back: under the keystore's lock, so parallel writers
    // of one profile's secrets never drop each other's fields.
    const path = this.secretsPath(name);
    return this.locked(`the secrets of ${name} (${path})`, path, passphrase, () => this.saveSecretsLocked(name, secrets, passphrase, opts));
  }

  /**
   * Runs a write of encrypted file `path` under the keystore's lock, after checking that
   * `passphrase` is the keystore's: one that does not open the other files is refused, even when
   * the keystore was empty when the caller looked (two first writes in parallel, each with its
   * own new passphrase, would leave a keystore no one passphrase opens).
   */
  private async locked<T>(what: string, path: string | null, passphrase: string | null, write: () => Promise<T>): Promise<T> {
    const { withLock } = await import('../core/filelock.js');
    return withLock(
      join(this.home, 'run', 'keystore.lock'),
      async () => {
        if (passphrase !== null && !this.vouched(passphrase)) {
          const others = this.encryptedFiles().filter((f) => f.path !== path);
          if ((await this.opensFirst(others, passphrase)) === false)
            throw new AuthError(
              `the keystore in ${this.home} is encrypted with another passphrase; pm keeps one passphrase for every wallet and token secret`,
              { hint: "Use the keystore's passphrase, or change it for every secret with pm wallet passphrase." },
            );
        }
        return write();
      },
      { what },
    );
  }

  /** Whether this object saw `passphrase` open a file that is unchanged since (so it still does). */
  private vouched(passphrase: string): boolean {
    const v = this.opened;
    if (v === undefined || v.passphrase !== passphrase) return false;
    try {
      return statSync(v.path).mtimeMs === v.mtimeMs;
    } catch {
      return false;
    }
  }

  private async saveSecretsLocked(
    name: string,
    secrets: StoredSecrets,
    passphrase: string,
    opts: WriteOptions & { label?: string },
  ): Promise<SecretsInfo> {
    const path = this.secretsPath(name);
    const clean = checkSecrets(secrets, 'secrets to save');
    let merged = clean;
    let createdAt = new Date().toISOString();
    let label = opts.label;
    if (!opts.force && existsSync(path)) {
      const old = this.secretsInfo(name);
      merged = { ...(await this.loadSecrets(name, passphrase)), ...clean };
      createdAt = old.createdAt;
      label ??= old.label;
    }
    if (merged.tokenSecret !== undefined && merged.tokenId === undefined) throw new ValidationError('a tokenSecret needs its tokenId');
    const fields = SECRET_FIELDS.filter((f) => merged[f] !== undefined);
    const env = await encryptSecret(new TextEncoder().encode(JSON.stringify(merged)), passphrase, this.kdf);
    const file = {
      version: 3,
      id: env.id,
      kind: 'pm-secrets',
      ...(label !== undefined && { label }),
      ...(merged.tokenId !== undefined && { tokenId: merged.tokenId }),
      fields,
      createdAt,
      updatedAt: new Date().toISOString(),
      crypto: env.crypto,
    };
    ensurePrivateDir(dirname(dirname(path)));
    writePrivateFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
    return this.secretsInfo(name);
  }

  /** Decrypts a secrets file. */
  async loadSecrets(name: string, passphrase: string): Promise<StoredSecrets> {
    const label = `secrets "${name}"`;
    const text = this.readSecrets(name);
    const plain = await this.parsedAsync('secrets', name, () => decryptSecret(text, passphrase, label, this.onDerive));
    let obj: unknown;
    try {
      obj = JSON.parse(Buffer.from(plain).toString('utf8'));
    } catch {
      throw new ValidationError(`${label} decrypted to something that is not JSON`, {
        hint: 'The file is not a pm secrets file; remove it and add the token again.',
      });
    }
    return checkSecrets(obj, label);
  }

  /** The clear-text metadata of a secrets file, without decrypting. */
  secretsInfo(name: string): SecretsInfo {
    const path = this.secretsPath(name);
    const label = `secrets "${name}"`;
    const text = this.readSecrets(name);
    this.parsed('secrets', name, () => parseEnvelope(text, label));
    const o = JSON.parse(text) as Record<string, unknown>;
    const fields = Array.isArray(o['fields']) ? SECRET_FIELDS.filter((f) => (o['fields'] as unknown[]).includes(f)) : [...SECRET_FIELDS];
    const at = fileTime(path);
    return {
      name,
      path,
      ...(typeof o['tokenId'] === 'string' && { tokenId: o['tokenId'] }),
      ...(typeof o['label'] === 'string' && { label: o['label'] }),
      fields,
      createdAt: typeof o['createdAt'] === 'string' ? o['createdAt'] : at,
      updatedAt: typeof o['updatedAt'] === 'string' ? o['updatedAt'] : at,
    };
  }

  /** Every secrets file's metadata (broken files are skipped). */
  listSecrets(): SecretsInfo[] {
    const out: SecretsInfo[] = [];
    for (const name of jsonNames(join(this.home, 'secrets'))) {
      try {
        out.push(this.secretsInfo(name));
      } catch {
        // A foreign or broken file must not hide the others; `secretsInfo` names the problem.
      }
    }
    return out;
  }

  /** True when a secrets file exists. */
  hasSecrets(name: string): boolean {
    return existsSync(this.secretsPath(name));
  }

  /** Deletes a secrets file. */
  removeSecrets(name: string): void {
    this.readSecrets(name);
    rmSync(this.secretsPath(name));
  }

  /** Every encrypted file of this keystore (wallets, then secrets). */
  encryptedFiles(): { kind: 'wallet' | 'secrets'; name: string; path: string }[] {
    return [
      ...jsonNames(join(this.home, 'keystores')).map((name) => ({ kind: 'wallet' as const, name, path: this.walletPath(name) })),
      ...jsonNames(join(this.home, 'secrets')).map((name) => ({ kind: 'secrets' as const, name, path: this.secretsPath(name) })),
    ];
  }

  /**
   * One keystore, one passphrase: true when `passphrase` opens the first readable encrypted
   * file, false when it is wrong, null when the keystore holds nothing yet.
   */
  async checkPassphrase(passphrase: string): Promise<boolean | null> {
    // Verified once: a file this object saw it open, unchanged since, still opens with it.
    if (this.vouched(passphrase)) return true;
    return this.opensFirst(this.encryptedFiles(), passphrase);
  }

  private async opensFirst(
    files: { kind: 'wallet' | 'secrets'; name: string; path: string }[],
    passphrase: string,
  ): Promise<boolean | null> {
    for (const f of files) {
      try {
        const mtimeMs = statSync(f.path).mtimeMs;
        const text = readFileSync(f.path, 'utf8');
        if (f.kind === 'wallet') await decryptKeystore(text, passphrase, f.name, this.onDerive);
        else await decryptSecret(text, passphrase, f.name, this.onDerive);
        this.opened = { passphrase, path: f.path, mtimeMs };
        return true;
      } catch (e) {
        if (e instanceof AuthError) return false;
        // A broken or foreign file says nothing about the passphrase: try the next one.
      }
    }
    return null;
  }

  /**
   * Opens every encrypted file with `passphrase`, each through the same code that uses it (a
   * wallet into a key, secrets into their fields); only the verdict comes back. `checkPassphrase`
   * stops at the first file that opens; this is for `pm doctor`, which must find every one that
   * does not.
   */
  async checkFiles(passphrase: string, onChecked?: (f: FileCheck) => void): Promise<FileCheck[]> {
    // scrypt runs on the thread pool: the files are opened in parallel; `onChecked` hears of each as it is done.
    return Promise.all(
      this.encryptedFiles().map(async (f): Promise<FileCheck> => {
        let checked: FileCheck;
        try {
          if (f.kind === 'wallet') await this.exportWalletKey(f.name, passphrase);
          else await this.loadSecrets(f.name, passphrase);
          checked = f;
        } catch (e) {
          checked = { ...f, problem: e instanceof PmError ? e.shortMessage : errText(e), wrongPassphrase: e instanceof AuthError };
        }
        onChecked?.(checked);
        return checked;
      }),
    );
  }

  /**
   * Re-encrypts every wallet and secrets file under `next`. Everything is decrypted and the new
   * files are written (as temp files) before any is renamed over the old, so a wrong `old`
   * passphrase or an unreadable file changes nothing.
   */
  async changePassphrase(old: string, next: string): Promise<{ wallets: string[]; secrets: string[] }> {
    // Under the keystore's lock: a file written meanwhile would keep the old passphrase.
    return this.locked(`the keystore in ${this.home}`, null, null, () => this.reencryptAll(old, next));
  }

  private async reencryptAll(old: string, next: string): Promise<{ wallets: string[]; secrets: string[] }> {
    const staged: { tmp: string; path: string }[] = [];
    const done = { wallets: [] as string[], secrets: [] as string[] };
    try {
      for (const f of this.encryptedFiles()) {
        const text = readFileSync(f.path, 'utf8');
        let out: string;
        if (f.kind === 'wallet') {
          out = JSON.stringify(await encryptKeystore(await decryptKeystore(text, old, `wallet "${f.name}"`), next, this.kdf));
          done.wallets.push(f.name);
        } else {
          const plain = await decryptSecret(text, old, `secrets "${f.name}"`);
          const env = await encryptSecret(plain, next, this.kdf);
          const o = JSON.parse(text) as Record<string, unknown>;
          out = `${JSON.stringify({ ...o, id: env.id, updatedAt: new Date().toISOString(), crypto: env.crypto }, null, 2)}\n`;
          done.secrets.push(f.name);
        }
        const tmp = `${f.path}.new`;
        writePrivateFileAtomic(tmp, out);
        staged.push({ tmp, path: f.path });
      }
    } catch (e) {
      for (const s of staged) rmSync(s.tmp, { force: true });
      throw e;
    }
    for (const s of staged) renameSync(s.tmp, s.path);
    return done;
  }

  private refuseExisting(name: string, opts: WriteOptions): void {
    if (!opts.force && this.hasWallet(name)) {
      throw new ConflictError(`a wallet named "${name}" already exists`, {
        hint: 'Choose another name, or pass --force to replace it (the old key is lost unless backed up).',
      });
    }
  }

  private async writeWallet(name: string, key: Hex, passphrase: string, opts: WriteOptions): Promise<WalletInfo> {
    this.refuseExisting(name, opts);
    const path = this.walletPath(name);
    return this.locked(`wallet ${name} (${path})`, path, passphrase, async () => {
      const ks: KeystoreV3 = await encryptKeystore(key, passphrase, this.kdf);
      ensurePrivateDir(dirname(dirname(path)));
      writePrivateFileAtomic(path, JSON.stringify(ks), { replace: opts.force === true, onExists: () => this.refuseExisting(name, {}) });
      return { name, address: addressOfKey(key), path, createdAt: fileTime(path) };
    });
  }

  /**
   * `read`'s value; a file that does not parse (not JSON, not a keystore: damaged, not a wrong
   * passphrase) is named with its path and the fix, as pm doctor names it.
   */
  private parsed<T>(kind: 'wallet' | 'secrets', name: string, read: () => T): T {
    try {
      return read();
    } catch (e) {
      throw this.damaged(kind, name, e);
    }
  }

  private async parsedAsync<T>(kind: 'wallet' | 'secrets', name: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      throw this.damaged(kind, name, e);
    }
  }

  private damaged(kind: 'wallet' | 'secrets', name: string, e: unknown): unknown {
    if (!(e instanceof ValidationError)) return e;
    const path = kind === 'wallet' ? this.walletPath(name) : this.secretsPath(name);
    const restore =
      kind === 'wallet'
        ? `import the wallet again (pm wallet import ${name}) or restore the file from a backup`
        : 'add the token again (pm token add) or restore the file from a backup';
    return new ValidationError(`${e.shortMessage}: the file ${path} is damaged`, {
      hint: `Move it aside (mv ${path} ${path}.damaged) and ${restore}; pm doctor checks every file.`,
      cause: e,
    });
  }

  private readWallet(name: string): string {
    const path = this.walletPath(name);
    try {
      return readFileSync(path, 'utf8');
    } catch (e) {
      if (isNoEnt(e))
        throw new NotFoundError(`no wallet named "${name}"`, {
          hint: 'List wallets with pm wallet list, or create one with pm wallet create.',
        });
      throw new PmError(`cannot read wallet "${name}"`, { cause: e, details: errText(e) });
    }
  }

  private readSecrets(name: string): string {
    const path = this.secretsPath(name);
    try {
      return readFileSync(path, 'utf8');
    } catch (e) {
      if (isNoEnt(e))
        throw new NotFoundError(`no stored secrets named "${name}"`, { hint: 'Add a token with pm token add, or run pm init.' });
      throw new PmError(`cannot read secrets "${name}"`, { cause: e, details: errText(e) });
    }
  }
}

function checkSecrets(v: unknown, label: string): StoredSecrets {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ValidationError(`${label} is not a JSON object`);
  const o = v as Record<string, unknown>;
  const out: StoredSecrets = {};
  for (const f of SECRET_FIELDS) {
    const x = o[f];
    if (x === undefined) continue;
    if (typeof x !== 'string' || x.length === 0) throw new ValidationError(`${label}: ${f} must be a non-empty string`);
    out[f] = x;
  }
  // Names only, never values: these are secrets.
  if (
    (out.tokenSecret !== undefined && !isBase64(out.tokenSecret)) ||
    (out.previousTokenSecret !== undefined && !isBase64(out.previousTokenSecret))
  )
    throw new ValidationError(`${label}: tokenSecret is not base64`, {
      hint: 'A token secret is the base64 string the exchange returned once when the token was derived.',
    });
  return out;
}

function jsonNames(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .filter((n) => NAME_RE.test(n))
    .sort();
}

function fileTime(path: string): string {
  const st = statSync(path);
  return new Date(st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs).toISOString();
}

function isNoEnt(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'ENOENT';
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
