// 200 orders, each run three times (the first run and two re-runs), under commit-then-drop
// and 5xx faults: single commands and batches, on alice's own account and on behalf of a
// partner's sub-account. Exactly one order per client id, no false conflict, every exit 0.
// The sandbox's rate limit is off and PM_PACE=off, so the test measures correctness, not pacing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { addSubAccount } from '../helpers/subaccount.js';

const sb = useSandbox({ settlement: { minedAfterMs: 20, confirmedAfterMs: 20 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);

const acct = (name: string) => seeded(sb.current, name);
const faults = (b: object) =>
  fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(b),
  });
const ordersOf = (cid: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === cid);

let child: { profileId: number; privateKey: string };
beforeAll(async () => {
  await faults({ rateLimit: false });
  child = addSubAccount(sb.current, acct('partner').profileId, 10_000n);
});

const own = () => accountEnv(sb.current, 'alice', home, { PM_PACE: 'off' });
const obo = () => accountEnv(sb.current, 'partner', home, { PM_PACE: 'off', PM_PRIVATE_KEY: child.privateKey });
const FAULTS = [
  { commitThenDrop: 1, match: 'POST /orders' },
  { fail5xx: 1, match: 'POST /orders' },
  { fail5xx: 2, match: 'POST /orders' },
  {},
];

describe('exactly once under faults', () => {
  it('single commands: 80 orders × 3 runs, own and on behalf', async () => {
    const codes: number[] = [];
    const conflicts: string[] = [];
    const runOne = async (who: 'own' | 'obo', i: number): Promise<void> => {
      const cid = `soak-${who}-${i}`;
      const argv = [
        '--json',
        'order',
        'place',
        'sol-500-2026',
        'buy',
        'no',
        '--price',
        (0.001 + (i % 40) / 1000).toFixed(3),
        '--size',
        '1',
        '--client-id',
        cid,
        ...(who === 'obo' ? ['--on-behalf-of', String(child.profileId)] : []),
      ];
      for (let run = 0; run < 3; run++) {
        await faults(FAULTS[(i + run) % FAULTS.length] as object);
        const r = await runPm(argv, { env: who === 'own' ? own() : obo() });
        codes.push(r.code);
        if (r.code === 5) conflicts.push(`${cid}: ${r.stderr}`);
        expect(r.code, `${cid} run ${run}: ${r.stderr}`).toBe(0);
        if (run > 0) expect(JSON.parse(r.stdout).alreadyPlaced, cid).toBe(true);
      }
    };
    // One after the other: the sandbox's faults are global, so two loops side by side would add
    // to each other's injected failures (one order could meet more 5xx than pm retries).
    for (let i = 0; i < 40; i++) await runOne('own', i);
    for (let i = 0; i < 40; i++) await runOne('obo', i);
    await faults({ commitThenDrop: 0, fail5xx: 0, match: '' });
    expect(conflicts).toEqual([]);
    expect(codes.filter((c) => c !== 0)).toEqual([]);
    for (const who of ['own', 'obo']) for (let i = 0; i < 40; i++) expect(ordersOf(`soak-${who}-${i}`), `soak-${who}-${i}`).toHaveLength(1);
    for (let i = 0; i < 40; i++) expect(ordersOf(`soak-obo-${i}`)[0]?.ownerId).toBe(child.profileId);
  }, 300_000); // 240 pm runs with retries: 40 s on a quiet machine, over 120 s at load 17

  it('batches: 120 lines × 3 runs, own and on behalf', async () => {
    const mk = (who: string) =>
      Array.from({ length: 60 }, (_, i) => ({
        market: 'sol-500-2026',
        side: 'buy',
        outcome: 'yes',
        price: (0.001 + (i % 30) / 1000).toFixed(3),
        size: String(1 + Math.floor(i / 30)),
        clientId: `batch-${who}-${i}`,
        ...(who === 'obo' ? { onBehalfOf: child.profileId } : {}),
      }));
    for (const who of ['own', 'obo'] as const) {
      const file = join(home, `${who}.ndjson`);
      writeFileSync(
        file,
        mk(who)
          .map((l) => JSON.stringify(l))
          .join('\n'),
      );
      for (let run = 0; run < 3; run++) {
        await faults({ commitThenDrop: 6, fail5xx: 6, match: 'POST /orders' });
        // Each run uses a fresh PM_HOME half of the time, so the exchange (not only the journal) answers.
        const { home: h2, cleanup: c2 } = tempHome();
        const env = { ...(who === 'own' ? own() : obo()), ...(run === 1 ? { PM_HOME: h2 } : {}) };
        const r = await runPm(['--json', 'order', 'place', '--file', file], { env });
        c2();
        expect(r.code, r.stderr).toBe(0);
        const results = ndjson<{ ok: boolean; clientOrderId: string }>(r.stdout);
        expect(results).toHaveLength(60);
        expect(results.every((x) => x.ok)).toBe(true);
      }
    }
    await faults({ commitThenDrop: 0, fail5xx: 0, match: '' });
    for (const who of ['own', 'obo'])
      for (let i = 0; i < 60; i++) expect(ordersOf(`batch-${who}-${i}`), `batch-${who}-${i}`).toHaveLength(1);
  }, 300_000); // 6 batch runs with retries: 58 s at load 17
});
