// The market-activity simulator (`simulate`): it trades through the engine and the event log
// (orders, fills, settlements are logged entries), keeps every balance and reservation valid,
// never lets a bot trade with itself, survives a reset, and leaves nothing running after close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { auditState } from '../../src/sandbox/engine.js';
import { SIM_BOTS } from '../../src/sandbox/simulate.js';
import type { LogEntry } from '../../src/sandbox/events.js';
import { eventually, sleep } from '../helpers/eventually.js';

/** mulberry32: a reproducible random source. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const until = (pred: () => boolean, timeoutMs: number): Promise<true> => eventually(pred, { timeoutMs, intervalMs: 20 });

describe('sandbox simulate', () => {
  it('quotes and trades through the event log, with valid balances and no self-trade', async () => {
    const sb = await startSandbox({
      port: 0,
      dataDir: null,
      simulate: { rate: 200, random: seeded(7) },
      settlement: { minedAfterMs: 20, confirmedAfterMs: 20 },
    });
    const log: LogEntry[] = [];
    const off = sb.subscribe(sb.seq() + 1, (e) => log.push(e));
    try {
      expect(sb.info.simulate?.rate).toBe(200);
      expect(sb.info.simulate?.accounts.map((a) => a.name)).toEqual(['bob', ...SIM_BOTS.map((b) => b.name)]);
      const placedBy = (ids: number[]): LogEntry[] => log.filter((e) => e.type === 'order.placed' && ids.includes(e.order.ownerId));
      const takers = SIM_BOTS.filter((b) => b.role === 'taker').map((b) => b.id);
      await until(
        () =>
          placedBy(takers).filter((e) => e.type === 'order.placed' && e.fills.length > 0).length >= 5 &&
          log.some((e) => e.type === 'order.cancelled') &&
          log.some((e) => e.type === 'settlement'),
        15_000,
      );

      const state = sb.ctx.state;
      expect(auditState(state)).toEqual([]); // reservations, balances ≥ 0, ledgers agree
      for (const b of SIM_BOTS) expect(state.profiles.find((p) => p.id === b.id)?.address).toBe(b.address);
      for (const e of log) {
        if (e.type !== 'order.placed') continue;
        expect(e.stpCanceled).toEqual([]); // nobody's quote was cancelled by its own order
        for (const f of e.fills) expect(state.orders.find((o) => o.id === f.makerOrderId)?.ownerId).not.toBe(e.order.ownerId);
        if (takers.includes(e.order.ownerId))
          expect(e.order.orderType).toBe('FAK'); // takers rest nothing
        else expect(e.order.postOnly).toBe(true); // quotes never execute
      }
      // Quotes come from bob and the quoting bot, with client ids.
      expect(new Set(placedBy([1002, 1901]).map((e) => (e.type === 'order.placed' ? e.order.ownerId : 0)))).toEqual(new Set([1002, 1901]));
      expect(placedBy([1002]).every((e) => e.type === 'order.placed' && /^sim-/.test(e.order.clientOrderId ?? ''))).toBe(true);

      // A reset replaces the state: the bots are set up again and trading goes on, still valid.
      sb.reset();
      const seqAfterReset = sb.seq();
      await until(() => log.some((e) => e.seq > seqAfterReset && e.type === 'order.placed' && e.fills.length > 0), 15_000);
      expect(sb.ctx.state.profiles.some((p) => p.id === SIM_BOTS[1]?.id)).toBe(true);
      expect(auditState(sb.ctx.state)).toEqual([]);
    } finally {
      off();
      await sb.close();
    }
    expect(sb.simulator?.running).toBe(false);
    const seq = sb.seq();
    const actions = sb.simulator?.actions;
    await sleep(300);
    expect(sb.seq()).toBe(seq); // nothing happens after close
    expect(sb.simulator?.actions).toBe(actions);
  }, 40_000);

  it('persists like any trading: a restarted sandbox replays the simulated log and simulates on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-sim-'));
    try {
      const a = await startSandbox({ port: 0, dataDir: dir, simulate: { rate: 150, random: seeded(11) } });
      await until(() => a.ctx.state.orders.some((o) => o.ownerId === SIM_BOTS[1]?.id && o.tradeEventId !== null), 15_000);
      await a.close();
      const before = { orders: a.ctx.state.orders.length, seq: a.seq() };
      const b = await startSandbox({ port: 0, dataDir: dir, simulate: { rate: 150, random: seeded(12) } });
      try {
        expect(b.ctx.state.orders.length).toBe(before.orders); // the replayed log is the state that was
        expect(b.ctx.state.profiles.filter((p) => SIM_BOTS.some((x) => x.id === p.id))).toHaveLength(SIM_BOTS.length); // bots set up once
        await until(() => b.seq() > before.seq + 20, 15_000);
        expect(auditState(b.ctx.state)).toEqual([]);
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  it('is off by default: nothing moves', async () => {
    const sb = await startSandbox({ port: 0, dataDir: null });
    try {
      expect(sb.simulator).toBeNull();
      expect(sb.info.simulate).toBeUndefined();
      const seq = sb.seq();
      await sleep(700);
      expect(sb.seq()).toBe(seq);
      expect(sb.ctx.state.profiles.some((p) => SIM_BOTS.some((b) => b.id === p.id))).toBe(false);
    } finally {
      await sb.close();
    }
  });

  it('refuses a rate out of range before listening', async () => {
    await expect(startSandbox({ port: 0, dataDir: null, simulate: { rate: 0 } })).rejects.toThrow(/simulate rate/);
  });
});
