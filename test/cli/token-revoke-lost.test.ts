// pm token revoke whose answer is lost: the revoke may have happened, so pm says the outcome is
// unknown with the command that settles it (exit 7), and that command, run once the token is
// revoked, ends "already revoked" and drops the token from the profile (exit 0). Before: "failed …
// check before retrying" (NETWORK), then the advised retry said "Token not found" (exit 4) and the
// profile kept naming the revoked token (every later authenticated command: exit 3).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const home = useTempHomes();

describe('pm token revoke, the answer lost', () => {
  it('unknown (exit 7) with the command to run; that command ends already revoked and cleans the profile', async () => {
    const h = home();
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    // The revoke authenticates with alice's seeded token; the derived one is the profile's.
    const env = {
      PM_HOME: h,
      PM_SCRYPT_N: '1024',
      PM_PASSPHRASE: 'revoke-lost-pass',
      PM_BASE_URL: proxy.current.baseUrl,
      PM_IDENTITY_TOKEN: alice?.identityToken ?? '',
      PM_TOKEN_ID: alice?.token.tokenId ?? '',
      PM_TOKEN_SECRET: alice?.token.secret ?? '',
    };
    const d = await runPm(['--json', 'token', 'derive', '--label', 'rv-lost'], { env });
    expect(d.code, d.stderr).toBe(0);
    const { tokenId } = d.json<{ tokenId: string }>();
    const active = () => sb.current.ctx.state.tokens.find((t) => t.tokenId === tokenId)?.revokedAt == null;
    expect(active()).toBe(true);
    proxy.current.set({ method: 'DELETE', path: `/auth/api-tokens/${tokenId}`, fault: { kind: 'drop' } });
    const r = await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], { env });
    expect(r.code, r.stderr).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { code: string; hint: string } }).error;
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).toContain(`pm --json token revoke ${tokenId} --yes`);
    await vi.waitFor(() => expect(active()).toBe(false));
    proxy.current.reset();
    const again = await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ revoked: tokenId, alreadyRevoked: true, removedFromProfile: true });
    expect(readFileSync(join(h, 'config.json'), 'utf8')).not.toContain(tokenId);
  });

  it('the token authenticating its own revoke, the answer lost: the re-run refused (401) says it is revoked already or its secret is wrong', async () => {
    const h = home();
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    const env = { PM_HOME: h, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'revoke-lost-pass', PM_BASE_URL: proxy.current.baseUrl };
    const d = await runPm(['--json', 'token', 'derive', '--label', 'rv-self'], {
      env: { ...env, PM_IDENTITY_TOKEN: alice?.identityToken ?? '' },
    });
    expect(d.code, d.stderr).toBe(0);
    const { tokenId } = d.json<{ tokenId: string }>();
    proxy.current.set({ method: 'DELETE', path: `/auth/api-tokens/${tokenId}`, fault: { kind: 'drop' } });
    expect((await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], { env })).code).toBe(7);
    proxy.current.reset();
    const again = await runPm(['--json', 'token', 'revoke', tokenId, '--yes'], { env });
    expect(again.code, again.stderr).toBe(3);
    const err = (JSON.parse(again.stderr) as { error: { hint: string } }).error;
    expect(err.hint).toMatch(/revoked already .*, or its secret is wrong/);
    expect(err.hint).toContain('pm token list');
  });
});
