// A token derivation or an allowlist addition whose answer pm cannot read (dropped after the
// exchange acted, a 201 cut short): never "failed … retry". A token made then is live and its
// secret was only in the lost answer, so the message says to find it (`pm token list`, written
// out) and revoke it, and when it was sent; an address addition says the exact command to run
// again (an address is allowed once: "already allowed" then means the first went through).
// Effects are counted in the sandbox's event log. Before: "POST /auth/api-tokens/derive failed:
// socket hang up … retry" (exit 7), and "unexpected answer from token derive" (exit 1) for a 201
// cut short, which says nothing of a live token.
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../helpers/account-env.js';
import { countEvents, logMark, unknownOutcome, useFaultProxy } from '../helpers/fault-proxy.js';
import type { Fault } from '../helpers/fault-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const { home, cleanup } = tempHome();
afterAll(cleanup);

const env = () => {
  const a = seeded(sb.current, 'partner');
  return {
    PM_HOME: home,
    PM_BASE_URL: proxy.current.baseUrl,
    PM_TOKEN_ID: a.token.tokenId,
    PM_TOKEN_SECRET: a.token.secret,
    PM_IDENTITY_TOKEN: a.identityToken,
    PM_PASSPHRASE: 'partner-pass-123',
    PM_SCRYPT_N: '16',
  };
};
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; hint: string } }).error;
const lost: [string, Fault][] = [
  ['dropped', { kind: 'drop' }],
  ['cut short', { kind: 'truncate' }],
];

describe('pm token derive: an answer pm cannot read', () => {
  for (const [what, fault] of lost) {
    it(`answer ${what}: unknown (exit 7), find it with the written-out token list and revoke it; never "retry"`, async () => {
      const label = `lost-${fault.kind}`;
      const mark = logMark(sb.current);
      proxy.current.reset();
      proxy.current.set({ method: 'POST', path: '/auth/api-tokens/derive', fault });
      const r = await runPm(['--json', 'token', 'derive', '--label', label], { env: env() });
      proxy.current.reset();
      expect(countEvents(sb.current, 'token.derived', undefined, mark)).toBe(1);
      const err = unknownOutcome(r);
      expect(err.hint).toContain('pm --json token list');
      expect(err.hint).toContain('pm token revoke');
      expect(err.hint).toContain(label);
    });
  }
});

describe('pm withdrawal-address add: an answer pm cannot read', () => {
  it('answer dropped: unknown (exit 7) with the same command written out; running it says the address is already allowed (one entry)', async () => {
    const address = '0x000000000000000000000000000000000000c0de';
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/portfolio/withdrawal-addresses', fault: { kind: 'drop' } });
    const argv = ['--json', 'withdrawal-address', 'add', address, '--label', 'cold'];
    const r = await runPm(argv, { env: env() });
    proxy.current.reset();
    expect(countEvents(sb.current, 'allowlist.added', (e) => e.entry.destinationAddress.toLowerCase() === address.toLowerCase())).toBe(1);
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).not.toMatch(/retry/i);
    expect(err.hint).toContain(`pm ${argv.join(' ')}`);
    const again = await runPm(argv, { env: env() });
    expect(again.code, again.stderr).toBe(5);
    expect(errorOf(again.stderr).hint).toMatch(/already allowed/);
  });
});

// Before: a remove whose answer was dropped after the exchange removed the address said NETWORK
// "… retry, or check its status" (exit 7), and the re-run said "not on your allowlist" (exit 4).
describe('pm withdrawal-address remove: an answer pm cannot read', () => {
  it('answer dropped: unknown (exit 7) with the same command written out; running it confirms the remove (exit 0), removed once', async () => {
    const address = '0x000000000000000000000000000000000000dea1';
    expect((await runPm(['--json', 'withdrawal-address', 'add', address], { env: env() })).code).toBe(0);
    const mark = logMark(sb.current);
    proxy.current.reset();
    proxy.current.set({ method: 'DELETE', path: /^\/portfolio\/withdrawal-addresses\//, fault: { kind: 'drop' } });
    const argv = ['--json', 'withdrawal-address', 'remove', address];
    const r = await runPm(argv, { env: env() });
    proxy.current.reset();
    expect(countEvents(sb.current, 'allowlist.removed', undefined, mark)).toBe(1);
    expect(r.code, r.stderr).toBe(7);
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.message).toMatch(/may or may not/);
    expect(err.hint).not.toMatch(/retry/i);
    expect(err.hint).toContain(`pm ${argv.join(' ')}`);
    // Running it: the exchange says "not on your allowlist"; the allowlist's removed entries say
    // when it went, so the remove is confirmed, not sent again.
    const again = await runPm(argv, { env: env() });
    expect(again.code, again.stderr).toBe(0);
    const done = again.json<{ removed: string; alreadyRemoved?: boolean; removedAt?: string }>();
    expect(done.removed.toLowerCase()).toBe(address);
    expect(done).toMatchObject({ alreadyRemoved: true, removedAt: expect.stringMatching(/^\d{4}-/) });
    expect(countEvents(sb.current, 'allowlist.removed', undefined, mark)).toBe(1);
    const text = await runPm(argv.slice(1), { env: env() });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toMatch(/already removed from the withdrawal allowlist at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  });

  it('an address that was never allowed is still not found (exit 4), with the list written out', async () => {
    const r = await runPm(['--json', 'withdrawal-address', 'remove', '0x000000000000000000000000000000000000beef'], { env: env() });
    expect(r.code, r.stderr).toBe(4);
    const err = errorOf(r.stderr);
    expect(err.message).toMatch(/not on your withdrawal allowlist/);
    expect(err.hint).toContain('pm withdrawal-address list');
  });
});
