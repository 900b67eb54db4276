// Trading safety (the audit's defects): each case below failed on the code before the fix.
// Real sandbox over HTTP, commands in-process, credentials from the environment.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { limitOrder } from '../helpers/orders.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';
import { addSubAccount } from '../helpers/subaccount.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const acct = (name: string) => seeded(sb.current, name);
const aliceEnv = () => accountEnv(sb.current, 'alice', home);
const pm = (...argv: string[]) => runPm(argv, { env: aliceEnv() });
/** `order place sol-500-2026 SIDE OUTCOME --price P --size S`; more flags follow it. */
const placeSol = (side: string, outcome: string, price: string, size: string) => limitOrder('sol-500-2026', side, outcome, price, size);
const ordersOf = (cid: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === cid);
const faults = async (b: object) => {
  expect(await postAdmin(sb.current, 'faults', b)).toBe(200);
};
const clearFaults = () => faults({ commitThenDrop: 0, fail5xx: 0, burst429: 0, latencyMs: 0, match: '' });
const journal = () =>
  readFileSync(join(home, 'journal', 'orders.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { clientOrderId: string; state: string });
const lastState = (cid: string) =>
  journal()
    .filter((e) => e.clientOrderId === cid)
    .at(-1)?.state;

interface PlacedJson {
  orderId: string;
  side: string;
  outcome: string;
  type: string;
  price: string | null;
  size: string | null;
  alreadyPlaced: boolean;
}

describe('a client id re-used for another order', () => {
  it('is a conflict (exit 5) showing both orders, and nothing new is placed', async () => {
    const a = await pm('--json', ...placeSol('buy', 'yes', '0.30', '10'), '--client-id', 'reuse-1');
    expect(a.code, a.stderr).toBe(0);
    const b = await pm(...placeSol('sell', 'no', '0.2', '50'), '--client-id', 'reuse-1');
    expect(b.code).toBe(5);
    expect(b.stdout).toBe('');
    expect(b.stderr).toMatch(/already used by a different order/);
    expect(b.stderr).toMatch(/existing: +BUY YES 10 @ 0\.3/);
    expect(b.stderr).toMatch(/requested: SELL NO 50 @ 0\.2/);
    expect(ordersOf('reuse-1')).toHaveLength(1);
    expect(ordersOf('reuse-1')[0]?.side).toBe('BUY');
  });

  it('the same order again is an idempotent success that prints the exchange-held fields', async () => {
    const first = (await pm('--json', ...placeSol('buy', 'no', '0.05', '2'), '--client-id', 'same-2')).json<PlacedJson>();
    // Same economics written differently (0.050, 2.0): the same order.
    const again = await pm('--json', ...placeSol('buy', 'no', '0.050', '2.0'), '--client-id', 'same-2');
    expect(again.code, again.stderr).toBe(0);
    const j = again.json<PlacedJson>();
    expect(j).toMatchObject({
      orderId: first.orderId,
      alreadyPlaced: true,
      side: 'BUY',
      outcome: 'NO',
      type: 'GTC',
      price: '0.05',
      size: '2',
    });
    expect(ordersOf('same-2')).toHaveLength(1);
  });

  it('a different --post-only or --stp under the same client id is a conflict (exit 5), not "already placed" (issue 20 #11)', async () => {
    const base = ['--json', ...placeSol('buy', 'no', '0.04', '2')];
    expect((await pm(...base, '--client-id', 'same-po')).code).toBe(0);
    const po = await pm(...base, '--post-only', '--client-id', 'same-po');
    expect(po.code).toBe(5);
    expect(po.stderr).toMatch(/postOnly/);
    expect((await pm(...base, '--stp', 'cancel_taker', '--client-id', 'same-stp')).code).toBe(0);
    const stp = await pm(...base, '--stp', 'cancel_both', '--client-id', 'same-stp');
    expect(stp.code).toBe(5);
    // The default policy written out is the same order.
    expect((await pm(...base, '--client-id', 'same-po', '--stp', 'cancel_maker')).code).toBe(0);
    expect(ordersOf('same-po')).toHaveLength(1);
    expect(ordersOf('same-stp')).toHaveLength(1);
  });
});

describe('a lookup that fails is "unknown", never "another order"', () => {
  it('retries a briefly failing status lookup and reports the re-run as already placed', async () => {
    expect((await pm(...placeSol('buy', 'yes', '0.06', '1'), '--client-id', 'flaky-lookup')).code).toBe(0);
    // The re-run gets 409; its first status lookups fail with 5xx (more than one request's retries).
    await faults({ fail5xx: 5, match: 'POST /orders/status' });
    const r = await pm('--json', ...placeSol('buy', 'yes', '0.06', '1'), '--client-id', 'flaky-lookup');
    await clearFaults();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<PlacedJson>().alreadyPlaced).toBe(true);
    expect(ordersOf('flaky-lookup')).toHaveLength(1);
  });

  it('exits 7 with "re-run the same command" when the lookup keeps failing, and never advises a new id', async () => {
    expect((await pm(...placeSol('buy', 'yes', '0.07', '1'), '--client-id', 'dead-lookup')).code).toBe(0);
    await faults({ fail5xx: 1000, match: 'POST /orders/status' });
    const r = await pm('--json', ...placeSol('buy', 'yes', '0.07', '1'), '--client-id', 'dead-lookup');
    await clearFaults();
    expect(r.code).toBe(7);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '') as { error: { code: string; message: string; hint: string } };
    expect(err.error.code).toBe('UNKNOWN_STATE');
    expect(err.error.message).toMatch(/unknown/);
    // The hint is the command to run again, as given (its --client-id in it), then the status check.
    expect(err.error.hint).toMatch(/Run exactly this/);
    expect(err.error.hint).toContain('order place sol-500-2026 buy yes --price 0.07 --size 1 --client-id dead-lookup');
    expect(err.error.hint).toContain('pm order status --client-id dead-lookup');
    expect(err.error.hint).not.toMatch(/new/i);
    expect(ordersOf('dead-lookup')).toHaveLength(1);
  }, 30_000);

  it('surfaces an auth failure of the lookup instead of swallowing it', async () => {
    expect((await pm(...placeSol('buy', 'yes', '0.08', '1'), '--client-id', 'auth-lookup')).code).toBe(0);
    // Bob's token cannot see alice's order; alice's key signs: the 409 lookup must not say "another order".
    const r = await runPm(['--json', ...placeSol('buy', 'yes', '0.08', '1'), '--client-id', 'auth-lookup'], {
      env: { ...aliceEnv(), PM_TOKEN_SECRET: Buffer.from('wrong secret').toString('base64') },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/another order/);
    // The CLI's words: the environment and the token commands, not the library's createClient option.
    const hint = (JSON.parse(r.stderr) as { error: { hint?: string } }).error.hint;
    expect(hint).toMatch(/PM_TOKEN_ID and PM_TOKEN_SECRET.*pm token derive/);
    expect(hint).not.toMatch(/createClient/);
  });
});

describe('acting for a sub-account is a property of the client', () => {
  it('keeps exactly-once on behalf of a sub-account when the answer is lost', async () => {
    const child = addSubAccount(sb.current, acct('partner').profileId);
    const env = accountEnv(sb.current, 'partner', home, { PM_PRIVATE_KEY: child.privateKey });
    await faults({ commitThenDrop: 1, match: 'POST /orders' });
    const obo = ['--on-behalf-of', String(child.profileId)];
    const r = await runPm(['--json', ...placeSol('buy', 'yes', '0.09', '1'), '--client-id', 'obo-1', ...obo], { env });
    await clearFaults();
    expect(r.code, r.stderr).toBe(0);
    expect(ordersOf('obo-1')).toHaveLength(1);
    expect(ordersOf('obo-1')[0]?.ownerId).toBe(child.profileId);
    expect(lastState('obo-1')).toBe('placed');
    // status, list and cancel carry it too
    const st = await runPm(['--json', 'order', 'status', '--client-id', 'obo-1', ...obo], { env });
    expect(st.code, st.stderr).toBe(0);
    const ls = await runPm(['--json', 'order', 'list', '--market', 'sol-500-2026', ...obo], { env });
    expect(ls.json<{ clientOrderId: string }[]>().map((o) => o.clientOrderId)).toContain('obo-1');
    const cx = await runPm(['--json', 'order', 'cancel', '--client-id', 'obo-1', ...obo], { env });
    expect(cx.code, cx.stderr).toBe(0);
    expect(ordersOf('obo-1')[0]?.status).toBe('CANCELED');
  });
});

describe('batch lines are validated exactly like flags', () => {
  it('refuses wrongly typed fields with the line number instead of dropping them to defaults', async () => {
    const file = join(home, 'typed.ndjson');
    const base = { market: 'sol-500-2026', side: 'buy', outcome: 'yes', price: '0.9', size: '1' };
    writeFileSync(
      file,
      [
        { ...base, postOnly: 'true', clientId: 'typed-1' },
        { ...base, onBehalfOf: '7a', clientId: 'typed-2' },
        { ...base, type: 5, clientId: 'typed-3' },
        { ...base, delegated: 1, clientId: 'typed-4' },
        { ...base, expires: '+1h', clientId: 'typed-5' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = await pm('--json', 'order', 'place', '--file', file);
    expect(r.code).toBe(2); // every line invalid: nothing was sent
    const lines = ndjson<{ line: number; ok: boolean; error: { message: string } }>(r.stdout);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5]);
    expect(lines[0]?.error.message).toMatch(/postOnly must be true or false/);
    expect(lines[1]?.error.message).toMatch(/onBehalfOf must be a profile id/);
    expect(lines[2]?.error.message).toMatch(/type must be a string/);
    expect(lines[3]?.error.message).toMatch(/delegated must be true or false/);
    expect(lines[4]?.error.message).toMatch(/do not expire/);
    for (let i = 1; i <= 5; i++) expect(ordersOf(`typed-${i}`)).toHaveLength(0);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'USAGE' } });
  });

  it('gives lines without clientId a deterministic id, so a re-run skips what was placed', async () => {
    const file = join(home, 'resume.ndjson');
    const rows = [0.011, 0.012, 0.013, 0.012].map((p) => ({
      market: 'sol-500-2026',
      side: 'buy',
      outcome: 'yes',
      price: String(p),
      size: '1',
    }));
    writeFileSync(file, rows.map((l) => JSON.stringify(l)).join('\n'));
    const a = await pm('--json', 'order', 'place', '--file', file);
    expect(a.code, a.stderr).toBe(0);
    const first = ndjson<{ line: number; clientOrderId: string; orderId: string }>(a.stdout);
    const ids = first.map((l) => l.clientOrderId);
    expect(new Set(ids).size).toBe(4); // two identical lines still get two ids
    for (const id of ids) expect(id).toMatch(/^pmb-[0-9a-f]{32}$/);
    const b = await pm('--json', 'order', 'place', '--file', file);
    expect(b.code, b.stderr).toBe(0);
    const second = ndjson<{ clientOrderId: string; skipped?: boolean; orderId: string }>(b.stdout);
    expect(second.every((l) => l.skipped === true)).toBe(true);
    expect(second.map((l) => l.clientOrderId).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(ordersOf(id)).toHaveLength(1);
    // Without the journal (another machine), the exchange still answers "already placed".
    const { home: other, cleanup: done } = tempHome();
    const c = await runPm(['--json', 'order', 'place', '--file', file], { env: { ...aliceEnv(), PM_HOME: other } });
    done();
    expect(c.code, c.stderr).toBe(0);
    for (const id of ids) expect(ordersOf(id)).toHaveLength(1);
    // A new --batch-id places the same lines again as new orders.
    const d = await pm('--json', 'order', 'place', '--file', file, '--batch-id', 'tomorrow');
    expect(d.code, d.stderr).toBe(0);
    const fresh = ndjson<{ clientOrderId: string }>(d.stdout);
    expect(fresh.filter((l) => ids.includes(l.clientOrderId))).toHaveLength(0);
  });
});

describe('exit codes and hints of refusals', () => {
  it('exits 4 for an unknown order id, and refuses locally what the grid and minSize forbid', async () => {
    expect((await pm('order', 'status', '00000000-0000-4000-8000-00000000dead')).code).toBe(4);
    expect((await pm('order', 'status', '--client-id', 'x'.repeat(129))).code).toBe(2);
    const small = await pm(...placeSol('buy', 'yes', '0.5', '0.5'), '--client-id', 'too-small');
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/minimum order size of 1 shares/);
    expect(ordersOf('too-small')).toHaveLength(0);
    const exp = await pm(...placeSol('buy', 'yes', '0.5', '1'), '--expires', '+1h');
    expect(exp.code).toBe(2);
  });

  it('says shares, not USDC, when the shares are missing (exit 9: sent, then refused)', async () => {
    const r = await pm(...placeSol('sell', 'yes', '0.9', '5000'), '--client-id', 'no-shares');
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/conditional token/i);
    expect(r.stderr).toMatch(/hint: Not enough free shares/);
    expect(r.stderr).not.toMatch(/USDC/);
  });

  it('refreshes a stale fee rate once on a fee refusal, and keeps the fresh one', async () => {
    const cacheDir = join(home, 'cache');
    mkdirSync(cacheDir, { recursive: true });
    const key = `${sb.current.baseUrl} hmac:${acct('alice').token.tokenId}`;
    writeFileSync(
      join(cacheDir, 'owners.json'),
      JSON.stringify({
        [key]: { at: Date.now(), value: { profileId: acct('alice').profileId, feeRateBps: 100, account: acct('alice').address } },
      }),
    );
    const r = await pm('--json', ...placeSol('buy', 'yes', '0.012', '1'), '--client-id', 'stale-fee');
    expect(r.code, r.stderr).toBe(0);
    expect(ordersOf('stale-fee')).toHaveLength(1);
    const cached = JSON.parse(readFileSync(join(cacheDir, 'owners.json'), 'utf8')) as Record<string, { value: { feeRateBps: number } }>;
    expect(cached[key]?.value.feeRateBps).toBe(300);
  });
});

describe('Ctrl-C while an order is on the wire', () => {
  it('exits 130 and says the order was placed, printing it (it exited 0, as if nothing had been interrupted)', async () => {
    const { execa } = await import('execa');
    const http = await import('node:http');
    // A proxy that says when POST /orders has arrived, then holds it a moment before the sandbox gets it.
    let arrived!: () => void;
    const onWire = new Promise<void>((r) => (arrived = r));
    const up = new URL(sb.current.baseUrl);
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hold = req.method === 'POST' && req.url === '/orders';
        if (hold) arrived();
        const forward = (): void => {
          const u = http.request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers }, (ur) => {
            res.writeHead(ur.statusCode ?? 502, ur.headers);
            ur.pipe(res);
          });
          u.end(Buffer.concat(chunks));
        };
        if (hold) setTimeout(forward, 300);
        else forward();
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    // (No 429 from an earlier test's use of the token: this order must reach the book.)
    await faults({ rateLimit: false });
    try {
      const port = (proxy.address() as { port: number }).port;
      const p = execa('node', ['bin/pm.js', ...placeSol('buy', 'yes', '0.04', '2'), '--client-id', 'wire-int'], {
        env: { ...aliceEnv(), PM_BASE_URL: `http://127.0.0.1:${port}` },
        reject: false,
      });
      await Promise.race([onWire, p]);
      p.kill('SIGINT');
      const r = await p;
      const held = ordersOf('wire-int');
      expect(held, `${r.exitCode}\n${r.stdout}\n${r.stderr}`).toHaveLength(1);
      expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(130);
      expect(r.stdout).toContain(held[0]?.id);
      expect(r.stderr).toMatch(/interrupted after order wire-int was sent: it is placed/);
    } finally {
      await faults({ rateLimit: true });
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });
});
