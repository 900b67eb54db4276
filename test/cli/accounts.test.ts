// wallet and token commands in-process, against a real sandbox where the exchange is needed.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
// Each test its own PM_HOME: which wallet is active, and which token the profile holds,
// must not depend on the tests that ran before.
let home = '';
let cleanup = (): void => {};
beforeEach(() => {
  ({ home, cleanup } = tempHome());
});
afterEach(() => cleanup());
const PASS = 'wallet-pass-1';
const env = (extra: Record<string, string> = {}) => ({
  PM_HOME: home,
  PM_SCRYPT_N: '1024',
  PM_PASSPHRASE: PASS,
  PM_BASE_URL: sb.current.baseUrl,
  ...extra,
});
const pm = (argv: string[], extra: Record<string, string> = {}, stdin?: string) =>
  runPm(argv, { env: env(extra), ...(stdin !== undefined ? { stdin } : {}) });
const partner = () => sb.current.info.accounts.find((a) => a.name === 'partner')!;

describe('wallet', () => {
  it('creates, lists, shows and exports a wallet that ethers can decrypt', async () => {
    const c = await pm(['--json', 'wallet', 'create', 'main']);
    expect(c.code, c.stderr).toBe(0);
    const { address, path } = c.json<{ address: string; path: string }>();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'keystores')).mode & 0o777).toBe(0o700);
    const list = (await pm(['--json', 'wallet', 'list'])).json<{ name: string; address: string; active: boolean }[]>();
    expect(list).toContainEqual(expect.objectContaining({ name: 'main', address, active: true }));
    expect((await pm(['wallet', 'address', 'main'])).stdout.trim()).toBe(address);
    const out = join(home, 'main-backup.json');
    expect((await pm(['wallet', 'export', 'main', '--out', out, '--yes'])).code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const w = await Wallet.fromEncryptedJson(readFileSync(out, 'utf8'), PASS);
    expect(w.address).toBe(address);
    const key = await pm(['wallet', 'export', 'main', '--format', 'key', '--out', '-', '--yes']);
    expect(key.stdout.trim()).toBe(w.privateKey);
    // With --json, stdout is one JSON document either way (it was the bare key, or nothing).
    const jkey = await pm(['--json', 'wallet', 'export', 'main', '--format', 'key', '--out', '-', '--yes']);
    expect(jkey.json()).toEqual({ name: 'main', address, format: 'key', privateKey: w.privateKey });
    const jks = await pm(['--json', 'wallet', 'export', 'main', '--out', '-', '--yes']);
    expect(jks.json<{ keystore: { address: string } }>()).toMatchObject({ name: 'main', address, format: 'keystore' });
    expect((await Wallet.fromEncryptedJson(JSON.stringify(jks.json<{ keystore: unknown }>().keystore), PASS)).address).toBe(address);
    const jfile = await pm(['--json', 'wallet', 'export', 'main', '--out', out, '--yes']);
    expect(jfile.json()).toEqual({ name: 'main', address, format: 'keystore', path: out });
    expect((await pm(['wallet', 'export', 'main'])).code).toBe(2); // no --out: refused
    expect((await pm(['wallet', 'export', 'main', '--out', out])).code).toBe(2); // no TTY, no --yes
    expect((await pm(['wallet', 'create', 'main'])).code).toBe(5); // exists
  });

  it('imports from a key file, stdin and an ethers keystore; never from argv', async () => {
    const k = Wallet.createRandom();
    const f = join(home, 'key.txt');
    writeFileSync(f, `${k.privateKey}\n`);
    expect((await pm(['--json', 'wallet', 'import', 'fromfile', '--file', f])).json<{ address: string }>().address).toBe(k.address);
    const k2 = Wallet.createRandom();
    expect(
      (await pm(['--json', 'wallet', 'import', 'fromstdin', '--stdin'], {}, k2.privateKey.slice(2))).json<{ address: string }>().address,
    ).toBe(k2.address);
    const k3 = Wallet.createRandom();
    const ks = join(home, 'ethers.json');
    writeFileSync(ks, await encryptKeystoreJson({ address: k3.address, privateKey: k3.privateKey }, 'their-pass', { scrypt: { N: 1024 } }));
    const pf = join(home, 'their-pass.txt');
    // A passphrase file others can read is refused, as --passphrase-file is; a wrong one names the file's passphrase.
    writeFileSync(pf, 'their-pass\n', { mode: 0o644 });
    chmodSync(pf, 0o644);
    const open = await pm(['wallet', 'import', 'fromethers', '--keystore', ks, '--keystore-passphrase-file', pf]);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/readable by others[\s\S]*chmod 600/);
    chmodSync(pf, 0o600);
    const wrongFile = join(home, 'wrong-pass.txt');
    writeFileSync(wrongFile, 'not-their-pass\n', { mode: 0o600 });
    const wrong = await pm(['wallet', 'import', 'fromethers', '--keystore', ks, '--keystore-passphrase-file', wrongFile]);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/--keystore-passphrase-file/);
    expect(wrong.stderr).not.toMatch(/PM_PASSPHRASE/);
    const imp = await pm(['--json', 'wallet', 'import', 'fromethers', '--keystore', ks, '--keystore-passphrase-file', pf]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.json<{ address: string }>().address).toBe(k3.address);
    const argv = await pm(['wallet', 'import', k.privateKey]);
    expect(argv.code).toBe(2);
    expect(argv.stderr).toMatch(/looks like a private key/);
    const notJson = join(home, 'not-a-keystore.json');
    writeFileSync(notJson, 'hello');
    const nj = await pm(['wallet', 'import', 'nj', '--keystore', notJson, '--keystore-passphrase-file', pf]);
    expect(nj.code).toBe(2);
    expect(nj.stderr).toMatch(/not a keystore/);
    const bad = join(home, 'bad.txt');
    writeFileSync(bad, '0x1234');
    const b = await pm(['wallet', 'import', 'bad', '--file', bad]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/32 bytes/);
    const noPass = await runPm(['wallet', 'create', 'nopass'], { env: { PM_HOME: home, PM_SCRYPT_N: '1024' } });
    expect(noPass.code).toBe(3);
    expect(noPass.stderr).toMatch(/PM_PASSPHRASE/);
  });

  it('refuses a wrong passphrase with exit 3 and changes nothing; removes with --yes only', async () => {
    expect((await pm(['wallet', 'create', 'main'])).code).toBe(0);
    const f = join(home, 'key.txt');
    writeFileSync(f, `${Wallet.createRandom().privateKey}\n`);
    expect((await pm(['wallet', 'import', 'fromfile', '--file', f])).code).toBe(0);
    const file = join(home, 'keystores', 'main.json');
    const before = readFileSync(file, 'utf8');
    const w = await pm(['wallet', 'export', 'main', '--format', 'key', '--out', '-', '--yes'], { PM_PASSPHRASE: 'wrong' });
    expect(w.code).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect((await pm(['wallet', 'remove', 'fromfile'])).code).toBe(2);
    expect((await pm(['wallet', 'remove', 'fromfile', '--yes'])).code).toBe(0);
    expect((await pm(['wallet', 'address', 'fromfile'])).code).toBe(4);
  });
});

describe('token', () => {
  beforeEach(async () => {
    expect((await pm(['--profile', 'default', 'config', 'set', 'base-url', sb.current.baseUrl])).code).toBe(0);
  });

  it('derives a token with the identity token, stores it encrypted, lists and revokes it', async () => {
    const idEnv = { PM_IDENTITY_TOKEN: partner().identityToken };
    const caps = await pm(['--json', 'token', 'capabilities'], idEnv);
    expect(caps.json<{ allowedScopes: string[] }>().allowedScopes).toContain('delegated_signing');
    const d = await pm(
      ['--json', '--profile', 'default', 'token', 'derive', '--scopes', 'trading,delegated_signing', '--label', 'bot'],
      idEnv,
    );
    expect(d.code, d.stderr).toBe(0);
    const { tokenId } = d.json<{ tokenId: string }>();
    const secret = sb.current.ctx.state.tokens.find((t) => t.tokenId === tokenId)?.secret ?? 'missing';
    expect(d.stdout).not.toContain(secret);
    for (const f of ['config.json', join('secrets', 'default.json')]) expect(readFileSync(join(home, f), 'utf8')).not.toContain(secret);
    const who = await pm(['--json', 'whoami']);
    expect(who.json<{ tokenId: string; scopes: string[]; profileId: number }>()).toMatchObject({
      tokenId,
      profileId: partner().profileId,
      scopes: ['trading', 'delegated_signing'],
    });
    const list = await pm(['--json', 'token', 'list']);
    expect(list.json<{ tokenId: string; inUse: boolean }[]>()).toContainEqual(expect.objectContaining({ tokenId, inUse: true }));
    expect((await pm(['token', 'derive', '--scopes', 'everything'], idEnv)).code).toBe(2);
    const rv = await pm(['--json', 'token', 'revoke', tokenId, '--yes']);
    expect(rv.code, rv.stderr).toBe(0);
    expect(rv.json<{ removedFromProfile: boolean }>().removedFromProfile).toBe(true);
    expect((await pm(['whoami'])).code).toBe(3); // the stored token is gone; legacy key absent
  });

  it('adds an existing token from a file and verifies it with whoami; a bad secret is refused, or (--skip-check) fails there', async () => {
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice')!;
    const f = join(home, 'secret.txt');
    writeFileSync(f, `${alice.token.secret}\n`);
    const add = await pm(['--profile', 'default', 'token', 'add', '--token-id', alice.token.tokenId, '--secret-file', f]);
    expect(add.code, add.stderr).toBe(0);
    expect((await pm(['--json', 'whoami'])).json<{ profileId: number }>().profileId).toBe(alice.profileId);
    writeFileSync(f, `${Buffer.from('wrong').toString('base64')}\n`);
    expect((await pm(['token', 'add', '--token-id', alice.token.tokenId, '--secret-file', f])).code).toBe(3);
    expect((await pm(['whoami'])).code).toBe(0);
    await pm(['token', 'add', '--token-id', alice.token.tokenId, '--secret-file', f, '--skip-check']);
    const who = await pm(['whoami']);
    expect(who.code).toBe(3);
    writeFileSync(f, 'not base64!!');
    expect((await pm(['token', 'add', '--token-id', 'x', '--secret-file', f])).code).toBe(2);
  });
});
