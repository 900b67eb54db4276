// Every sub-account is traded the way its mode requires, in every credential mode (issue 29 §3):
// a partner backend holds its credentials in the environment (PM_PRIVATE_KEY, PM_TOKEN_*), no
// profile. An EOA child's order is signed by the child's own key (maker and signer the child's
// wallet), never by the partner's; without the child's key, exit 2 and nothing is sent. A
// server-wallet child's resting order is replaced (cancel and replacement, both done), the
// replacement sent unsigned for the exchange to sign. The same through the library.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { UsageError } from '../../src/core/errors.js';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { runPm, tempHome, useTempHomes } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const newHome = useTempHomes();
const PASS = { PM_SCRYPT_N: '1024', PM_PASSPHRASE: 'correct horse battery' };
/** The partner backend: its key and token in the environment, no profile. */
const partnerEnv = (h = home) => accountEnv(sb.current, 'partner', h, PASS);
const pm = (argv: string[], h = home) => runPm(argv, { env: partnerEnv(h) });
const orderOf = (cid: string) => sb.current.ctx.state.orders.find((o) => o.clientOrderId === cid);
const ordersOf = (id: number) => sb.current.ctx.state.orders.filter((o) => o.ownerId === id);
const place = (id: number, cid: string, price = '0.1') => [
  'order',
  'place',
  'btc-100k-2026',
  'buy',
  'yes',
  '--price',
  price,
  '--size',
  '10',
  '--on-behalf-of',
  String(id),
  '--client-id',
  cid,
];
const fund = async (id: number) => expect(await postAdmin(sb.current, 'fund', { profileId: id, amount: '50000000' })).toBe(200);

// Each test stands alone (the suite runs shuffled): a describe's sub-account is made in its
// beforeAll, and each test places the orders it works on.
describe('an EOA sub-account of a partner in script mode', () => {
  let child = { profileId: 0, account: '', wallet: '' };
  beforeAll(async () => {
    const c = await pm(['--json', 'partner', 'create', '--name', 'eoa-kid']);
    expect(c.code, c.stderr).toBe(0);
    child = c.json();
    await fund(child.profileId);
  });

  it('partner create records it (mode, wallet) although no profile is in use', () => {
    const cfg = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as {
      subAccounts?: Record<string, Record<string, unknown>>;
    };
    expect(cfg.subAccounts?.[sb.current.baseUrl]?.[String(child.profileId)]).toEqual({ address: child.account, wallet: child.wallet });
  });

  it("is signed by the child's key although PM_PRIVATE_KEY holds the partner's: maker and signer are the child's, the exchange accepts", async () => {
    const r = await pm(['--json', ...place(child.profileId, 'eoa-script-1')]);
    expect(r.code, r.stderr).toBe(0);
    const o = orderOf('eoa-script-1');
    expect(o?.ownerId).toBe(child.profileId);
    expect(String(o?.signedOrder['maker']).toLowerCase()).toBe(child.account.toLowerCase());
    expect(String(o?.signedOrder['signer']).toLowerCase()).toBe(child.account.toLowerCase());
    expect(String(o?.signedOrder['maker']).toLowerCase()).not.toBe(seeded(sb.current, 'partner').address.toLowerCase());
  });

  it("without the child's key: exit 2 naming both addresses, nothing sent; a dry run shows no signature either", async () => {
    const bare = newHome();
    const before = ordersOf(child.profileId).length;
    for (const extra of [[], ['--dry-run']]) {
      const r = await pm(['--json', ...place(child.profileId, `eoa-nokey${extra.length}`), ...extra], bare);
      expect(r.code, r.stderr).toBe(2);
      const e = (JSON.parse(r.stderr) as { error: { message: string } }).error;
      expect(e.message).toContain(`maker would be ${seeded(sb.current, 'partner').address}`);
      expect(e.message.toLowerCase()).toContain(child.account.toLowerCase());
      expect(r.stdout).toBe('');
    }
    expect(ordersOf(child.profileId).length).toBe(before);
  });

  it('the library does the same: signed by the child with the partner key in privateKey; refused (UsageError) without it', async () => {
    const partner = seeded(sb.current, 'partner');
    const opts = { baseUrl: sb.current.baseUrl, privateKey: partner.privateKey, token: partner.token, onBehalfOf: child.profileId };
    const lib = createClient({ ...opts, home, passphrase: PASS.PM_PASSPHRASE });
    try {
      const r = await lib.orders.place({
        market: 'btc-100k-2026',
        side: 'buy',
        outcome: 'yes',
        price: '0.09',
        size: '10',
        clientId: 'eoa-lib-1',
      });
      expect(r.order.id).toBe(orderOf('eoa-lib-1')?.id);
      expect(String(orderOf('eoa-lib-1')?.signedOrder['signer']).toLowerCase()).toBe(child.account.toLowerCase());
    } finally {
      await lib.close();
    }
    const bare = createClient({ ...opts, home: newHome() });
    try {
      const before = ordersOf(child.profileId).length;
      await expect(
        bare.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.08', size: '10', clientId: 'eoa-lib-2' }),
      ).rejects.toBeInstanceOf(UsageError);
      expect(ordersOf(child.profileId).length).toBe(before);
    } finally {
      await bare.close();
    }
  });
});

describe('a server-wallet sub-account', () => {
  let id = 0;
  beforeAll(async () => {
    const c = await pm(['--json', 'partner', 'create', '--server-wallet', '--name', 'sw-kid']);
    expect(c.code, c.stderr).toBe(0);
    id = c.json<{ profileId: number }>().profileId;
    const ready = await pm(['--json', 'partner', 'allowances', String(id), '--retry', '--wait']);
    expect(ready.code, ready.stderr).toBe(0);
    await fund(id);
  });
  /** A resting order of the sub-account, placed by pm. */
  const resting = async (cid: string) => {
    const r = await pm(['--json', ...place(id, cid)]);
    expect(r.code, r.stderr).toBe(0);
    expect(orderOf(cid)?.status).toBe('LIVE');
    return orderOf(cid);
  };

  it('its orders go unsigned without --delegated: pm knows the mode', async () => {
    await resting('sw-first');
  });

  it('pm order replace: the old order cancelled, the new one resting, both reported (it was a cancel with a refused replacement)', async () => {
    const old = await resting('sw-old');
    const r = await pm([
      '--json',
      'order',
      'replace',
      '--client-id',
      'sw-old',
      '--price',
      '0.11',
      '--new-client-id',
      'sw-new',
      '--on-behalf-of',
      String(id),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ ok: boolean; cancel: { status: string }; replacement: { status: string } }>();
    expect(out).toMatchObject({ ok: true, cancel: { status: 'SUCCESS' }, replacement: { status: 'SUCCESS' } });
    expect(sb.current.ctx.state.orders.find((o) => o.id === old?.id)?.status).toBe('CANCELED');
    expect(orderOf('sw-new')).toMatchObject({ status: 'LIVE', ownerId: id, price: 110_000n });
  });

  it('the library replaces it the same way', async () => {
    const partner = seeded(sb.current, 'partner');
    const lib = createClient({ home, baseUrl: sb.current.baseUrl, privateKey: partner.privateKey, token: partner.token, onBehalfOf: id });
    try {
      const old = await resting('sw-lib-old');
      const r = await lib.orders.replace(old?.id ?? '', { price: '0.12', clientId: 'sw-lib' });
      expect(r).toMatchObject({ cancelled: { status: 'CANCELLED' }, replacement: { clientId: 'sw-lib', status: 'LIVE' }, error: null });
      await eventually(() => expect(orderOf('sw-lib-old')?.status).toBe('CANCELED'));
      expect(orderOf('sw-lib')).toMatchObject({ status: 'LIVE', ownerId: id, price: 120_000n });
    } finally {
      await lib.close();
    }
  });
});
