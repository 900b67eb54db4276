import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileLimiter, TokenLimiter } from '../../src/core/limiter.js';
import type { Release } from '../../src/core/limiter.js';
import { TokenLimiter as FromHttp } from '../../src/core/http.js';

const root = mkdtempSync(join(tmpdir(), 'pm-limiter-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `d${++n}`);
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
/** A live process that does nothing (its pid stands for another pm). */
function idleChild(): ChildProcess {
  const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(c);
  return c;
}
function exited(c: ChildProcess): Promise<void> {
  return new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));
}

/** Runs `count` holders of `holdMs` through `acquire`, returns their start times and the peak in flight. */
async function drive(acquire: () => Promise<Release>, count: number, holdMs: number): Promise<{ starts: number[]; peak: number }> {
  const starts: number[] = [];
  let inFlight = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      const release = await acquire();
      starts.push(Date.now());
      peak = Math.max(peak, ++inFlight);
      await delay(holdMs);
      inFlight--;
      release();
    }),
  );
  return { starts: starts.sort((a, b) => a - b), peak };
}
const gaps = (xs: number[]): number[] => xs.slice(1).map((x, i) => x - xs[i]!);

describe('TokenLimiter (in process)', () => {
  it('is still exported by http.ts', () => {
    expect(FromHttp).toBe(TokenLimiter);
  });

  it('spaces starts and caps concurrency', async () => {
    const granted: number[] = [];
    const lim = new TokenLimiter(2, 40, 0, (t) => granted.push(t));
    const { peak } = await drive(() => lim.acquire(), 6, 120);
    expect(peak).toBe(2);
    expect(granted).toHaveLength(6);
    expect(Math.min(...gaps(granted))).toBeGreaterThanOrEqual(40);
  });

  it('rejects a queued wait promptly with the signal reason and leaves the queue', async () => {
    const lim = new TokenLimiter(1, 0);
    const first = await lim.acquire();
    const ac = new AbortController();
    const waiting = lim.acquire(ac.signal);
    expect(lim.waiting).toBe(1);
    const reason = new Error('stop');
    const t = Date.now();
    ac.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(Date.now() - t).toBeLessThan(150);
    expect(lim.waiting).toBe(0);
    // The aborted waiter took no slot: the next one gets the freed slot.
    first();
    const next = await Promise.race([lim.acquire(), delay(500).then(() => null)]);
    expect(next).not.toBeNull();
    next?.();
  });

  it('rejects at once when the signal is already aborted', async () => {
    const lim = new TokenLimiter(2, 0);
    const ac = new AbortController();
    ac.abort(new Error('already'));
    await expect(lim.acquire(ac.signal)).rejects.toThrow('already');
  });
});

describe('FileLimiter (across processes)', () => {
  const make = (dir: string, over: Partial<ConstructorParameters<typeof FileLimiter>[0]> = {}): FileLimiter =>
    new FileLimiter({ dir, name: 'limit-t', concurrency: 2, minIntervalMs: 60, maxHoldMs: 10_000, ...over });

  it('spaces starts and caps concurrency across limiter instances sharing a directory', async () => {
    const dir = freshDir();
    const reserved: number[] = [];
    const a = make(dir, { onReserve: (t) => reserved.push(t) });
    const b = make(dir, { onReserve: (t) => reserved.push(t) });
    let i = 0;
    const { peak } = await drive(() => (i++ % 2 ? a : b).acquire(), 6, 150);
    expect(peak).toBe(2);
    expect(reserved).toHaveLength(6);
    expect(Math.min(...gaps(reserved))).toBeGreaterThanOrEqual(60);
    // Released slots are gone from the state, and no lock is left behind.
    await delay(20);
    expect(a.peek().inflight).toEqual([]);
    expect(existsSync(a.lockFile)).toBe(false);
  });

  it('waits for a release precisely, not for a poll', async () => {
    const dir = freshDir();
    const lim = make(dir, { concurrency: 1, minIntervalMs: 0, pollMs: 5000 });
    const first = await lim.acquire();
    const other = make(dir, { concurrency: 1, minIntervalMs: 0, pollMs: 5000 });
    const t = Date.now();
    const second = other.acquire();
    setTimeout(first, 100);
    (await second)();
    // Woken by the state file's change, long before the 5 s poll.
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it('aborts a wait promptly with the signal reason', async () => {
    const dir = freshDir();
    const lim = make(dir, { concurrency: 1, minIntervalMs: 0 });
    const held = await lim.acquire();
    const ac = new AbortController();
    const reason = new Error('interrupted');
    const waiting = lim.acquire(ac.signal);
    setTimeout(() => ac.abort(reason), 30);
    const t = Date.now();
    await expect(waiting).rejects.toBe(reason);
    expect(Date.now() - t).toBeLessThan(150);
    held();
    await delay(20);
    expect(lim.peek().inflight).toEqual([]); // the aborted wait reserved nothing
  });

  it('breaks a lock left by a dead process', async () => {
    const dir = freshDir();
    const lim = make(dir);
    (await lim.acquire())(); // creates the directory
    const dead = spawn(process.execPath, ['-e', '0']);
    await exited(dead);
    writeFileSync(lim.lockFile, `${dead.pid} deadbeef`);
    const t = Date.now();
    const r = await lim.acquire();
    expect(Date.now() - t).toBeLessThan(300);
    r();
  });

  it('keeps a fresh lock of a live process, and breaks it once it is old', async () => {
    const dir = freshDir();
    const lim = make(dir, { lockStaleMs: 400 });
    (await lim.acquire())();
    const live = idleChild();
    writeFileSync(lim.lockFile, `${live.pid} cafe`);
    const t = Date.now();
    const r = await lim.acquire();
    // Waited for the lock to turn stale (400 ms), not less.
    expect(Date.now() - t).toBeGreaterThanOrEqual(350);
    r();
    // An old lock is broken at once even when its holder lives.
    writeFileSync(lim.lockFile, `${live.pid} cafe`);
    utimesSync(lim.lockFile, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    const t2 = Date.now();
    (await lim.acquire())();
    expect(Date.now() - t2).toBeLessThan(300);
  });

  it('recovers the slots of a process killed with -9, and of requests past their deadline', async () => {
    const dir = freshDir();
    const lim = make(dir, { minIntervalMs: 0 });
    (await lim.acquire())();
    const victim = idleChild();
    const now = Date.now();
    writeFileSync(
      lim.stateFile,
      JSON.stringify({
        lastStart: now,
        inflight: [
          { pid: victim.pid, id: 'v-1', since: now, until: now + 60_000 },
          { pid: victim.pid, id: 'v-2', since: now, until: now + 60_000 },
        ],
      }),
    );
    // Both slots are taken by a live process: a wait does not get through.
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('timeout')), 150);
    await expect(lim.acquire(ac.signal)).rejects.toThrow('timeout');
    victim.kill('SIGKILL');
    await exited(victim);
    const t = Date.now();
    const a = await lim.acquire();
    const b = await lim.acquire();
    expect(Date.now() - t).toBeLessThan(300);
    a();
    b();
    // A live process's entry past its deadline (a hung request) is dropped too.
    const stuck = idleChild();
    writeFileSync(
      lim.stateFile,
      JSON.stringify({
        lastStart: 0,
        inflight: [
          { pid: stuck.pid, id: 's-1', since: 0, until: Date.now() - 1 },
          { pid: stuck.pid, id: 's-2', since: 0, until: Date.now() - 1 },
        ],
      }),
    );
    const c = await lim.acquire();
    expect(JSON.parse(readFileSync(lim.stateFile, 'utf8')).inflight.map((e: { pid: number }) => e.pid)).toEqual([process.pid]);
    c();
  });

  it('paces within this process only when PM_HOME/run cannot be written', async () => {
    const file = join(root, 'not-a-dir');
    writeFileSync(file, 'x');
    const lim = make(join(file, 'run'));
    const r = await lim.acquire();
    r();
  });
});
