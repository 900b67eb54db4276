import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TokenLimiter as FromHttp } from '../../src/core/http.js';
import { FileLimiter, TokenLimiter } from '../../src/core/limiter.js';
import type { Release } from '../../src/core/limiter.js';
import { eventually, sleep } from '../helpers/eventually.js';

const root = mkdtempSync(join(tmpdir(), 'pm-limiter-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `d${++n}`);

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

/**
 * Resolves with `p`, or fails after a generous deadline: what a test checks is that `p` settles
 * without waiting for the thing it must not wait for (a poll, a stale lock's age), which is made
 * far longer than the deadline.
 */
function settles<T>(p: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Whether `p` is still pending (checked after the microtasks and timers due now ran). */
async function pending(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(0);
  return !settled;
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
      await sleep(holdMs);
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

  it('rejects a queued wait on abort with the signal reason and leaves the queue', async () => {
    // The slot is held until the end and the interval is an hour: only the abort can end the wait.
    const lim = new TokenLimiter(1, 3_600_000);
    await lim.acquire();
    const ac = new AbortController();
    const waiting = lim.acquire(ac.signal);
    expect(lim.waiting).toBe(1);
    const reason = new Error('stop');
    ac.abort(reason);
    await expect(settles(waiting, 'the aborted wait')).rejects.toBe(reason);
    expect(lim.waiting).toBe(0);
  });

  it('gives a freed slot to the next waiter, not to an aborted one', async () => {
    const lim = new TokenLimiter(1, 0);
    const first = await lim.acquire();
    const ac = new AbortController();
    const aborted = lim.acquire(ac.signal);
    const next = lim.acquire();
    ac.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(await pending(next)).toBe(true);
    first();
    (await settles(next, 'the next waiter'))();
  });

  it('spaces grants by its clock: a grant waits until the clock has moved the interval on', async () => {
    let now = 1_000_000;
    const granted: number[] = [];
    const lim = new TokenLimiter(
      2,
      300,
      0,
      (t) => granted.push(t),
      undefined,
      () => now,
    );
    (await lim.acquire())();
    const second = lim.acquire();
    // Real timers fire, but the clock has not moved: the wait goes on.
    await sleep(50);
    expect(await pending(second)).toBe(true);
    now += 300;
    (await settles(second, 'the grant once the clock moved'))();
    expect(granted).toEqual([1_000_000, 1_000_300]);
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
    // Released slots are gone from the state (a release contended by a reservation lands a
    // moment later), and no lock is left behind.
    await eventually(() => a.peek().inflight.length === 0, { what: 'the released slots to leave the state' });
    expect(existsSync(a.lockFile)).toBe(false);
  });

  it('waits for a release, not for a poll', async () => {
    const dir = freshDir();
    // A poll an hour away: only the state file's change can wake the waiter.
    const lim = make(dir, { concurrency: 1, minIntervalMs: 0, pollMs: 3_600_000 });
    const first = await lim.acquire();
    const other = make(dir, { concurrency: 1, minIntervalMs: 0, pollMs: 3_600_000 });
    const second = other.acquire();
    expect(await pending(second)).toBe(true);
    first();
    (await settles(second, 'the waiter after the release'))();
  });

  it('aborts a wait with the signal reason, reserving nothing', async () => {
    const dir = freshDir();
    const lim = make(dir, { concurrency: 1, minIntervalMs: 0, pollMs: 3_600_000 });
    const held = await lim.acquire();
    const ac = new AbortController();
    const reason = new Error('interrupted');
    const waiting = lim.acquire(ac.signal);
    expect(await pending(waiting)).toBe(true);
    ac.abort(reason);
    await expect(settles(waiting, 'the aborted wait')).rejects.toBe(reason);
    held();
    await eventually(() => lim.peek().inflight.length === 0, { what: 'the held slot to be released' });
  });

  it('breaks a lock left by a dead process at once', async () => {
    const dir = freshDir();
    // A live owner's lock would hold for an hour.
    const lim = make(dir, { lockStaleMs: 3_600_000 });
    (await lim.acquire())(); // creates the directory
    const dead = spawn(process.execPath, ['-e', '0']);
    await exited(dead);
    writeFileSync(lim.lockFile, `${dead.pid} deadbeef`);
    (await settles(lim.acquire(), "the slot behind a dead owner's lock"))();
  });

  it("keeps a live process's lock until it is lockStaleMs old by the clock, then breaks it", async () => {
    const dir = freshDir();
    let frozen: number | null = null; // the clock stands still while set, else it is real time
    const lim = make(dir, { lockStaleMs: 400, now: () => frozen ?? Date.now() });
    (await lim.acquire())();
    const live = idleChild();
    writeFileSync(lim.lockFile, `${live.pid} cafe`);
    const mtime = statSync(lim.lockFile).mtimeMs;
    frozen = mtime + 400; // old, but not older than lockStaleMs
    const waiting = lim.acquire();
    await sleep(50); // the lock is tried again every few ms meanwhile
    expect(await pending(waiting)).toBe(true);
    expect(readFileSync(lim.lockFile, 'utf8')).toBe(`${live.pid} cafe`);
    frozen = mtime + 401;
    (await settles(waiting, 'the slot once the lock is stale'))();
    frozen = null;
    // An old lock is broken at once even when its holder lives.
    writeFileSync(lim.lockFile, `${live.pid} cafe`);
    utimesSync(lim.lockFile, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    (await settles(lim.acquire(), 'the slot behind an old lock'))();
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
    const blocked = lim.acquire();
    await sleep(150); // three polls
    expect(await pending(blocked)).toBe(true);
    victim.kill('SIGKILL');
    await exited(victim);
    const a = await settles(blocked, 'a slot of the killed process');
    const b = await settles(lim.acquire(), 'the other slot of the killed process');
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
    // The shared limiter cannot keep a record, so it holds no one back: three slots of two.
    const shared = make(join(file, 'run'), { concurrency: 2, minIntervalMs: 60 });
    const held = await settles(Promise.all([shared.acquire(), shared.acquire(), shared.acquire()]), 'slots without a record');
    for (const r of held) r();
    expect(readFileSync(file, 'utf8')).toBe('x');
    // In front of it, the in-process limiter still keeps both limits.
    const granted: number[] = [];
    const lim = new TokenLimiter(2, 60, 0, (t) => granted.push(t), shared);
    const { peak } = await drive(() => lim.acquire(), 5, 100);
    expect(peak).toBe(2);
    expect(Math.min(...gaps(granted))).toBeGreaterThanOrEqual(60);
  });
});

// Processes of their own, each with the limiter built from src/ (esbuild: types stripped, no
// dependence on how dist/ is laid out), sharing one directory as the pm of one PM_HOME do.
describe('FileLimiter invariants across processes', () => {
  const CHILD = `
import { FileLimiter } from './limiter.mjs';
const [dir, mode, n, holdMs] = process.argv.slice(2);
let reserved = 0;
const lim = new FileLimiter({ dir, name: 'limit-p', concurrency: 2, minIntervalMs: 100, maxHoldMs: 60000, onReserve: (t) => (reserved = t) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
if (mode === 'hold') {
  await lim.acquire();
  process.stdout.write('held\\n');
  setInterval(() => {}, 1000);
} else {
  process.stdout.write('ready\\n');
  await new Promise((r) => process.stdin.once('data', r));
  const out = [];
  for (let i = 0; i < Number(n); i++) {
    const release = await lim.acquire();
    const start = reserved;
    await sleep(Number(holdMs));
    out.push({ start, end: Date.now() }); // noted before the release, so never after it
    release();
  }
  process.stdout.write(JSON.stringify(out) + '\\n');
}
`;
  let script = '';
  const child = (args: string[]): { p: ChildProcess; line: (re: RegExp) => Promise<string> } => {
    if (!script) {
      const dir = join(root, 'child');
      mkdirSync(dir, { recursive: true });
      // The limiter and what it imports (the lock file), as one module the child can load.
      buildSync({
        entryPoints: [join(process.cwd(), 'src', 'core', 'limiter.ts')],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: join(dir, 'limiter.mjs'),
        logLevel: 'silent',
      });
      script = join(dir, 'child.mjs');
      writeFileSync(script, CHILD);
    }
    const p = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(p);
    let out = '';
    p.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const line = (re: RegExp): Promise<string> =>
      eventually(() => out.split('\n').find((l) => re.test(l)), { what: `a child's line ${re}`, timeoutMs: 30_000 });
    return { p, line };
  };

  it('4 processes × 4 holds of 400 ms: never more than 2 in flight, starts ≥ 100 ms apart by the recorded times', async () => {
    const dir = freshDir();
    const kids = Array.from({ length: 4 }, () => child([dir, 'run', '4', '400']));
    await Promise.all(kids.map((k) => k.line(/^ready$/)));
    for (const k of kids) k.p.stdin?.end('go\n');
    const runs = await Promise.all(kids.map(async (k) => JSON.parse(await k.line(/^\[/)) as { start: number; end: number }[]));
    const holds = runs.flat().sort((a, b) => a.start - b.start);
    expect(holds).toHaveLength(16);
    // The reservation times the limiter recorded (under its lock) are ≥ minIntervalMs apart.
    expect(Math.min(...gaps(holds.map((h) => h.start)))).toBeGreaterThanOrEqual(100);
    // At each start, the holds begun and not yet ended: never more than 2. Each hold's end is
    // noted before its release, so this count can only be lower than the truth, never higher.
    const peak = Math.max(...holds.map((h) => holds.filter((q) => q.start <= h.start && q.end > h.start).length));
    expect(peak).toBe(2);
    // Nothing is left behind.
    await eventually(
      () => new FileLimiter({ dir, name: 'limit-p', concurrency: 2, minIntervalMs: 100, maxHoldMs: 60_000 }).peek().inflight.length === 0,
    );
  });

  it('a holder killed with -9 gives its slot back to a waiting process', async () => {
    const dir = freshDir();
    const holder = child([dir, 'hold']);
    await holder.line(/^held$/);
    const lim = new FileLimiter({ dir, name: 'limit-p', concurrency: 1, minIntervalMs: 0, maxHoldMs: 60_000 });
    expect(lim.peek().inflight.map((e) => e.pid)).toEqual([holder.p.pid]);
    const waiting = lim.acquire();
    await sleep(150); // three polls
    expect(await pending(waiting)).toBe(true);
    holder.p.kill('SIGKILL');
    await exited(holder.p);
    const release = await settles(waiting, 'the slot of the killed holder');
    expect(lim.peek().inflight.map((e) => e.pid)).toEqual([process.pid]);
    release();
  });
});
