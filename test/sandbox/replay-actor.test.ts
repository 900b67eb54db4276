// The replay actor (replay.ts) on a small hand-written recording, in a real sandbox with a clock
// the test moves: the recorded levels appear as the replay maker's orders; a recorded trade fills
// alice's order at a price it reached (placed over HTTP through the library) and not one it never
// reached; the recorded resolution resolves at the end; a restart on the same data dir continues
// from the logged progress; a file that is not a recording is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { parseRecording, RecordingError } from '../../src/sandbox/recording.js';
import { REPLAY_BOTS, Replay } from '../../src/sandbox/replay.js';
import { yesBook } from '../../src/sandbox/book.js';
import { auditState } from '../../src/sandbox/engine.js';
import { createClient } from '../../src/lib/index.js';

const T0 = Date.parse('2026-11-28T09:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
const MAKER = REPLAY_BOTS[0]?.id ?? 0;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const book = (ms: number, bids: [number, number][], asks: [number, number][]) => ({
  t: at(ms),
  type: 'book',
  market: 'rep-test',
  data: {
    marketSlug: 'rep-test',
    orderbook: {
      bids: bids.map(([price, size]) => ({ price, size: size * 1e6 })),
      asks: asks.map(([price, size]) => ({ price, size: size * 1e6 })),
    },
  },
});
const trade = (ms: number, strategy: 'Buy' | 'Sell', outcome: 'YES' | 'NO', contracts: string, amount: string) => ({
  t: at(ms),
  type: 'trade',
  market: 'rep-test',
  data: { eventType: 'NEW_TRADE', marketSlug: 'rep-test', data: { strategy, outcome, contracts, tradeAmount: amount } },
});

/** The recording: two book states, a trade lifting asks up to 0.46, one hitting bids down to 0.40, a resolution. */
const LINES = [
  {
    format: 'pm-recording',
    version: 1,
    pm: '0.1.0',
    source: 'http://x',
    startedAt: at(0),
    markets: [{ slug: 'rep-test', title: 'Replay test', settings: { minSize: '2000000' } }],
  },
  book(
    0,
    [
      [0.4, 10],
      [0.38, 20],
    ],
    [
      [0.45, 10],
      [0.47, 5],
    ],
  ),
  { t: at(500), type: 'lifecycle', data: { type: 'connected' } },
  book(
    1000,
    [[0.41, 12]],
    [
      [0.45, 10],
      [0.48, 4],
    ],
  ),
  trade(2000, 'Buy', 'YES', '8', '3.68'), // 0.46 a share: asks up to 0.46 reached
  trade(3000, 'Buy', 'NO', '5', '3'), // NO at 0.60: YES bids down to 0.40 reached
  book(3500, [[0.39, 3]], [[0.5, 6]]),
  { t: at(4000), type: 'resolved', market: 'rep-test', data: { slug: 'rep-test', winningOutcome: 'YES' } },
];
const TEXT = `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n{"t":"2026-11-28T09:00:05`; // a torn last line

/** The replay maker's part of the YES book: [price, shares] per side. */
function makerBook(sb: SandboxHandle): { bids: [string, string][]; asks: [string, string][] } {
  const s = sb.ctx.state;
  const mine = s.orders.filter((o) => o.ownerId === MAKER && o.status === 'LIVE' && o.marketSlug === 'rep-test');
  const m = s.markets.find((x) => x.slug === 'rep-test');
  const yes = m?.positionIds?.[0];
  const fmt = (p: bigint): string => (Number(p) / 1e6).toFixed(3);
  const bids = mine
    .filter((o) => o.tokenId === yes)
    .map((o): [string, string] => [fmt(o.price ?? 0n), String(o.remainingSize / 1_000_000n)]);
  const asks = mine
    .filter((o) => o.tokenId !== yes)
    .map((o): [string, string] => [fmt(1_000_000n - (o.price ?? 0n)), String(o.remainingSize / 1_000_000n)]);
  return { bids: bids.sort().reverse(), asks: asks.sort() };
}

/** Ticks until the lines due are all applied (a tick stops after its time budget on a busy machine). */
function settle(replay: Replay): void {
  let before = -1;
  while (replay.status().applied !== before) {
    before = replay.status().applied;
    replay.tick();
  }
}

describe('replay actor', () => {
  it('re-creates the levels, trades through what the recording reached, resolves, and continues after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-replay-'));
    dirs.push(dir);
    const rec = parseRecording('rec.ndjson', TEXT);
    expect(rec.torn).toBe(true);
    expect(rec.lines).toHaveLength(7);
    let now = Date.now();
    let sb = await startSandbox({
      port: 0,
      dataDir: join(dir, 'sb'),
      now: () => now,
      settlement: { minedAfterMs: 10, confirmedAfterMs: 10 },
    });
    let replay = new Replay(sb.ctx, rec, { speed: 1 });
    try {
      settle(replay); // sets up: profiles, the market, the first book state
      const m = sb.ctx.state.markets.find((x) => x.slug === 'rep-test');
      expect(m?.title).toBe('Replay test');
      expect(m?.extra['settings']).toMatchObject({ minSize: '2000000' });
      expect(makerBook(sb)).toEqual({
        bids: [
          ['0.400', '10'],
          ['0.380', '20'],
        ],
        asks: [
          ['0.450', '10'],
          ['0.470', '5'],
        ],
      });
      expect(replay.status()).toMatchObject({ applied: 1, total: 7, done: false });

      now += 1000;
      settle(replay);
      expect(makerBook(sb)).toEqual({
        bids: [['0.410', '12']],
        asks: [
          ['0.450', '10'],
          ['0.480', '4'],
        ],
      });
      expect(yesBook(sb.ctx.state, 'rep-test')?.bids[0]).toEqual({ price: 410_000n, size: 12_000_000n });

      // alice rests asks at 0.46 (the trade reached it) and 0.47 (never reached), and bids at 0.40 (reached) and 0.39 (not).
      const alice = sb.info.accounts.find((a) => a.name === 'alice');
      if (!alice) throw new Error('alice');
      const pm = createClient({ home: join(dir, 'home'), baseUrl: sb.baseUrl, privateKey: alice.privateKey, token: alice.token });
      const status = (id: string) => sb.ctx.state.orders.find((o) => o.id === id)?.status;
      const place = async (side: 'buy' | 'sell', outcome: 'yes' | 'no', price: string) =>
        (await pm.orders.place({ market: 'rep-test', side, outcome, price, size: '3', postOnly: true })).order.id;
      // (Asks as BUY NO: alice holds no YES to sell.)
      const reachedAsk = await place('buy', 'no', '0.54');
      const farAsk = await place('buy', 'no', '0.53');
      const reachedBid = await place('buy', 'yes', '0.405');
      const farBid = await place('buy', 'yes', '0.395');
      expect(status(farBid)).toBe('LIVE');

      now += 1000;
      settle(replay); // the lift to 0.46
      expect(status(reachedAsk)).toBe('MATCHED');
      expect(status(farAsk)).toBe('LIVE');
      expect(status(reachedBid)).toBe('LIVE');
      // The replay maker's asks the taker could have hit were taken out of its way (the next book state puts them back).
      expect(makerBook(sb).asks).toEqual([['0.480', '4']]);
      expect(replay.status()).toMatchObject({ applied: 4 });
    } finally {
      await sb.close();
    }

    // A restart (the same file, the same data dir) continues after the last line applied.
    sb = await startSandbox({ port: 0, dataDir: join(dir, 'sb'), now: () => now, settlement: { minedAfterMs: 10, confirmedAfterMs: 10 } });
    replay = new Replay(sb.ctx, rec, { speed: 1 });
    try {
      expect(sb.ctx.state.replay).toMatchObject({ applied: 4, done: false });
      settle(replay); // continues at once with the next line: the hit down to 0.40
      expect(replay.status()).toMatchObject({ applied: 5, done: false });
      expect(sb.ctx.state.markets.filter((x) => x.slug === 'rep-test')).toHaveLength(1);
      const orders = sb.ctx.state.orders.filter(
        (o) => o.ownerId === sb.info.accounts.find((a) => a.name === 'alice')?.profileId && o.marketSlug === 'rep-test',
      );
      const byPrice = (p: bigint) => orders.find((o) => o.price === p)?.status;
      expect(byPrice(405_000n)).toBe('MATCHED');
      expect(byPrice(395_000n)).toBe('LIVE');
      expect(byPrice(530_000n)).toBe('LIVE');
      now += 1000;
      settle(replay); // the last book state, then the resolution
      const m = sb.ctx.state.markets.find((x) => x.slug === 'rep-test');
      expect(m?.winningOutcomeIndex).toBe(0);
      expect(replay.status()).toMatchObject({ applied: 7, total: 7, done: true, behindMs: 0 });
      expect(sb.ctx.state.replay).toMatchObject({ applied: 7, done: true });
      expect(auditState(sb.ctx.state)).toEqual([]);
      // Nothing more happens once done.
      const seq = sb.seq();
      now += 10_000;
      settle(replay);
      expect(sb.seq()).toBe(seq);
    } finally {
      await sb.close();
    }
  });

  it('refuses a file that is not a pm-recording v1, names a bad line, ignores only a torn last line', () => {
    expect(() => parseRecording('x', '{"format":"other","version":1}\n')).toThrow(RecordingError);
    expect(() => parseRecording('x', `${JSON.stringify(LINES[0])}\nnot json\n${JSON.stringify(LINES[1])}\n`)).toThrow(/line 2/);
    expect(() => parseRecording('x', `${JSON.stringify({ ...LINES[0], version: 2 })}\n`)).toThrow(/version 1/);
    expect(parseRecording('x', `${JSON.stringify(LINES[0])}\n${JSON.stringify(LINES[1])}\n`).torn).toBe(false);
  });

  it('serves GET /__sandbox/replay and the ready info; --from skips ahead; speed max plays it all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-replay-'));
    dirs.push(dir);
    const file = join(dir, 'rec.ndjson');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, TEXT);
    const sb = await startSandbox({ port: 0, dataDir: null, replay: { file, speed: 'max', from: { offsetMs: 3200 } } });
    try {
      expect(sb.info.replay).toMatchObject({ file, total: 7, speed: 'max', markets: ['rep-test'], torn: true });
      const done = async (): Promise<Record<string, unknown>> => {
        for (;;) {
          const r = (await (await fetch(`${sb.baseUrl}/__sandbox/replay`)).json()) as Record<string, unknown>;
          if (r['done'] === true) return r;
          await new Promise((res) => setTimeout(res, 20));
        }
      };
      const r = await done();
      expect(r).toMatchObject({ file, applied: 7, total: 7, done: true, recordedTime: at(4000) });
      // The trades before --from were passed over: no order of the replay taker.
      expect(sb.ctx.state.orders.some((o) => o.ownerId === REPLAY_BOTS[1]?.id)).toBe(false);
      expect(sb.ctx.state.markets.find((x) => x.slug === 'rep-test')?.winningOutcomeIndex).toBe(0);
    } finally {
      await sb.close();
    }
    const none = await startSandbox({ port: 0, dataDir: null });
    try {
      expect((await fetch(`${none.baseUrl}/__sandbox/replay`)).status).toBe(404);
    } finally {
      await none.close();
    }
  });
});
