// Onboarding that cannot leave a mess: init is atomic, the wizard re-asks bad answers in place
// (driven through a pseudo-terminal), one keystore has one passphrase, URLs are checked in one
// place, and the passphrase comes from flag > environment > prompt (three tries on a TTY).
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const home = useTempHomes();
const ptyEnv = (h: string) => {
  const { CI: _ci, PM_PASSPHRASE: _p, ...rest } = process.env;
  return { ...rest, PM_HOME: h, PM_SCRYPT_N: '1024', NO_COLOR: '1' };
};
/** What PM_HOME holds, but run/ (runtime state: request pacing shared by processes, locks). */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'run') return [];
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}
const alice = () => sb.current.info.accounts.find((a) => a.name === 'alice')!;
const msg = (stderr: string): string => {
  const e = (JSON.parse(stderr) as { error: { message: string; hint?: string } }).error;
  return `${e.message} ${e.hint ?? ''}`;
};

describe('init is atomic', () => {
  it('a bad token secret after every other step writes nothing; the next init then succeeds', async () => {
    const h = home();
    const env = { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'pass-phrase-1' };
    const bad = join(h, 'bad-secret.txt');
    writeFileSync(bad, Buffer.from('x'.repeat(32)).toString('base64'));
    const args = [
      '--json',
      '--base-url',
      sb.current.baseUrl,
      'init',
      '--yes',
      '--create-wallet',
      '--token-id',
      alice().token.tokenId,
      '--secret-file',
    ];
    const r = await runPm([...args, bad], { env });
    expect(r.code).toBe(3);
    expect(files(h).filter((f) => f !== bad)).toEqual([]);
    const good = join(h, 'good-secret.txt');
    writeFileSync(good, alice().token.secret);
    const ok = await runPm([...args, good], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json()).toMatchObject({ profile: 'default', profileId: 1001 });
  });

  it('refuses a URL that is not http(s) with exit 2, in init and in any command', async () => {
    const h = home();
    const env = { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'pass-phrase-1' };
    const r = await runPm(['--json', '--base-url', 'not a url', 'init', '--yes'], { env });
    expect(r.code).toBe(2);
    expect(files(h)).toEqual([]);
    const ftp = await runPm(['--json', '--base-url', 'ftp://x', 'markets', 'list'], { env });
    expect(ftp.code).toBe(2);
    expect(msg(ftp.stderr)).toMatch(/not an http\(s\) URL/);
  });
});

describe('one keystore, one passphrase', () => {
  it('init with another passphrase on an existing keystore is refused; wallet passphrase changes it for every secret', async () => {
    const h = home();
    const env = (pass: string) => ({ PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: pass });
    expect(
      (await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env: env('first-pass-1') })).code,
    ).toBe(0);
    const before = files(h)
      .map((f) => readFileSync(f, 'utf8'))
      .join('|');
    const other = await runPm(
      ['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', 'bob', '--profile-name', 'mm', '--yes'],
      { env: env('second-pass-2') },
    );
    expect(other.code).toBe(3);
    expect(msg(other.stderr)).toMatch(/another passphrase.*pm wallet passphrase/);
    expect(
      files(h)
        .map((f) => readFileSync(f, 'utf8'))
        .join('|'),
    ).toBe(before);

    const nf = join(h, 'new-pass.txt');
    writeFileSync(nf, 'second-pass-2\n', { mode: 0o600 });
    const wrong = await runPm(['--json', 'wallet', 'passphrase', '--new-passphrase-file', nf], { env: env('nope-nope') });
    expect(wrong.code).toBe(3);
    const ch = await runPm(['--json', 'wallet', 'passphrase', '--new-passphrase-file', nf], { env: env('first-pass-1') });
    expect(ch.code, ch.stderr).toBe(0);
    expect(ch.json()).toEqual({ wallets: ['sandbox-alice'], secrets: ['sandbox'] });
    expect((await runPm(['--json', 'whoami'], { env: env('first-pass-1') })).code).toBe(3);
    expect((await runPm(['--json', 'whoami'], { env: env('second-pass-2') })).code).toBe(0);
    expect(
      (
        await runPm(['--json', '--yes', 'wallet', 'export', 'sandbox-alice', '--format', 'key', '--out', '-'], {
          env: env('second-pass-2'),
        })
      ).stdout,
    ).toContain(alice().privateKey.slice(2));
  });

  it('--passphrase-file beats PM_PASSPHRASE; a file others can read is refused', async () => {
    const h = home();
    expect(
      (
        await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], {
          env: { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'right-pass-1' },
        })
      ).code,
    ).toBe(0);
    const f = join(h, 'pass.txt');
    writeFileSync(f, 'right-pass-1\n', { mode: 0o600 });
    const env = { PM_HOME: h, PM_PASSPHRASE: 'wrong-pass-0' };
    const r = await runPm(['--json', '--passphrase-file', f, 'whoami'], { env });
    expect(r.code, r.stderr).toBe(0);
    chmodSync(f, 0o644);
    const open = await runPm(['--json', '--passphrase-file', f, 'whoami'], { env });
    expect(open.code).toBe(2);
    expect(msg(open.stderr)).toContain(`chmod 600 ${f}`);
  });
});

describe('the wizard re-asks bad answers in place (pseudo-terminal)', () => {
  it('no sandbox running, a bad URL, a bad profile name, key, secret and passphrases: each asked again', async () => {
    const h = home();
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'init'],
      [
        { waitFor: 'Which exchange?', send: KEY.enter }, // Local sandbox: none is running for this PM_HOME
        { waitFor: 'no sandbox is running', send: '' },
        { waitFor: 'Which exchange?', send: KEY.down + KEY.down + KEY.enter }, // Another URL
        { waitFor: 'Exchange base URL', send: `not a url${KEY.enter}` },
        { waitFor: 'is not an http(s) URL', send: `${'\x15'.repeat(1)}${sb.current.baseUrl}${KEY.enter}` },
        { waitFor: 'Profile name (letters, digits, dot, dash, underscore)', send: `bad name!${KEY.enter}` },
        { waitFor: 'invalid profile name', send: `${'\x7f'.repeat(20)}p1${KEY.enter}` },
        { waitFor: 'Signing wallet', send: KEY.down + KEY.enter }, // import
        { waitFor: 'Private key', send: `0x12${KEY.enter}` },
        { waitFor: /private key/i, send: `${'\x7f'.repeat(10)}${alice().privateKey}${KEY.enter}` },
        { waitFor: 'API token', send: KEY.enter }, // add
        { waitFor: 'Token id', send: `${alice().token.tokenId}${KEY.enter}` },
        { waitFor: 'Token secret', send: `not base64!!${KEY.enter}` },
        { waitFor: 'not base64', send: `${'\x7f'.repeat(20)}${alice().token.secret}${KEY.enter}` },
        { waitFor: 'New keystore passphrase', send: `short${KEY.enter}` },
        { waitFor: 'too short', send: `${'\x7f'.repeat(10)}long-enough-1${KEY.enter}` },
        { waitFor: 'Repeat the passphrase', send: `different-1${KEY.enter}` },
        // A repeat that differs asks both again (it re-asked only the repeat).
        { waitFor: 'type both again', send: '' },
        { waitFor: 'New keystore passphrase', send: `long-enough-2${KEY.enter}` },
        { waitFor: 'Repeat the passphrase', send: `long-enough-2${KEY.enter}` },
      ],
      ptyEnv(h),
      30_000,
    );
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/profile p1 is ready/);
    const cfg = JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')) as {
      activeProfile: string;
      profiles: Record<string, { profileId: number; address: string }>;
    };
    expect(cfg.activeProfile).toBe('p1');
    expect(cfg.profiles['p1']).toMatchObject({ profileId: 1001, address: alice().address });
  });

  it('a wrong passphrase on a TTY is asked again', async () => {
    const h = home();
    expect(
      (
        await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], {
          env: { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'right-pass-1' },
        })
      ).code,
    ).toBe(0);
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', 'whoami'],
      [
        { waitFor: 'Keystore passphrase', send: `wrong-pass${KEY.enter}` },
        { waitFor: 'wrong passphrase, try again', send: '' },
        { waitFor: 'Keystore passphrase', send: `right-pass-1${KEY.enter}` },
      ],
      ptyEnv(h),
    );
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/1001/);
  });
});
