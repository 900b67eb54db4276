// Issue 20 #4 and #10: an order on behalf of an EOA sub-account is signed by the child's key
// (before the fix the partner's wallet signed it: maker = the partner, exit 9 "Maker does not
// match"), a server-wallet child without --delegated and a child pm holds no key for are refused
// before anything is sent; out-of-range profile ids and unprintable display names are exit 2.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PM_HOME: home, PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'correct horse battery' };
const pm = (...argv: string[]) => runPm(['--profile', 'partner', ...argv], { env });
/** A resting BUY of 10 YES at 0.1 (the tests add --on-behalf-of). */
const PLACE = 'order place btc-100k-2026 buy yes --price 0.1 --size 10'.split(' ');
const partnersBefore = () => sb.current.ctx.state.profiles.filter((p) => p.role === 'sub_account').length;

beforeAll(async () => {
  const r = await runPm(
    ['--base-url', sb.current.baseUrl, 'init', '--sandbox', '--account', 'partner', '--profile-name', 'partner', '--yes'],
    {
      env,
    },
  );
  expect(r.code, r.stderr).toBe(0);
});

describe('orders on behalf of a sub-account are signed by the right key', () => {
  it("an EOA child made by partner create: the child's key signs, the exchange accepts it", async () => {
    const c = await pm('--json', 'partner', 'create', '--name', 'bob');
    expect(c.code, c.stderr).toBe(0);
    const child = c.json<{ profileId: number; account: string; wallet: string }>();
    const cfg = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
      profiles: Record<string, { subAccounts?: Record<string, unknown> }>;
    };
    expect(cfg.profiles['partner']?.subAccounts?.[String(child.profileId)]).toEqual({ address: child.account, wallet: child.wallet });
    // Fund the child so the order can rest.
    const f = await fetch(`${sb.current.baseUrl}/__sandbox/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ profileId: child.profileId, amount: '50000000' }),
    });
    expect(f.status).toBe(200);
    const args = [...PLACE, '--on-behalf-of', String(child.profileId)];
    const dry = await pm('--json', ...args, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { order: { maker: string } }).order.maker.toLowerCase()).toBe(child.account.toLowerCase());
    const placed = await pm('--json', ...args, '--client-id', 'eoa-child-1');
    expect(placed.code, placed.stderr).toBe(0);
    const order = sb.current.ctx.state.orders.find((o) => o.clientOrderId === 'eoa-child-1');
    expect(order?.ownerId).toBe(child.profileId);
  });

  it('a server-wallet child without --delegated goes delegated: pm knows its mode (it was refused, exit 2)', async () => {
    const c = await pm('--json', 'partner', 'create', '--server-wallet', '--name', 'sw');
    expect(c.code, c.stderr).toBe(0);
    const id = c.json<{ profileId: number }>().profileId;
    const dry = await pm('--json', ...PLACE, '--on-behalf-of', String(id), '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    const body = JSON.parse(dry.stdout) as { order: { maker: string; signature?: string }; onBehalfOf: number };
    expect(body.order.signature).toBeUndefined();
    expect(body.order.maker).toBe('0x0000000000000000000000000000000000000000');
    expect(body.onBehalfOf).toBe(id);
  });

  it("a profile id that is none of the partner's sub-accounts is refused (exit 4), never signed with the partner wallet", async () => {
    const before = sb.current.ctx.state.orders.length;
    const r = await pm(...PLACE, '--on-behalf-of', '4242', '--dry-run');
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/sub-account 4242 is not one of this partner's sub-accounts/);
    expect(sb.current.ctx.state.orders.length).toBe(before);
  });
});

describe('bad input never reaches the network (#10)', () => {
  it('a profile id beyond 2^53 is refused, not rounded', async () => {
    for (const id of ['9007199254740993', '99999999999999999999']) {
      const r = await pm(...PLACE, '--on-behalf-of', id, '--dry-run');
      expect(r.code, id).toBe(2);
      expect(r.stderr).toMatch(/too large/);
    }
  });

  it('a blank or unprintable display name creates nothing', async () => {
    const n = partnersBefore();
    for (const name of ['', '   ', 'a\nb', 'evil\u202Etxt', 'zero\u200Bwidth']) {
      const r = await pm('partner', 'create', '--server-wallet', '--name', name);
      expect(r.code, JSON.stringify(name)).toBe(2);
    }
    expect(partnersBefore()).toBe(n);
  });
});

describe('partner onboard checks its flags before it creates anything', () => {
  it('a first order that cannot be placed (amount 0, unknown market) creates no sub-account; --first-order waits for the allowances itself', async () => {
    const before = partnersBefore();
    const zero = await pm(
      'partner',
      'onboard',
      '--server-wallet',
      '--name',
      'ob-zero',
      '--yes',
      '--first-amount',
      '0',
      '--first-order',
      'btc-100k-2026',
    );
    expect(zero.code, zero.stderr).toBe(2);
    expect(zero.stderr).not.toMatch(/created sub-account/);
    const unknown = await pm('partner', 'onboard', '--server-wallet', '--name', 'ob-unknown', '--yes', '--first-order', 'no-such-mkt');
    expect(unknown.code, unknown.stderr).toBe(4);
    expect(unknown.stderr).not.toMatch(/created sub-account/);
    const bad = await pm('partner', 'onboard', '--server-wallet', '--name', 'ob-bad', '--yes', '--fund', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/----/);
    expect(partnersBefore()).toBe(before);
    // Without --wait: a first order needs confirmed allowances, so it waits for them (it was refused, exit 9).
    const r = await pm(...'--json partner onboard --server-wallet --name ob-order --yes --fund 10 --first-order btc-100k-2026'.split(' '));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ firstOrder: { orderId: string } }>().firstOrder.orderId).toBeTruthy();
    expect(partnersBefore()).toBe(before + 1);
  });

  it('a group slug as the first order is refused before anything is created (exit 2, the reason and its markets; a sub-account was made first, then the order refused)', async () => {
    const before = partnersBefore();
    const group = await pm(
      '--json',
      'partner',
      'onboard',
      '--server-wallet',
      '--name',
      'ob-group',
      '--yes',
      '--first-order',
      'us-election-2028',
    );
    expect(group.code, group.stderr).toBe(2);
    const err = (JSON.parse(group.stderr) as { error: { message: string; hint?: string } }).error;
    expect(err.message).toMatch(/us-election-2028 is a NegRisk group/);
    expect(`${err.message} ${err.hint ?? ''}`).toMatch(/us-election-2028-democrat/);
    expect(partnersBefore()).toBe(before);
  });
});
