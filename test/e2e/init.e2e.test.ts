// The init wizard driven through a real pseudo-terminal, and the same result with flags and
// no TTY; then whoami works in cron mode.
import { execa } from 'execa';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const homes: (() => void)[] = [];
afterAll(() => homes.forEach((c) => c()));
function home() {
  const h = tempHome();
  homes.push(h.cleanup);
  return h.home;
}
const baseEnv = () => {
  const { CI: _ci, ...rest } = process.env;
  return { ...rest, PM_SCRYPT_N: '1024', NO_COLOR: '1' };
};

/** Every regular file under dir. */
function files(dir: string): string[] {
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
