// The init wizard driven through a real pseudo-terminal, and the same result with flags and
// no TTY; then whoami works in cron mode.
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const home = useTempHomes();
const baseEnv = () => {
  const { CI: _ci, ...rest } = process.env;
  return { ...rest, PM_SCRYPT_N: '1024', NO_COLOR: '1' };
};

/** Every regular file under dir. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('pm init', () => {
  it('runs the interactive wizard end to end in a pseudo-terminal', async () => {
    const h = home();
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', '--base-url', sb.current.baseUrl, 'init'],
      [
        { waitFor: 'Which exchange?', send: KEY.enter }, // Local sandbox
        { waitFor: 'Which seeded account?', send: KEY.down + KEY.enter }, // bob
        { waitFor: 'Profile name', send: `mm${KEY.enter}` },
        { waitFor: 'New keystore passphrase', send: `correct-horse${KEY.enter}` },
        { waitFor: 'Repeat the passphrase', send: `correct-horse${KEY.enter}` },
      ],
      { ...baseEnv(), PM_HOME: h },
    );
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/profile mm is ready/);
    expect(screen).not.toMatch(/correct-horse/); // the passphrase is not echoed
    const cfg = JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')) as {
      activeProfile: string;
      profiles: Record<string, { profileId: number; sandbox: boolean }>;
    };
    expect(cfg.activeProfile).toBe('mm');
    expect(cfg.profiles['mm']).toMatchObject({ profileId: 1002 });
    const who = await execa('node', ['bin/pm.js', '--json', 'whoami'], {
      env: { ...baseEnv(), PM_HOME: h, PM_PASSPHRASE: 'correct-horse', CI: '1' },
      stdin: 'ignore',
    });
    expect(JSON.parse(who.stdout)).toMatchObject({ profileId: 1002, source: 'keystore' });
  });

  it('init --sandbox --yes then whoami --json work with no TTY; no secret is stored in plain text', async () => {
    const h = home();
    const env = { ...baseEnv(), PM_HOME: h, PM_PASSPHRASE: 'pass-phrase-1', CI: '1' };
    const none = await execa('node', ['bin/pm.js', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], {
      env: { ...env, PM_PASSPHRASE: '' },
      stdin: 'ignore',
      reject: false,
    });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toMatch(/PM_PASSPHRASE/);
    expect(none.stderr).toMatch(/--passphrase-file/);
    const init = await execa('node', ['bin/pm.js', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], {
      env,
      stdin: 'ignore',
    });
    expect(init.exitCode).toBe(0);
    const who = await execa('node', ['bin/pm.js', '--json', 'whoami'], { env, stdin: 'ignore' });
    const me = JSON.parse(who.stdout) as { profileId: number; address: string; scopes: string[]; feeRateBps: number };
    expect(me).toMatchObject({ profileId: 1001, address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', feeRateBps: 300 });
    expect(me.scopes).toEqual(['trading']);
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    const secrets = [
      alice?.privateKey ?? 'x',
      (alice?.privateKey ?? 'x').slice(2),
      alice?.token.secret ?? 'x',
      alice?.apiKey ?? 'x',
      alice?.identityToken ?? 'x',
    ];
    for (const f of files(h)) {
      const text = readFileSync(f, 'utf8');
      for (const s of secrets) expect(text.includes(s), `${f} holds a secret`).toBe(false);
    }
    // A wrong passphrase: exit 3, nothing changed.
    const before = files(h)
      .map((f) => readFileSync(f, 'utf8'))
      .join('|');
    const wrong = await execa('node', ['bin/pm.js', 'whoami'], { env: { ...env, PM_PASSPHRASE: 'nope' }, stdin: 'ignore', reject: false });
    expect(wrong.exitCode).toBe(3);
    expect(wrong.stderr).toMatch(/wrong passphrase/);
    expect(
      files(h)
        .map((f) => readFileSync(f, 'utf8'))
        .join('|'),
    ).toBe(before);
    // Re-running refreshes the sandbox profile; another profile of the same name is refused.
    expect(
      (await execa('node', ['bin/pm.js', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env, stdin: 'ignore' }))
        .exitCode,
    ).toBe(0);
  });

  it('refuses without a running sandbox, exit 7 with a hint', async () => {
    const h = home();
    const r = await execa('node', ['bin/pm.js', 'init', '--sandbox', '--yes'], {
      env: { ...baseEnv(), PM_HOME: h, PM_PASSPHRASE: 'x', CI: '1', PM_BASE_URL: '' },
      stdin: 'ignore',
      reject: false,
    });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/pm sandbox start --detach/);
  });
});

describe('Ctrl-C at a prompt', () => {
  it('is a quiet cancel with exit 130, not a bug report', async () => {
    const h = home();
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', '--base-url', sb.current.baseUrl, 'init'],
      [{ waitFor: 'Which exchange?', send: '\x03' }],
      { ...baseEnv(), PM_HOME: h },
    );
    expect(code, screen).toBe(130);
    expect(screen).toMatch(/cancelled/);
    expect(screen).not.toMatch(/bug/);
  });
});

describe('the wizard checks each answer when it is given (issue 23)', () => {
  it('an unreachable URL, a URL that is not an exchange, a taken wallet name, a bad key and a refused token are each asked again in place', async () => {
    // Something that answers HTTP with JSON, but not as an exchange does.
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"hello":"world"}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    if (!alice) throw new Error('alice');
    const wrongSecret = Buffer.from('y'.repeat(32)).toString('base64');
    const clear = '\x15'; // Ctrl-U: the line typed so far
    const h = home();
    // A wallet that already holds the profile's name: the new one's name is asked, and checked.
    const made = await runPm(['wallet', 'create', 'checked'], { env: { PM_HOME: h, PM_PASSPHRASE: 'long-enough-1', PM_SCRYPT_N: '1024' } });
    expect(made.code, made.stderr).toBe(0);
    try {
      const { code, screen } = await runInPty(
        ['node', 'bin/pm.js', 'init'],
        [
          { waitFor: 'Which exchange?', send: KEY.down + KEY.down + KEY.enter }, // Another URL
          { waitFor: 'Exchange base URL', send: `http://127.0.0.1:1${KEY.enter}` },
          { waitFor: /cannot reach the exchange at http:\/\/127\.0\.0\.1:1/, send: `${clear}${otherUrl}${KEY.enter}` },
          { waitFor: 'answers, but not as an exchange', send: `${clear}${sb.current.baseUrl}${KEY.enter}` },
          { waitFor: 'Profile name', send: `checked${KEY.enter}` },
          { waitFor: /Signing wallet[\s\S]*Use the keystore wallet checked/, send: KEY.down + KEY.down + KEY.enter }, // import
          { waitFor: 'Name of the new keystore wallet', send: `checked${KEY.enter}` },
          { waitFor: 'a wallet named checked already exists', send: `${clear}alice-key${KEY.enter}` },
          { waitFor: 'Private key', send: `0xabc${KEY.enter}` },
          { waitFor: /private key/i, send: `${'\x7f'.repeat(10)}${alice.privateKey}${KEY.enter}` },
          { waitFor: 'API token', send: KEY.enter }, // add
          { waitFor: 'Token id', send: `${alice.token.tokenId}${KEY.enter}` },
          { waitFor: 'Token secret', send: `${wrongSecret}${KEY.enter}` },
          { waitFor: `did not accept token ${alice.token.tokenId}`, send: '' },
          { waitFor: 'Token id', send: KEY.enter }, // the last id is offered again: Enter keeps it
          { waitFor: 'Token secret', send: `${alice.token.secret}${KEY.enter}` },
          { waitFor: 'Keystore passphrase', send: `long-enough-1${KEY.enter}` },
        ],
        { ...baseEnv(), PM_HOME: h },
        40_000,
      );
      expect(code, screen).toBe(0);
      // Each question came back after its wrong answer, and nothing was asked in between.
      expect(screen.match(/Exchange base URL/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
      expect(screen).not.toMatch(/Is the sandbox running/);
      expect(screen).toMatch(/profile checked is ready/);
      const cfg = JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')) as {
        profiles: Record<string, { baseUrl: string; profileId: number; address: string }>;
      };
      expect(cfg.profiles['checked']).toMatchObject({
        baseUrl: sb.current.baseUrl,
        profileId: 1001,
        address: alice.address,
        wallet: 'alice-key',
      });
    } finally {
      other.close();
    }
  }, 60_000);

  it('offers every account the sandbox lists, carol (a server-wallet trader) included', async () => {
    const h = home();
    const { code, screen } = await runInPty(
      ['node', 'bin/pm.js', '--base-url', sb.current.baseUrl, 'init'],
      [
        { waitFor: 'Which exchange?', send: KEY.enter },
        { waitFor: /Which seeded account\?[\s\S]*carol: a trader who trades from a server wallet/, send: '\x03' },
      ],
      { ...baseEnv(), PM_HOME: h },
    );
    expect(code, screen).toBe(130);
    for (const a of sb.current.info.accounts) expect(screen).toContain(`${a.name}:`);
    expect(files(h).filter((f) => !f.includes('/run/'))).toEqual([]);
  });
});

describe('pm init without a terminal needs its answers as flags (issue 23)', () => {
  it('pm init </dev/null with no flags exits 2, names the flags and writes nothing', async () => {
    const h = home();
    const r = await execa('node', ['bin/pm.js', 'init'], {
      env: { ...baseEnv(), PM_HOME: h, PM_PASSPHRASE: 'pass-phrase-1' },
      stdin: 'ignore',
      reject: false,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    for (const flag of ['--sandbox', '--create-wallet', '--import-key-file', '--wallet', '--token-id', '--secret-file', '--derive'])
      expect(r.stderr).toContain(flag);
    expect(r.stdout).not.toMatch(/ready and active/);
    expect(files(h)).toEqual([]);
    // --yes on its own is no answer either; half of a token is refused too.
    const env = { PM_HOME: h, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    const yes = await runPm(['--json', 'init', '--yes'], { env });
    expect(yes.code).toBe(2);
    expect(yes.stderr).toMatch(/"code":"USAGE"/);
    const half = await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--create-wallet', '--token-id', 'tok'], { env });
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/--secret-file/);
    expect(files(h)).toEqual([]);
    // Flags that contradict each other, or that the mode ignores, are refused: nothing is written
    // (each was silently dropped, or one of two wallets picked).
    const keyFile = join(h, '..', `key-${Date.now()}.txt`);
    writeFileSync(keyFile, `${'11'.repeat(32)}\n`, { mode: 0o600 });
    for (const [argv, pattern] of [
      [['init', '--yes', '--create-wallet', '--import-key-file', keyFile, '--derive'], /--create-wallet and --import-key-file/],
      [['init', '--yes', '--create-wallet', '--derive', '--scopes', 'trading'], null],
      [['init', '--yes', '--create-wallet', '--token-id', 't', '--secret-file', keyFile, '--scopes', 'trading'], /--scopes .*--derive/],
      [['init', '--sandbox', '--yes', '--create-wallet'], /--sandbox .*--create-wallet/],
      [['init', '--sandbox', '--yes', '--scopes', 'trading'], /--sandbox .*--scopes/],
    ] as [string[], RegExp | null][]) {
      if (pattern === null) continue;
      const r2 = await runPm(['--json', '--base-url', sb.current.baseUrl, ...argv], { env });
      expect(r2.code, argv.join(' ')).toBe(2);
      expect(JSON.parse(r2.stderr).error.message, argv.join(' ')).toMatch(pattern);
    }
    expect(files(h)).toEqual([]);
  });
});

describe('pm init --sandbox --account takes any account the sandbox lists (issue 23)', () => {
  it('carol is accepted; a name the sandbox does not list exits 2 naming those it does', async () => {
    const h = home();
    const env = { PM_HOME: h, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    const carol = sb.current.info.accounts.find((a) => a.name === 'carol');
    expect(carol).toBeDefined();
    const r = await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', 'carol', '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ profile: 'sandbox', account: 'carol', profileId: carol?.profileId, address: carol?.address });
    const who = await runPm(['--json', 'whoami'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.json()).toMatchObject({ profileId: carol?.profileId });
    const before = files(h)
      .map((f) => readFileSync(f, 'utf8'))
      .join('|');
    const dave = await runPm(
      ['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', 'dave', '--profile-name', 'd', '--yes'],
      { env },
    );
    expect(dave.code).toBe(2);
    const err = (JSON.parse(dave.stderr) as { error: { message: string; hint: string } }).error;
    expect(err.message).toMatch(/no account "dave"/);
    for (const a of sb.current.info.accounts) expect(err.hint).toContain(a.name);
    expect(
      files(h)
        .map((f) => readFileSync(f, 'utf8'))
        .join('|'),
    ).toBe(before);
    // --account means a seeded account: without --sandbox it is a usage error.
    expect((await runPm(['init', '--account', 'carol', '--yes'], { env })).code).toBe(2);
  });

  it('pm --profile NAME init makes profile NAME (it was "no profile named NAME", whose hint was the same command); PM_PROFILE with --profile-name of that name too', async () => {
    const h = home();
    const env = { PM_HOME: h, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    const r = await runPm(['--json', '--profile', 'newbot', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ profile: 'newbot', account: 'alice' });
    expect((await runPm(['--json', '--profile', 'newbot', 'whoami'], { env })).code).toBe(0);
    const viaEnv = await runPm(['--json', '--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes', '--profile-name', 'bot2'], {
      env: { ...env, PM_PROFILE: 'bot2' },
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.json()).toMatchObject({ profile: 'bot2' });
    // Two different names for the profile to write: which one is meant is not guessed.
    const both = await runPm(['--json', '--profile', 'x1', 'init', '--sandbox', '--yes', '--profile-name', 'x2'], { env });
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr).error.message).toMatch(/--profile x1 and --profile-name x2/);
  });

  it("a re-run of init --sandbox keeps the profile's own preferences (timeout, output), which init never asks", async () => {
    const h = home();
    const env = { PM_HOME: h, PM_PASSPHRASE: 'pass-phrase-1', PM_SCRYPT_N: '1024' };
    const init = () => runPm(['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--yes'], { env });
    expect((await init()).code).toBe(0);
    expect((await runPm(['config', 'set', 'timeout', '45s'], { env })).code).toBe(0);
    expect((await runPm(['config', 'set', 'output', 'json'], { env })).code).toBe(0);
    const again = await init();
    expect(again.code, again.stderr).toBe(0);
    expect((await runPm(['--json', 'config', 'get', 'timeout'], { env })).json()).toMatchObject({ value: 45000, source: 'profile' });
    const cfg = JSON.parse(readFileSync(join(h, 'config.json'), 'utf8')) as { profiles: Record<string, { output?: string }> };
    expect(cfg.profiles['sandbox']?.output).toBe('json');
  });

  it('completion still offers the seeded accounts for --account', async () => {
    const r = await runPm(['__complete', '4', 'init', '--sandbox', '--account', 'c']);
    expect(r.stdout.trim().split('\n')).toEqual(['carol']);
  });
});
