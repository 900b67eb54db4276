// The property of issue 30 ("done means") for orders: for order place, a batch (--file), order
// replace and the library's cancel-replace, for every fault of our proxy at every request
// position of the command, run it, then run exactly what pm's hint writes out (or the same
// command when it gives none) until it succeeds: the exchange ends with exactly the intended
// effect, once (counted in the sandbox's event log), and pm never said "placed" for an order
// that does not exist nor "not placed" for one that does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { countEvents, everyFault, faultName, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import type { Fault } from '../helpers/fault-proxy.js';
import { limitOrder } from '../helpers/orders.js';
import { ndjson, runPm, useTempHomes } from '../helpers/run.js';
import type { RunResult } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();
beforeAll(async () => {
  expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200);
});

const SLUG = 'sol-500-2026';
const TIMEOUT_MS = 1000;
const FAULTS = everyFault(TIMEOUT_MS);

const env = (home: string) => ({ ...accountEnv(sb.current, 'alice', home), PM_BASE_URL: proxy.current.baseUrl, PM_PACE: 'off' });
const state = (h: SandboxHandle) => h.ctx.state;
const exists = (orderId: unknown) => typeof orderId === 'string' && state(sb.current).orders.some((o) => o.id === orderId);
/** Orders placed at `raw` price (micro-units) since `mark`: the effect of one intent. */
const placedAt = (mark: number, raw: bigint) => countEvents(sb.current, 'order.placed', (e) => e.order.price === raw, mark);
/** Waits until no request is held or on its way at the proxy (a delayed write has acted or failed). */
const quiet = () => eventually(() => proxy.current.inFlight === 0, { what: 'requests in flight at the proxy' });

let nextTick = 100;
/** A fresh price on the 0.001 tick for each intent (so that each one's effect is counted alone). */
function freshPrice(): { text: string; raw: bigint } {
  const t = nextTick++;
  return { text: (t / 1000).toFixed(3), raw: BigInt(t) * 1000n };
}

/** What pm says of an order it holds was not placed (JSON output; batch lines say `sent: 'no'`). */
const NOT_PLACED = /not placed|not replaced|Nothing reached the exchange/i;
interface JsonError {
  error: { code: string; message: string; hint?: string };
}
const errorOf = (r: RunResult): JsonError['error'] | null => {
  try {
    return (JSON.parse(r.stderr) as JsonError).error;
  } catch {
    return null;
  }
};
/** The argv of the command a hint writes out on a line of its own (`  pm …`). */
function hintedArgv(hint: string | undefined): string[] | null {
  const line = /^\s*pm (.+)$/m.exec(hint ?? '')?.[1];
  return line === undefined ? null : [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

interface Report {
  cases: number;
  runs: number;
  failures: string[];
}

/**
 * Runs `argv` with `fault` at request `position`, then what the hints say, until exit 0 (at most
 * 5 runs); checks each run's claims with `claims` (after held requests have landed).
 */
async function converge(
  name: string,
  argv: string[],
  home: string,
  fault: Fault,
  position: number,
  claims: (r: RunResult) => Promise<string[]>,
  report: Report,
): Promise<void> {
  let next = argv;
  proxy.current.reset();
  proxy.current.set({ nth: position, fault });
  for (let run = 0; run < 5; run++) {
    const r = await runPm(next, { env: env(home) });
    proxy.current.reset(); // the fault hits the first run only
    report.runs++;
    for (const c of await claims(r)) report.failures.push(`${name} run ${run}: ${c}`);
    if (r.code === 0) return;
    next = hintedArgv(errorOf(r)?.hint) ?? next;
  }
  report.failures.push(`${name}: no success after 5 runs`);
}

/** Requests a clean run of `argv` makes (its request positions). */
async function positions(argv: string[]): Promise<number> {
  proxy.current.reset();
  // (With no fault the deadline only has to be met: a loaded machine gets the default one.)
  const r = await runPm(
    argv.filter((w, i) => w !== '--timeout' && argv[i - 1] !== '--timeout'),
    { env: env(newHome()) },
  );
  expect(r.code, r.stderr).toBe(0);
  return proxy.current.count();
}

const timeout = ['--json', '--timeout', `${TIMEOUT_MS}ms`];

describe('exactly once, for every fault at every request position', () => {
  it('order place (no --client-id: the hint writes in the generated one)', async () => {
    const n = await positions([...timeout, ...limitOrder(SLUG, 'buy', 'yes', freshPrice().text, '1')]);
    const report: Report = { cases: 0, runs: 0, failures: [] };
    for (const fault of FAULTS)
      for (let p = 1; p <= n; p++) {
        const price = freshPrice();
        const mark = logMark(sb.current);
        report.cases++;
        const name = `place ${faultName(fault)}@${p}`;
        await converge(
          name,
          [...timeout, ...limitOrder(SLUG, 'buy', 'yes', price.text, '1')],
          newHome(),
          fault,
          p,
          async (r) => {
            const out: string[] = [];
            if (r.code === 0 && !exists(r.json<{ orderId: string }>().orderId)) out.push(`said placed, no such order: ${r.stdout}`);
            if (r.code !== 0 && NOT_PLACED.test(r.stderr)) {
              await quiet();
              if (placedAt(mark, price.raw) > 0) out.push(`said not placed, but it was: ${r.stderr}`);
            }
            return out;
          },
          report,
        );
        await quiet();
        if (placedAt(mark, price.raw) !== 1) report.failures.push(`${name}: ${placedAt(mark, price.raw)} orders`);
      }
    console.log(`order place: ${FAULTS.length} faults × ${n} positions = ${report.cases} cases, ${report.runs} runs`);
    expect(report.failures).toEqual([]);
  });

  it('a batch (--file, two lines)', async () => {
    const file = (home: string, a: string, b: string) => {
      const path = join(home, 'batch.ndjson');
      const line = (price: string) => JSON.stringify({ market: SLUG, side: 'buy', outcome: 'yes', price, size: '1' });
      writeFileSync(path, `${line(a)}\n${line(b)}\n`);
      return path;
    };
    const h0 = newHome();
    const n = await positions([...timeout, 'order', 'place', '--file', file(h0, freshPrice().text, freshPrice().text)]);
    const report: Report = { cases: 0, runs: 0, failures: [] };
    for (const fault of FAULTS)
      for (let p = 1; p <= n; p++) {
        const home = newHome();
        const prices = [freshPrice(), freshPrice()] as const;
        const mark = logMark(sb.current);
        report.cases++;
        const name = `batch ${faultName(fault)}@${p}`;
        await converge(
          name,
          [...timeout, 'order', 'place', '--file', file(home, prices[0].text, prices[1].text)],
          home,
          fault,
          p,
          async (r) => {
            const out: string[] = [];
            const lines = r.stdout.trim()
              ? ndjson<{ line: number; ok: boolean; orderId?: string; sent?: string; error?: { message: string } }>(r.stdout)
              : [];
            for (const l of lines) {
              if (l.ok && !exists(l.orderId)) out.push(`line ${l.line} said placed, no such order`);
              if (!l.ok && (l.sent === 'no' || NOT_PLACED.test(l.error?.message ?? ''))) {
                await quiet();
                const price = prices[l.line - 1];
                if (price && placedAt(mark, price.raw) > 0)
                  out.push(`line ${l.line} said not sent/placed, but it was: ${JSON.stringify(l)}`);
              }
            }
            return out;
          },
          report,
        );
        await quiet();
        for (const price of prices)
          if (placedAt(mark, price.raw) !== 1) report.failures.push(`${name}: ${placedAt(mark, price.raw)} orders at ${price.text}`);
      }
    console.log(`batch: ${FAULTS.length} faults × ${n} positions = ${report.cases} cases, ${report.runs} runs`);
    expect(report.failures).toEqual([]);
  });

  it('order replace (no --new-client-id)', async () => {
    let k = 0;
    /** A resting order to replace, placed without faults; its id. */
    const rest = async (home: string): Promise<{ cid: string; id: string }> => {
      const cid = `prop-old-${k++}`;
      proxy.current.reset();
      const r = await runPm([...timeout, ...limitOrder(SLUG, 'buy', 'yes', '0.010', '1'), '--client-id', cid], { env: env(home) });
      expect(r.code, r.stderr).toBe(0);
      return { cid, id: r.json<{ orderId: string }>().orderId };
    };
    const h0 = newHome();
    const first = await rest(h0);
    proxy.current.reset();
    const clean = await runPm([...timeout, 'order', 'replace', '--client-id', first.cid, '--price', freshPrice().text], { env: env(h0) });
    expect(clean.code, clean.stderr).toBe(0);
    const n = proxy.current.count();
    const report: Report = { cases: 0, runs: 0, failures: [] };
    for (const fault of FAULTS)
      for (let p = 1; p <= n; p++) {
        const home = newHome();
        const old = await rest(home);
        const price = freshPrice();
        const mark = logMark(sb.current);
        report.cases++;
        const name = `replace ${faultName(fault)}@${p}`;
        await converge(
          name,
          [...timeout, 'order', 'replace', '--client-id', old.cid, '--price', price.text],
          home,
          fault,
          p,
          async (r) => {
            const out: string[] = [];
            if (r.code === 0) {
              const j = r.json<{ replacement: { order?: { orderId: string } } }>();
              if (!exists(j.replacement.order?.orderId)) out.push(`said replaced, no such order: ${r.stdout}`);
            } else if (NOT_PLACED.test(r.stderr)) {
              await quiet();
              if (placedAt(mark, price.raw) > 0) out.push(`said not replaced, but it was: ${r.stderr}`);
            }
            return out;
          },
          report,
        );
        await quiet();
        if (placedAt(mark, price.raw) !== 1) report.failures.push(`${name}: ${placedAt(mark, price.raw)} replacements`);
        const cancels = countEvents(sb.current, 'order.cancelled', (e) => e.orderId === old.id, mark);
        if (cancels !== 1) report.failures.push(`${name}: the old order cancelled ${cancels} times`);
      }
    console.log(`order replace: ${FAULTS.length} faults × ${n} positions = ${report.cases} cases, ${report.runs} runs`);
    expect(report.failures).toEqual([]);
  });

  it('cancel-replace through the library (the same call again after an error)', async () => {
    const alice = seeded(sb.current, 'alice');
    const client = (home: string) =>
      createClient({ home, baseUrl: proxy.current.baseUrl, privateKey: alice.privateKey, token: alice.token, timeoutMs: TIMEOUT_MS });
    const order = { market: SLUG, side: 'buy' as const, outcome: 'yes' as const, price: '0.010', size: '1' };
    // One client for every case, as a bot keeps one (the library paces itself at the exchange's
    // 300 ms per request; its market and owner are looked up once).
    const pm = client(newHome());
    const cliHome = newHome();
    proxy.current.reset();
    const o0 = await pm.orders.place(order);
    proxy.current.reset();
    await pm.orders.replace(o0.order.id, { price: freshPrice().text });
    const n = proxy.current.count();
    const report: Report = { cases: 0, runs: 0, failures: [] };
    for (const fault of FAULTS)
      for (let p = 1; p <= n; p++) {
        // The order to replace is placed by the CLI (unpaced: the sandbox's rate limit is off).
        proxy.current.reset();
        const placedOld = await runPm([...timeout, ...limitOrder(SLUG, 'buy', 'yes', '0.010', '1')], { env: env(cliHome) });
        expect(placedOld.code, placedOld.stderr).toBe(0);
        const old = { order: { id: placedOld.json<{ orderId: string }>().orderId } };
        const price = freshPrice();
        const mark = logMark(sb.current);
        report.cases++;
        const name = `lib replace ${faultName(fault)}@${p}`;
        proxy.current.reset();
        proxy.current.set({ nth: p, fault });
        let done = false;
        for (let run = 0; run < 5 && !done; run++) {
          report.runs++;
          try {
            const r = await pm.orders.replace(old.order.id, { price: price.text });
            done = true;
            const id = r.replacement?.order.id;
            if (!exists(id)) report.failures.push(`${name} run ${run}: said replaced, no such order: ${JSON.stringify(r)}`);
          } catch (e) {
            const text = e instanceof Error ? e.message : String(e);
            if (NOT_PLACED.test(text)) {
              await quiet();
              if (placedAt(mark, price.raw) > 0) report.failures.push(`${name} run ${run}: said not replaced, but it was: ${text}`);
            }
          }
          proxy.current.reset();
        }
        if (!done) report.failures.push(`${name}: no success after 5 calls`);
        await quiet();
        if (placedAt(mark, price.raw) !== 1) report.failures.push(`${name}: ${placedAt(mark, price.raw)} replacements`);
        const cancels = countEvents(sb.current, 'order.cancelled', (e) => e.orderId === old.order.id, mark);
        if (cancels !== 1) report.failures.push(`${name}: the old order cancelled ${cancels} times`);
      }
    await pm.close();
    console.log(`library cancel-replace: ${FAULTS.length} faults × ${n} positions = ${report.cases} cases, ${report.runs} calls`);
    expect(report.failures).toEqual([]);
  });
});
