// The market maker's commands through the CLI against the sandbox: pm order replace (one
// cancel-replace request, exactly-once replacement, STOP_ON_FAILURE refusal exit 9, batch exit 8)
// and pm order cancel --all with no market (the kill switch over every market, per-market report).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const acct = (name: string) => seeded(sb.current, name);
const env = () => accountEnv(sb.current, 'alice', home);
const pm = (...argv: string[]) => runPm(argv, { env: env() });
const live = () => sb.current.ctx.state.orders.filter((o) => o.ownerId === acct('alice').profileId && o.status === 'LIVE');
const place = async (market: string, price: string, cid: string): Promise<string> => {
  const r = await pm('--json', 'order', 'place', market, 'buy', 'yes', '--price', price, '--size', '10', '--client-id', cid);
  expect(r.code, r.stderr).toBe(0);
  return r.json<{ orderId: string }>().orderId;
};

describe('pm order replace', () => {
  it('cancels the old order and rests the new one in one request; a re-run places nothing new', async () => {
    const id = await place('btc-100k-2026', '0.1', 'mm-old-1');
    const r = await pm('--json', 'order', 'replace', id, '--price', '0.11', '--new-client-id', 'mm-new-1');
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{
      ok: boolean;
      cancel: { status: string; orderId: string };
      replacement: { clientOrderId: string; order: Record<string, unknown> };
    }>();
    expect(out).toMatchObject({ ok: true, cancel: { status: 'SUCCESS', orderId: id }, replacement: { clientOrderId: 'mm-new-1' } });
    expect(out.replacement.order).toMatchObject({ price: '0.11', size: '10', side: 'BUY', outcome: 'YES' });
    expect(live().map((o) => o.clientOrderId)).toContain('mm-new-1');
    expect(live().map((o) => o.id)).not.toContain(id);
    const again = await pm('--json', 'order', 'replace', id, '--price', '0.11', '--new-client-id', 'mm-new-1');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ replacement: { alreadyPlaced: boolean } }>().replacement.alreadyPlaced).toBe(true);
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'mm-new-1')).toHaveLength(1);
  });

  it('by client id, keeping the remaining size; a cancelled order is refused (exit 9) and nothing is placed', async () => {
    await place('btc-100k-2026', '0.1', 'mm-old-2');
    const r = await pm('--json', 'order', 'replace', '--client-id', 'mm-old-2', '--size', '5');
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ replacement: { order: Record<string, unknown> } }>();
    expect(out.replacement.order).toMatchObject({ price: '0.1', size: '5' });
    // mm-old-2 is gone now: replacing it again refuses the cancel and places nothing (STOP_ON_FAILURE).
    const before = sb.current.ctx.state.orders.length;
    const bad = await pm('--json', 'order', 'replace', '--client-id', 'mm-old-2', '--price', '0.12');
    expect(bad.code).toBe(9);
    expect(bad.json<{ cancel: { status: string }; replacement: { status: string } }>()).toMatchObject({
      cancel: { status: 'FAILURE' },
      replacement: { status: 'NOT_ATTEMPTED' },
    });
    expect(sb.current.ctx.state.orders.length).toBe(before);
    // An order the exchange has never held: not found (exit 4), as the help says (it was exit 1, a bug).
    for (const target of [['00000000-0000-0000-0000-000000000000'], ['--client-id', 'mm-never']]) {
      const none = await pm('--json', 'order', 'replace', ...target, '--price', '0.12');
      expect(none.code, none.stderr).toBe(4);
      expect(JSON.parse(none.stderr).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/to replace/) });
    }
    expect(sb.current.ctx.state.orders.length).toBe(before);
  });

  it('a replacement that matches at once says so on a terminal (it printed only "BUY YES 3 @ 0.95")', async () => {
    await place('btc-100k-2026', '0.1', 'mm-old-fill');
    const r = await pm('order', 'replace', '--client-id', 'mm-old-fill', '--price', '0.95', '--size', '3');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/status\s+matched at once: 3 shares at avg 0\.\d+/);
    const rest = await place('btc-100k-2026', '0.1', 'mm-old-rest');
    const r2 = await pm('order', 'replace', rest, '--price', '0.11');
    expect(r2.stdout).toMatch(/status\s+resting on the book/);
  });

  it('a re-run by --client-id names the old order; one with other terms under the same new client id is a conflict (exit 5)', async () => {
    const oldId = await place('btc-100k-2026', '0.1', 'mm-old-3');
    const first = await pm('--json', 'order', 'replace', '--client-id', 'mm-old-3', '--price', '0.13', '--new-client-id', 'mm-new-3');
    expect(first.code, first.stderr).toBe(0);
    const again = await pm('--json', 'order', 'replace', '--client-id', 'mm-old-3', '--price', '0.13', '--new-client-id', 'mm-new-3');
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ cancel: { orderId: string }; replacement: { alreadyPlaced: boolean } }>()).toMatchObject({
      cancel: { orderId: oldId },
      replacement: { alreadyPlaced: true },
    });
    const other = await pm('--json', 'order', 'replace', '--client-id', 'mm-old-3', '--price', '0.14', '--new-client-id', 'mm-new-3');
    expect(other.code, other.stdout).toBe(5);
    expect(other.stderr).toContain('0.13');
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'mm-new-3')).toHaveLength(1);
  });

  it('refuses a replacement with nothing to change, before sending (exit 2)', async () => {
    const r = await pm('order', 'replace', 'whatever');
    expect(r.code).toBe(2);
  });

  it('--file: one result per line; a failed line makes it exit 8', async () => {
    const a = await place('btc-100k-2026', '0.1', 'mm-file-a');
    const file = join(home, 'moves.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ orderId: a, price: '0.12' })}\n${JSON.stringify({ clientId: 'no-such-order', price: '0.12' })}\n`,
    );
    const r = await pm('-o', 'ndjson', 'order', 'replace', '--file', file);
    expect(r.code).toBe(8);
    const lines = ndjson<{ line: number; ok: boolean }>(r.stdout);
    expect(lines.map((l) => [l.line, l.ok])).toEqual([
      [1, true],
      [2, false],
    ]);
  });
});

describe('pm order cancel --all (the kill switch)', () => {
  it('with no market cancels every open order in every market and reports each market', async () => {
    await place('btc-100k-2026', '0.1', 'ks-1');
    await place('sol-500-2026', '0.05', 'ks-2');
    expect(new Set(live().map((o) => o.marketSlug)).size).toBeGreaterThanOrEqual(2);
    const r = await pm('--json', 'order', 'cancel', '--all');
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ markets: { market: string; canceled: string[] }[] }>();
    expect(out.markets.map((m) => m.market)).toEqual(expect.arrayContaining(['btc-100k-2026', 'sol-500-2026']));
    expect(live()).toHaveLength(0);
  });

  it('--all <slug> still cancels one market only', async () => {
    await place('btc-100k-2026', '0.1', 'ks-3');
    await place('sol-500-2026', '0.05', 'ks-4');
    const r = await pm('--json', 'order', 'cancel', '--all', 'btc-100k-2026');
    expect(r.code, r.stderr).toBe(0);
    expect(live().map((o) => o.marketSlug)).toEqual(['sol-500-2026']);
  });

  it('--market <slug> (the flag order list takes) is --all <slug>; with order ids it is a usage error', async () => {
    const btc = await place('btc-100k-2026', '0.1', 'ks-5');
    const sol = await place('sol-500-2026', '0.05', 'ks-6');
    const ids = () => live().map((o) => o.id);
    const mixed = await pm('order', 'cancel', 'some-order-id', '--market', 'sol-500-2026');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/exactly one of them/);
    expect(ids()).toEqual(expect.arrayContaining([btc, sol]));
    // A typo among the markets: nothing is cancelled (sol's order was, and only "not found" was said).
    const typo = await pm('--json', 'order', 'cancel', '--market', 'sol-500-2026', 'nosuch-mkt');
    expect(typo.code, typo.stderr).toBe(4);
    expect(JSON.parse(typo.stderr).error.message).toMatch(/nosuch-mkt/);
    expect(ids()).toEqual(expect.arrayContaining([btc, sol]));
    const r = await pm('--json', 'order', 'cancel', '--market', 'sol-500-2026');
    expect(r.code, r.stderr).toBe(0);
    expect(live().filter((o) => o.marketSlug === 'sol-500-2026')).toEqual([]);
    expect(ids()).toContain(btc);
  });

  it('on the real exchange it needs --yes without a TTY (exit 2, nothing sent)', async () => {
    const r = await runPm(['order', 'cancel', '--all'], { env: { ...env(), PM_BASE_URL: 'https://api.example.invalid' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation/);
  });
});
