// Token state tells the truth: `token capabilities` reports what `token derive` really can do
// (the self-serve trading scope for everyone, the partner record's scopes on top), and revoking
// the token a profile uses says what changed and what is used next; never a silent fallback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const home = useTempHomes();
const PASS = 'token-state-pass';
const acct = (name: string) => sb.current.info.accounts.find((a) => a.name === name)!;
/** A new home with a keystore passphrase, against the sandbox, with `name`'s identity token (to derive tokens). */
const identityEnv = (name: string) => ({
  PM_HOME: home(),
  PM_SCRYPT_N: '1024',
  PM_PASSPHRASE: PASS,
  PM_BASE_URL: sb.current.baseUrl,
  PM_IDENTITY_TOKEN: acct(name).identityToken,
});
const ALL = ['trading', 'account_creation', 'delegated_signing', 'withdrawal'];

describe('token capabilities', () => {
  it('a trader without a partner record can derive trading, and capabilities says so (and nothing more)', async () => {
    const env = identityEnv('alice');
    const caps = await runPm(['--json', 'token', 'capabilities'], { env });
    expect(caps.code, caps.stderr).toBe(0);
    const c = caps.json<{ tokenManagementEnabled: boolean; allowedScopes: string[]; derivableScopes: string[] }>();
    expect(c).toMatchObject({ tokenManagementEnabled: false, allowedScopes: [] }); // the exchange's partner record, as sent
    expect(c.derivableScopes).toEqual(['trading']);
    // The claim is checked against derive itself: each derivable scope works, every other is refused.
    for (const scope of ALL) {
      const d = await runPm(
        ['--json', 'token', 'derive', '--scopes', scope === 'delegated_signing' ? 'trading,delegated_signing' : scope],
        { env },
      );
      expect(d.code, `${scope}: ${d.stderr}`).toBe(c.derivableScopes.includes(scope) && scope !== 'delegated_signing' ? 0 : 3);
    }
    const human = await runPm(['token', 'capabilities'], { env });
    expect(human.stdout).toMatch(/token derive can ask for\s+trading$/m);
    expect(human.stdout).not.toMatch(/disabled/);
  });

  it('a partner can derive every scope of its record, and capabilities lists them all', async () => {
    const env = identityEnv('partner');
    const c = (await runPm(['--json', 'token', 'capabilities'], { env })).json<{
      tokenManagementEnabled: boolean;
      derivableScopes: string[];
    }>();
    expect(c.tokenManagementEnabled).toBe(true);
    expect(c.derivableScopes).toEqual(ALL);
    const d = await runPm(['--json', 'token', 'derive', '--scopes', c.derivableScopes.join(',')], { env });
    expect(d.code, d.stderr).toBe(0);
    expect(d.json<{ scopes: string[] }>().scopes.sort()).toEqual([...ALL].sort());
  });
});

describe('token revoke of the token in use', () => {
  async function sandboxProfile(account: string): Promise<{ env: Record<string, string>; tokenId: string }> {
    const h = home();
    const env = { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: PASS };
    const init = await runPm(['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', account, '--yes'], { env });
    expect(init.code, init.stderr).toBe(0);
    // A token of its own (revoking the seeded one would break the other tests' sandbox).
    const d = await runPm(['--json', 'token', 'derive', '--label', 'to-revoke'], { env });
    expect(d.code, d.stderr).toBe(0);
    return { env, tokenId: d.json<{ tokenId: string }>().tokenId };
  }

  it('says that the profile now uses its stored legacy key, and how to derive a new token (--json too)', async () => {
    const { env, tokenId } = await sandboxProfile('alice');
    const rv = await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], { env });
    expect(rv.code, rv.stderr).toBe(0);
    expect(rv.json()).toMatchObject({
      revoked: tokenId,
      wasInUse: true,
      removedFromProfile: true,
      nowUsing: { kind: 'apiKey', source: 'keystore' },
      revokedStillSet: false,
      next: expect.stringMatching(/pm token derive/),
    });
    // What it said is what happens: the next command authenticates with the legacy key.
    const who = await runPm(['--json', 'whoami'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.stringify(who.json())).not.toContain(tokenId);
  });

  it('a person is told on stderr, even with --quiet', async () => {
    const { env, tokenId } = await sandboxProfile('bob');
    const rv = await runPm(['--quiet', 'token', 'revoke', tokenId, '--yes'], { env });
    expect(rv.code, rv.stderr).toBe(0);
    expect(rv.stderr).toMatch(/legacy API key/);
    expect(rv.stderr).toMatch(/pm token derive/);
    expect(rv.stdout).toBe('');
  });

  it('with no other credential stored it says that nothing is left', async () => {
    const h = home();
    const env = { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: PASS, PM_BASE_URL: sb.current.baseUrl };
    const d = await runPm(['--json', 'token', 'derive'], { env: { ...env, PM_IDENTITY_TOKEN: acct('alice').identityToken } });
    expect(d.code, d.stderr).toBe(0);
    const { tokenId } = d.json<{ tokenId: string }>();
    const rv = await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], { env });
    expect(rv.code, rv.stderr).toBe(0);
    expect(rv.json()).toMatchObject({
      wasInUse: true,
      removedFromProfile: true,
      nowUsing: { kind: 'none', source: null },
      next: expect.stringMatching(/PM_IDENTITY_TOKEN=… pm token derive/),
    });
    expect((await runPm(['whoami'], { env })).code).toBe(3);
  });

  it('a revoked token still named by PM_TOKEN_ID is called out', async () => {
    const env = identityEnv('alice');
    const d = await runPm(['--json', 'token', 'derive'], { env });
    const { tokenId } = d.json<{ tokenId: string }>();
    const secret = sb.current.ctx.state.tokens.find((t) => t.tokenId === tokenId)!.secret;
    const rv = await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], {
      env: { ...env, PM_TOKEN_ID: tokenId, PM_TOKEN_SECRET: secret },
    });
    expect(rv.code, rv.stderr).toBe(0);
    expect(rv.json()).toMatchObject({
      wasInUse: true,
      revokedStillSet: true,
      nowUsing: { kind: 'token', source: 'env', tokenId },
      next: expect.stringMatching(/unset PM_TOKEN_ID/),
    });
  });

  it('revoking some other token changes nothing for the profile and says nothing more', async () => {
    const { env, tokenId } = await sandboxProfile('partner');
    const elsewhere = identityEnv('partner');
    const other = (await runPm(['--json', 'token', 'derive', '--label', 'other'], { env: elsewhere })).json<{ tokenId: string }>().tokenId;
    const rv = await runPm(['--json', 'token', 'revoke', other, '--yes'], { env });
    expect(rv.code, rv.stderr).toBe(0);
    expect(rv.json()).toMatchObject({
      revoked: other,
      wasInUse: false,
      removedFromProfile: false,
      next: null,
      nowUsing: { kind: 'token', source: 'keystore', tokenId },
    });
    const human = await runPm(['token', 'revoke', other, '--yes'], { env });
    expect(human.code).toBe(4); // already revoked
    expect((await runPm(['--json', 'whoami'], { env })).json<{ tokenId: string }>().tokenId).toBe(tokenId);
  });
});

describe('token use', () => {
  it('of a stored token the exchange no longer accepts (revoked): refused, exit 3, the profile keeps its token', async () => {
    const env = identityEnv('alice');
    expect((await runPm(['init', '--sandbox', '--yes'], { env })).code).toBe(0);
    const first = (await runPm(['--json', 'whoami'], { env })).json<{ tokenId: string }>().tokenId;
    const later = (await runPm(['--json', 'token', 'derive', '--label', 'later'], { env })).json<{ tokenId: string }>().tokenId;
    // Back to the first; the later one is kept as the one to switch back to, and is revoked.
    expect((await runPm(['token', 'use', first], { env })).code).toBe(0);
    expect((await runPm(['token', 'revoke', later, '--yes'], { env })).code).toBe(0);
    const use = await runPm(['--json', 'token', 'use', later], { env });
    expect(use.code, use.stderr).toBe(3);
    const e = (JSON.parse(use.stderr) as { error: { message: string; hint: string } }).error;
    expect(e.message).toMatch(/does not accept token/);
    expect(e.hint).toMatch(/pm token list/);
    expect((await runPm(['--json', 'whoami'], { env })).json<{ tokenId: string }>().tokenId).toBe(first);
  });
});

describe('token derive without an identity token', () => {
  it('in a script with no keystore and no passphrase: the error names the identity token, not the passphrase (exit 3)', async () => {
    const env = { PM_HOME: home(), PM_SCRYPT_N: '1024', PM_BASE_URL: sb.current.baseUrl };
    const tokens = sb.current.ctx.state.tokens.length;
    for (const e of [env, { ...env, PM_PASSPHRASE: PASS }]) {
      const r = await runPm(['--json', '--yes', 'token', 'derive'], { env: e, stdin: '' });
      expect(r.code, r.stderr).toBe(3);
      const err = (JSON.parse(r.stderr) as { error: { message: string; hint?: string } }).error;
      expect(err.message).toMatch(/needs an identity token/);
      expect(err.message).not.toMatch(/passphrase/);
      expect(err.hint).toMatch(/PM_IDENTITY_TOKEN/);
    }
    expect(sb.current.ctx.state.tokens.length).toBe(tokens);
  });
});

describe('empty input is refused before anything is sent', () => {
  it('token derive --scopes "" (or ",") and token revoke "" exit 2; no token is made or deleted', async () => {
    const env = identityEnv('alice');
    const before = sb.current.ctx.state.tokens.length;
    for (const scopes of ['', ',', ' , ']) {
      const r = await runPm(['--json', 'token', 'derive', '--scopes', scopes], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stderr).error.message).toMatch(/no scope/);
    }
    for (const id of ['', '  ']) {
      const r = await runPm(['--json', 'token', 'revoke', id, '--yes'], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stderr).error.message).toMatch(/token id/);
    }
    expect(sb.current.ctx.state.tokens.length).toBe(before);
  });
});

describe('token add checks the token with the exchange before storing it', () => {
  it('a wrong secret is refused (exit 3) and the working token stays; --skip-check stores it anyway', async () => {
    const env = identityEnv('alice');
    const a = acct('alice');
    const good = join(env.PM_HOME, 'good.txt');
    const bad = join(env.PM_HOME, 'bad.txt');
    writeFileSync(good, `${a.token.secret}\n`, { mode: 0o600 });
    writeFileSync(bad, `${Buffer.from('not the secret').toString('base64')}\n`, { mode: 0o600 });
    const ok = await runPm(['--json', 'token', 'add', '--token-id', a.token.tokenId, '--secret-file', good], { env });
    expect(ok.code, ok.stderr).toBe(0);
    const wrong = await runPm(['--json', 'token', 'add', '--token-id', a.token.tokenId, '--secret-file', bad], { env });
    expect(wrong.code, wrong.stderr).toBe(3);
    expect(JSON.parse(wrong.stderr).error.message).toMatch(/refused .*not stored/);
    expect((await runPm(['--json', 'whoami'], { env })).code).toBe(0); // the good one is still there
    const skipped = await runPm(['--json', 'token', 'add', '--token-id', a.token.tokenId, '--secret-file', bad, '--skip-check'], { env });
    expect(skipped.code, skipped.stderr).toBe(0);
    expect((await runPm(['--json', 'whoami'], { env })).code).toBe(3);
  });
});
