// partner onboard --first-order whose order answer is lost (dropped after the exchange placed it,
// and the lookup failing too): the hint says how to go on with the onboarding (--resume, which
// sends the saved order again under its client id) and how to check, never "re-run the same
// command with --client-id", an option onboard does not have (and re-running the onboard line
// would make a second sub-account). Following it ends with one order. Before: the hint named
// --client-id (exit 2, unknown option).
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../helpers/account-env.js';
import { countEvents, useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const proxy = useFaultProxy(sb);
const { home, cleanup } = tempHome();
afterAll(cleanup);

const env = () => {
  const tok = seeded(sb.current, 'partner').token;
  return { PM_HOME: home, PM_BASE_URL: proxy.current.baseUrl, PM_TOKEN_ID: tok.tokenId, PM_TOKEN_SECRET: tok.secret, CI: '1' };
};

describe('pm partner onboard --first-order, the order answer lost', () => {
  it('exit 7 unknown; the hint names --resume and the status check, not --client-id; --resume ends with one order', async () => {
    proxy.current.reset();
    proxy.current.set(
      { method: 'POST', path: '/orders', fault: { kind: 'drop' } },
      { method: 'POST', path: '/orders/status/batch', times: Number.POSITIVE_INFINITY, fault: { kind: 'status', status: 503 } },
    );
    const argv = ['--json', 'partner', 'onboard', '--server-wallet', '--name', 'fo-lost', '--yes', '--wait', '--fund', '100'];
    const r = await runPm([...argv, '--first-order', 'btc-100k-2026', '--timeout', '20s'], { env: env() });
    expect(r.code, r.stderr).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { code: string; hint: string } }).error;
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.hint).not.toMatch(/--client-id pm-\S+\)?: it never/);
    expect(err.hint).not.toMatch(/re-run the same command/);
    const id = /--resume (\d+)/.exec(err.hint)?.[1];
    expect(id, err.hint).toBeDefined();
    const cid = /--client-id (\S+) --on-behalf-of/.exec(err.hint)?.[1];
    expect(cid, err.hint).toBeDefined();
    const placed = () => countEvents(sb.current, 'order.placed', (e) => e.order.clientOrderId === cid);
    expect(placed()).toBe(1);
    proxy.current.reset();
    const again = await runPm(['--json', 'partner', 'onboard', '--resume', String(id)], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(placed()).toBe(1);
  });
});

describe('pm partner onboard --resume of a sub-account made by pm partner create, credentials from the environment', () => {
  it('finds the record PM_HOME keeps for that exchange (no profile in use) and finishes it', async () => {
    proxy.current.reset();
    const c = await runPm(['--json', 'partner', 'create', '--server-wallet', '--name', 'made-by-create', '--yes'], { env: env() });
    expect(c.code, c.stderr).toBe(0);
    const id = c.json<{ profileId: number }>().profileId;
    const r = await runPm(['--json', 'partner', 'onboard', '--resume', String(id), '--wait', '--timeout', '20s'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ profileId: id });
  });
});

describe('pm partner onboard --fund --first-order, the funding answer lost', () => {
  it('exit 7 (the deposit is unknown); --resume then places the first order asked for (it was skipped), funded once', async () => {
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/__sandbox/fund', fault: { kind: 'drop' } });
    const argv = ['--json', 'partner', 'onboard', '--server-wallet', '--name', 'fund-lost', '--yes', '--wait', '--fund', '100'];
    const r = await runPm([...argv, '--first-order', 'btc-100k-2026', '--timeout', '20s'], { env: env() });
    expect(r.code, r.stderr).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { code: string; hint: string } }).error;
    expect(err.code).toBe('UNKNOWN_STATE');
    const id = Number(/--resume (\d+)/.exec(err.hint)?.[1]);
    expect(id, err.hint).toBeGreaterThan(0);
    const deposits = () => countEvents(sb.current, 'funds.deposited', (e) => e.profileId === id);
    expect(deposits()).toBe(1);
    proxy.current.reset();
    const again = await runPm(['--json', 'partner', 'onboard', '--resume', String(id), '--timeout', '20s'], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ firstOrder?: { market: string } }>()).toMatchObject({ firstOrder: { market: 'btc-100k-2026' } });
    expect(countEvents(sb.current, 'order.placed', (e) => e.order.ownerId === id)).toBe(1);
    expect(deposits()).toBe(1);
  });
});

describe('pm partner onboard --fund, the funding answer lost, then --resume --fund again', () => {
  it('credits once: the resumed run says the earlier deposit is unknown and how to look, and does not fund again', async () => {
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/__sandbox/fund', fault: { kind: 'drop' } });
    const argv = ['--json', 'partner', 'onboard', '--server-wallet', '--name', 'fund-lost-2', '--yes', '--wait', '--fund', '100'];
    const r = await runPm([...argv, '--timeout', '20s'], { env: env() });
    expect(r.code, r.stderr).toBe(7);
    const err = (JSON.parse(r.stderr) as { error: { hint: string } }).error;
    const id = Number(/--resume (\d+)/.exec(err.hint)?.[1]);
    expect(id, err.hint).toBeGreaterThan(0);
    const deposits = () => countEvents(sb.current, 'funds.deposited', (e) => e.profileId === id);
    expect(deposits()).toBe(1);
    proxy.current.reset();
    const again = await runPm(['--json', 'partner', 'onboard', '--resume', String(id), '--fund', '100', '--timeout', '20s'], {
      env: env(),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(deposits()).toBe(1);
    expect(again.json()).toMatchObject({ fundingUnknown: { amount: '100', amountRaw: '100000000' } });
    expect(again.json()).not.toHaveProperty('funded');
    expect(again.json<{ fundingUnknown: { hint: string } }>().fundingUnknown.hint).toContain(`pm sandbox fund 100 --to ${id}`);
  });
});
