// The event log, the reducer and the per-profile ledger: replaying the log from the seed gives
// the live state; the ledger's projection gives the balances and positions; the data dir
// (snapshot + log) restores the state after a crash, torn last line included.
import { cpSync, existsSync, readFileSync, readdirSync, appendFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditState } from '../../src/sandbox/engine.js';
import { startSandbox, SandboxLockedError } from '../../src/sandbox/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { projectAccount } from '../../src/sandbox/ledger.js';
import { cancelOrders, placeOrder } from '../../src/sandbox/place.js';
import { rehydrate } from '../../src/sandbox/secrets.js';
import { apply } from '../../src/sandbox/reducer.js';
import type { SandboxState } from '../../src/sandbox/types.js';
import type { LogEntry } from '../../src/sandbox/events.js';
import { eventually } from '../helpers/eventually.js';
import { sandboxDirs } from '../helpers/sandbox-dirs.js';

const ALICE = 1001;
const BOB = 1002;
const PARTNER = 1003;
const { tmp, handles } = sandboxDirs('pm-log-');

async function start(opts: Parameters<typeof startSandbox>[0] = {}): Promise<SandboxHandle> {
  const h = await startSandbox({ port: 0, settlement: { minedAfterMs: 5, confirmedAfterMs: 5 }, ...opts });
  handles.push(h);
  return h;
}

/** Places one order the way the route does (place.ts: engine, ctx.apply, settlement). */
function place(
  h: SandboxHandle,
  ownerId: number,
  side: 'BUY' | 'SELL',
  price: bigint,
  size: bigint,
  opts: { slug?: string; outcome?: 0 | 1; type?: 'GTC' | 'FAK'; salt?: bigint } = {},
): void {
  const state = h.ctx.state;
  const m = state.markets.find((x) => x.slug === (opts.slug ?? 'btc-100k-2026'));
  const tokenId = m?.positionIds?.[opts.outcome ?? 0] ?? '';
  const fee = state.profiles.find((p) => p.id === ownerId)?.feeRateBps ?? 0;
  const r = placeOrder(h.ctx, {
    ownerId,
    marketSlug: m?.slug ?? '',
    tokenId,
    side,
    orderType: opts.type ?? 'GTC',
    price,
    size,
    makerAmount: 0n,
    takerAmount: 0n,
    postOnly: false,
    clientOrderId: null,
    feeRateBps: fee,
    signedOrder: { salt: opts.salt ?? 1n },
  });
  expect(r.ok, r.ok ? '' : r.message).toBe(true);
}

/** A mixed session: crossing fills (direct, mint, merge), resting orders, cancels, a derived token. */
async function session(h: SandboxHandle): Promise<void> {
  // alice buys YES through bob's asks (direct), rests a bid, sells some back (direct).
  place(h, ALICE, 'BUY', 700_000n, 150_000_000n);
  place(h, ALICE, 'BUY', 500_000n, 20_000_000n);
  place(h, ALICE, 'SELL', 550_000n, 40_000_000n);
  // partner buys NO at 0.40 against alice's resting YES bid at 0.50? (0.50+0.40<1: rests) then crosses via mint.
  place(h, PARTNER, 'BUY', 520_000n, 10_000_000n, { outcome: 1 });
  place(h, PARTNER, 'BUY', 400_000n, 5_000_000n, { outcome: 1 });
  // alice sells NO she does not have? no: partner sells NO back to merge against alice's YES bid... partner sells NO.
  place(h, PARTNER, 'SELL', 400_000n, 5_000_000n, { outcome: 1, type: 'FAK' });
  const live = h.ctx.state.orders.filter((o) => o.ownerId === ALICE && o.status === 'LIVE');
  cancelOrders(h.ctx, live);
  const partner = h.info.accounts.find((a) => a.name === 'partner');
  const res = await fetch(`${h.baseUrl}/auth/api-tokens/derive`, {
    method: 'POST',
    headers: { identity: `Bearer ${partner?.identityToken ?? ''}`, 'content-type': 'application/json' },
    body: '{"label":"logged"}',
  });
  expect(res.status).toBe(201);
  // Settlement MINED → CONFIRMED of every trade.
  const settled = (): boolean => h.ctx.state.orders.every((o) => o.tradeEventId === null || o.settlementStatus === 'CONFIRMED');
  await eventually(settled, { what: 'every trade to settle' });
}

/** The state a log replays to, with the server key (kept outside the log) put back, as a load does. */
function replay(entries: readonly LogEntry[], serverKey: string | undefined): SandboxState {
  let s: SandboxState | null = null;
  for (const e of entries) s = apply(s, e);
  if (!s) throw new Error('empty log');
  if (serverKey !== undefined) s.serverKey = serverKey;
  return rehydrate(s);
}

/** The state without what is volatile by design (a token's lastUsedAt, set by every request). */
function comparable(s: SandboxState): SandboxState {
  const c = structuredClone(s);
  for (const t of c.tokens) t.lastUsedAt = null;
  return c;
}

describe('event log', () => {
  it('replaying the log from the seed gives the live state, and the seq is monotonic', async () => {
    const h = await start();
    const seen: LogEntry[] = [];
    h.subscribe(1, (e) => seen.push(e));
    await session(h);
    expect(seen[0]?.type).toBe('seed');
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    const types = new Set(seen.map((e) => e.type));
    for (const t of ['order.placed', 'order.cancelled', 'settlement', 'token.derived']) expect(types).toContain(t);
    expect(comparable(replay(seen, h.ctx.state.serverKey))).toEqual(comparable(h.ctx.state));
    expect(auditState(h.ctx.state)).toEqual([]);
    // A late subscriber gets the history from its seq, then the live entries.
    const late: number[] = [];
    const off = h.subscribe(h.seq(), (e) => late.push(e.seq));
    place(h, ALICE, 'BUY', 100_000n, 1_000_000n);
    off();
    expect(late).toEqual([h.seq() - 1, h.seq()]);
  });

  it('a reset is an event too', async () => {
    const h = await start();
    const seen: LogEntry[] = [];
    h.subscribe(1, (e) => seen.push(e));
    place(h, ALICE, 'BUY', 700_000n, 10_000_000n);
    h.reset();
    place(h, ALICE, 'BUY', 700_000n, 20_000_000n);
    expect(seen.map((e) => e.type)).toContain('reset');
    expect(comparable(replay(seen, h.ctx.state.serverKey))).toEqual(comparable(h.ctx.state));
  });
});

describe('ledger', () => {
  it('projects the balances and positions the engine keeps (average cost, realised PnL)', async () => {
    const h = await start();
    await session(h);
    const state = h.ctx.state;
    const ledger = state.ledger ?? {};
    expect(
      ledger[String(ALICE)]?.some((e) => e.kind === 'trade' && e.role === 'taker' && (e.fee ?? 0n) > 0n && typeof e.tradeId === 'string'),
    ).toBe(true);
    expect(ledger[String(BOB)]?.some((e) => e.kind === 'trade' && e.role === 'maker')).toBe(true);
    expect(
      Object.values(ledger)
        .flat()
        .some((e) => e.via?.includes('mint')),
    ).toBe(true);
    for (const id of [ALICE, BOB, PARTNER]) {
      const acct = state.accounts[String(id)];
      const p = projectAccount(ledger[String(id)] ?? []);
      expect(p.usdc).toBe(acct?.usdc);
      for (const [tokenId, pos] of Object.entries(acct?.positions ?? {})) {
        expect(p.positions[tokenId], `${id} ${tokenId}`).toEqual({ shares: pos.shares, cost: pos.cost, realisedPnl: pos.realisedPnl });
      }
    }
    // alice sold part of what she bought: realised PnL booked at average cost.
    const yes = state.markets.find((m) => m.slug === 'btc-100k-2026')?.positionIds?.[0] ?? '';
    expect(state.accounts[String(ALICE)]?.positions[yes]?.realisedPnl).not.toBe(0n);
    // auditState notices a balance changed behind the ledger's back.
    const a = state.accounts[String(ALICE)];
    if (a) a.usdc += 1n;
    expect(auditState(state).join('\n')).toMatch(/ledger usdc/);
    if (a) a.usdc -= 1n;
  });
});

describe('persistence = appends', () => {
  it('restores every acknowledged change from snapshot + log; a torn last line is ignored; no secrets on disk', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start({ dataDir: dir, compactEvery: 7 });
    await session(h);
    place(h, BOB, 'BUY', 10_000n, 1_000_000n, { salt: 2n ** 70n + 1n }); // a big bigint must round-trip exactly
    // Let every trade settle (no more timers), so nothing changes behind the copy below.
    const settled = (): boolean => h.ctx.state.orders.every((o) => o.tradeEventId === null || o.settlementStatus === 'CONFIRMED');
    await eventually(settled, { what: 'every trade to settle' });
    await h.snapshot(); // waits for any background snapshot, then writes one
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
    place(h, ALICE, 'BUY', 300_000n, 2_000_000n); // a tail after the snapshot
    place(h, ALICE, 'SELL', 800_000n, 1_000_000n);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // A crash copy: the files as they are while the sandbox runs, plus a torn append.
    const copy = join(tmp(), 'sandbox');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.endsWith('lock.sock') });
    appendFileSync(join(copy, 'events.ndjson'), '{"seq":99999,"type":"order.canc');
    for (const f of readdirSync(copy)) {
      const text = readFileSync(join(copy, f), 'utf8');
      for (const acc of h.info.accounts) {
        expect(text, f).not.toContain(acc.privateKey.slice(2));
        expect(text, f).not.toContain(acc.token.secret);
      }
      for (const t of h.ctx.state.tokens) expect(text, f).not.toContain(t.secret);
    }
    const b = await start({ dataDir: copy });
    expect(comparable(b.ctx.state)).toEqual(comparable(h.ctx.state));
    expect(b.ctx.state.orders.some((o) => o.signedOrder['salt'] === 2n ** 70n + 1n)).toBe(true);
    expect(auditState(b.ctx.state)).toEqual([]);
    expect(readFileSync(join(copy, 'events.ndjson'), 'utf8')).not.toContain('"seq":99999');
    // It goes on appending after the cut-off line, and a further restart still agrees.
    place(b, ALICE, 'BUY', 100_000n, 1_000_000n);
    const want = comparable(b.ctx.state);
    await b.close();
    handles.splice(handles.indexOf(b), 1);
    const c = await start({ dataDir: copy });
    expect(comparable(c.ctx.state)).toEqual(want);
  });

  it('a snapshot taken while writes go on is consistent with the log written meanwhile', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start({ dataDir: dir, compactEvery: 1e9, settlement: { minedAfterMs: 1e6, confirmedAfterMs: 1e6 } });
    for (let i = 0; i < 1500; i++) place(h, BOB, 'BUY', 10_000n + BigInt(i % 40) * 1000n, 1_000_000n);
    const snap = h.snapshot();
    // Meanwhile: fills against bob's resting bids (makers change in place), cancels, new orders.
    place(h, PARTNER, 'BUY', 700_000n, 150_000_000n);
    for (let i = 0; i < 20; i++) {
      place(h, PARTNER, 'SELL', 10_000n, 3_000_000n, { type: 'FAK' });
      await new Promise((r) => setImmediate(r));
    }
    const bids = h.ctx.state.orders.filter((o) => o.ownerId === BOB && o.status === 'LIVE' && o.side === 'BUY').slice(0, 5);
    cancelOrders(h.ctx, bids);
    await snap;
    const copy = join(tmp(), 'sandbox');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.endsWith('lock.sock') });
    const b = await start({ dataDir: copy, settlement: { minedAfterMs: 1e6, confirmedAfterMs: 1e6 } });
    expect(comparable(b.ctx.state)).toEqual(comparable(h.ctx.state));
    expect(auditState(b.ctx.state)).toEqual([]);
  });

  it('a corrupt line before the end is a clear error, not a silent loss', async () => {
    const dir = join(tmp(), 'sandbox');
    const h = await start({ dataDir: dir });
    place(h, ALICE, 'BUY', 700_000n, 10_000_000n);
    const copy = join(tmp(), 'sandbox');
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.endsWith('lock.sock') });
    const lines = readFileSync(join(copy, 'events.ndjson'), 'utf8').split('\n');
    lines[0] = '{garbage';
    writeFileSync(join(copy, 'events.ndjson'), lines.join('\n'));
    await expect(startSandbox({ port: 0, dataDir: copy })).rejects.toThrow(/corrupt.*pm sandbox reset/);
  });
});

describe('state-directory lock', () => {
  it('a second sandbox on the same data dir is refused while the first runs', async () => {
    const dir = join(tmp(), 'sandbox');
    const a = await start({ dataDir: dir });
    const err = await startSandbox({ port: 0, dataDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxLockedError);
    expect((err as SandboxLockedError).message).toBe(`a sandbox is already running on this state (pid ${process.pid})`);
    await a.close();
    handles.splice(handles.indexOf(a), 1);
    const b = await start({ dataDir: dir });
    expect(b.ctx.state.orders.length).toBeGreaterThan(0);
  });

  it('removes the temp files a killed write left behind', async () => {
    const dir = join(tmp(), 'sandbox');
    const a = await start({ dataDir: dir });
    await a.close();
    handles.splice(handles.indexOf(a), 1);
    writeFileSync(join(dir, '.state.deadbeef.tmp'), '{"half');
    writeFileSync(join(dir, '.snapshot.cafe.tmp'), '{"half');
    writeFileSync(join(dir, '.0123456789ab.tmp'), '{"pid"'); // a run file's temp, from a killed pm
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(dir, '.0123456789ab.tmp'), old, old);
    writeFileSync(join(dir, '.ba9876543210.tmp'), '{"pid"'); // a fresh one may be in use: kept
    await start({ dataDir: dir });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual(['.ba9876543210.tmp']);
  });
});

describe('memory', () => {
  it('the trade feed keeps the newest entries of each market (the log keeps them all)', async () => {
    const { FEED_KEEP_PER_MARKET } = await import('../../src/sandbox/reducer.js');
    const h = await start();
    const state = h.ctx.state;
    const others = state.feed.filter((e) => e['marketSlug'] !== 'btc-100k-2026').length;
    const fill = FEED_KEEP_PER_MARKET * 2 * state.markets.length;
    for (let i = 0; i < fill; i++) state.feed.push({ marketSlug: 'btc-100k-2026', eventType: 'NEW_TRADE', n: i });
    place(h, ALICE, 'BUY', 700_000n, 10_000_000n); // a trade: one more feed entry, then the trim
    const btc = state.feed.filter((e) => e['marketSlug'] === 'btc-100k-2026');
    expect(btc.length).toBe(FEED_KEEP_PER_MARKET);
    expect(btc[btc.length - 1]?.['eventType']).toBe('NEW_TRADE');
    expect(btc[btc.length - 1]?.['n']).toBeUndefined(); // the real trade is the newest
    expect(btc[0]?.['n']).toBe(fill - FEED_KEEP_PER_MARKET + 1);
    expect(state.feed.length).toBe(FEED_KEEP_PER_MARKET + others);
  });
});
