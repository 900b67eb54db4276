// A cron-style run: no TTY, credentials from the environment only, exit codes checked.
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

function account(name: string) {
  const a = sb.current.info.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no seeded account ${name}`);
  return a;
}

describe('cron-style authenticated runs', () => {
  it('authenticates from PM_TOKEN_ID/PM_TOKEN_SECRET and exits 0', async () => {
    const alice = account('alice');
    const r = await execa('node', ['bin/pm.js', '--json', 'whoami'], {
      env: {
        PM_HOME: home,
        PM_BASE_URL: sb.current.baseUrl,
        PM_TOKEN_ID: alice.token.tokenId,
        PM_TOKEN_SECRET: alice.token.secret,
        CI: '1',
      },
      stdin: 'ignore',
    });
    expect(r.exitCode).toBe(0);
    const me = JSON.parse(r.stdout) as { profileId: number; auth: string; source: string; scopes: string[] };
    expect(me.profileId).toBe(alice.profileId);
    expect(me.auth).toBe('hmac');
    expect(me.source).toBe('env');
    expect(me.scopes).toContain('trading');
    expect(r.stderr).not.toContain(alice.token.secret);
  });

  it('exits 3 with a bad secret, and never prints the secret even with --verbose', async () => {
    const alice = account('alice');
    const wrong = Buffer.from('definitely-not-the-secret').toString('base64');
    const r = await execa('node', ['bin/pm.js', '--verbose', 'whoami'], {
      env: { PM_HOME: home, PM_BASE_URL: sb.current.baseUrl, PM_TOKEN_ID: alice.token.tokenId, PM_TOKEN_SECRET: wrong, CI: '1' },
      stdin: 'ignore',
      reject: false,
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/Invalid HMAC authentication/);
    expect(r.stderr).toMatch(/\[redacted\]/);
    expect(r.stderr).not.toContain(wrong);
  });

  it('works with the legacy key, and refuses a malformed secret before sending (exit 2)', async () => {
    const alice = account('alice');
    const ok = await execa('node', ['bin/pm.js', '--json', 'whoami'], {
      env: { PM_HOME: home, PM_BASE_URL: sb.current.baseUrl, PM_API_KEY: alice.apiKey, CI: '1' },
      stdin: 'ignore',
    });
    expect(JSON.parse(ok.stdout)).toMatchObject({ profileId: alice.profileId, auth: 'apiKey' });
    const bad = await execa('node', ['bin/pm.js', 'whoami'], {
      env: { PM_HOME: home, PM_BASE_URL: sb.current.baseUrl, PM_TOKEN_ID: 'x', PM_TOKEN_SECRET: 'not base64!', CI: '1' },
      stdin: 'ignore',
      reject: false,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/PM_TOKEN_SECRET/);
    const none = await execa('node', ['bin/pm.js', 'whoami'], {
      env: { PM_HOME: home, PM_BASE_URL: sb.current.baseUrl, CI: '1' },
      stdin: 'ignore',
      reject: false,
    });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toMatch(/pm init/);
  });
});
