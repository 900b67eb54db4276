// Issue 30, items 2 (money), 6 and 7: a withdrawal whose answer pm cannot read is unknown and stays
// blocking until the user settles it, whatever the URL's spelling and however long ago. Effects
// are counted in the sandbox's event log (funds.withdrawn), never in pm's output. Before the fixes:
// a truncated 2xx crashed text mode ("Cannot convert undefined to a BigInt") and printed
// {"0":"{",…} with exit 0 in --json mode, and a re-run moved the money again; the same withdrawal
// via localhost or [::ffff:127.0.0.1] was sent again; an unknown one stopped blocking after 10
// minutes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seeded } from '../helpers/account-env.js';
import { countEvents, logMark, useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { SERVER_WALLETS } from '../../src/sandbox/seed.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const newHome = useTempHomes();

const carol = () => seeded(sb.current, 'carol');
const env = (home: string, baseUrl = proxy.current.baseUrl) => ({
  PM_HOME: home,
  PM_BASE_URL: baseUrl,
  PM_TOKEN_ID: carol().token.tokenId,
  PM_TOKEN_SECRET: carol().token.secret,
});
/** Withdrawals of `raw` units from carol's server wallet in the sandbox's log since `mark`. */
const withdrawn = (mark: number, raw: bigint): number =>
  countEvents(sb.current, 'funds.withdrawn', (e) => e.profileId === carol().profileId && e.amount === raw, mark);
interface Entry {
  id: string;
  ts: string;
  state: string;
  exchange?: string;
  profileId?: number | null;
  via?: string;
}
const journal = (home: string): Entry[] =>
  readFileSync(join(home, 'journal', 'withdrawals.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Entry);
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; message: string; hint: string } }).error;
const port = () => new URL(proxy.current.baseUrl).port;

describe('a withdrawal answered with a 2xx pm cannot read (truncated, Connection: close)', () => {
  it('--json: exit 7 unknown, journaled unknown; the re-run is refused (exit 5) until settled: one withdrawal', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault: { kind: 'truncate' } });
    const r = await runPm(['--json', '--yes', 'withdraw', '2.000001'], { env: env(home) });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toBe('');
    const err = errorOf(r.stderr);
    expect(err.code).toBe('UNKNOWN_STATE');
    expect(err.message).toMatch(/could not read its answer/);
    const id = journal(home).at(-1)?.id ?? '';
    expect(journal(home).map((e) => e.state)).toEqual(['pending', 'unknown']);
    // The hint: check the wallet, then the exact settle commands with this id; never "retry".
    expect(err.hint).toContain(SERVER_WALLETS['carol'] as string);
    expect(err.hint).toContain(`pm --json --yes withdraw --settle ${id} --as sent`);
    expect(err.hint).toContain(`pm --json --yes withdraw --settle ${id} --as not-sent`);
    expect(err.hint).toContain('pm --json --yes withdraw 2.000001');
    expect(err.hint).not.toMatch(/retry|--force/i);
    expect(withdrawn(mark, 2_000_001n)).toBe(1); // it did go through
    const again = await runPm(['--json', '--yes', 'withdraw', '2.000001'], { env: env(home) });
    expect(again.code, again.stderr).toBe(5);
    expect(errorOf(again.stderr).hint).toContain(`--settle ${id}`);
    expect(withdrawn(mark, 2_000_001n)).toBe(1);
    // Found in the transfers, settled as sent: journaled, by the user.
    const settled = await runPm(['--json', '--yes', 'withdraw', '--settle', id, '--as', 'sent'], { env: env(home) });
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.json()).toMatchObject({ id, settled: 'sent', amountRaw: '2000001' });
    expect(journal(home).at(-1)).toMatchObject({ id, state: 'withdrawn', via: 'user' });
    // Settled once: a second settlement of it is refused, and an unknown id is not found.
    expect((await runPm(['--json', 'withdraw', '--settle', id, '--as', 'not-sent'], { env: env(home) })).code).toBe(5);
    expect((await runPm(['--json', 'withdraw', '--settle', 'wd-nope', '--as', 'sent'], { env: env(home) })).code).toBe(4);
    expect(withdrawn(mark, 2_000_001n)).toBe(1);
  });

  it('text mode: exit 7 with the same advice, no crash ("looks like a bug")', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault: { kind: 'truncate' } });
    const r = await runPm(['--yes', 'withdraw', '2.000002'], { env: env(home) });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).not.toMatch(/bug|BigInt/);
    expect(r.stderr).toMatch(/may or may not have gone through/);
    expect(r.stderr).toMatch(/pm --yes withdraw --settle wd-[0-9a-f]+ --as not-sent/);
    expect(withdrawn(mark, 2_000_002n)).toBe(1);
  });

  it('a garbled 2xx (JSON of another shape, or not JSON) is unknown too', async () => {
    for (const [i, fault] of [{ kind: 'garble', as: 'shape' } as const, { kind: 'garble', as: 'text' } as const].entries()) {
      const home = newHome();
      const raw = 2_000_010n + BigInt(i);
      const mark = logMark(sb.current);
      proxy.current.reset();
      proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault });
      const r = await runPm(['--json', '--yes', 'withdraw', `2.0000${10 + i}`], { env: env(home) });
      expect(r.code, `${fault.as}: ${r.stderr}`).toBe(7);
      expect(journal(home).at(-1)?.state).toBe('unknown');
      expect(withdrawn(mark, raw)).toBe(1);
    }
  });
});

describe('an unknown withdrawal blocks its twin', () => {
  it('however the URL is spelled (127.0.0.1, localhost, [::ffff:127.0.0.1], a trailing slash): one withdrawal', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault: { kind: 'drop' } });
    const r = await runPm(['--json', '--yes', 'withdraw', '2.000003'], { env: env(home, `http://127.0.0.1:${port()}`) });
    expect(r.code, r.stderr).toBe(7);
    expect(journal(home).at(-1)).toMatchObject({ exchange: `http://loopback:${port()}`, profileId: carol().profileId });
    proxy.current.reset();
    for (const url of [`http://localhost:${port()}`, `http://[::ffff:127.0.0.1]:${port()}`, `http://127.0.0.1:${port()}/`]) {
      const again = await runPm(['--json', '--yes', 'withdraw', '2.000003'], { env: env(home, url) });
      expect(again.code, `${url}: ${again.stderr}`).toBe(5);
    }
    expect(withdrawn(mark, 2_000_003n)).toBe(1);
  });

  it('however long ago (backdated 11 minutes, a day): still refused until settled; settled not-sent, it is sent once', async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.reset();
    // A 503 before forwarding: the exchange never saw it, but pm cannot know that.
    proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault: { kind: 'status', status: 503 } });
    const r = await runPm(['--json', '--yes', 'withdraw', '2.000004'], { env: env(home) });
    expect(r.code, r.stderr).toBe(7);
    expect(withdrawn(mark, 2_000_004n)).toBe(0);
    proxy.current.reset();
    const file = join(home, 'journal', 'withdrawals.ndjson');
    for (const ago of [11 * 60_000, 24 * 3600_000]) {
      const back = new Date(Date.now() - ago).toISOString();
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"ts":"[^"]+"/g, `"ts":"${back}"`), { mode: 0o600 });
      const again = await runPm(['--json', '--yes', 'withdraw', '2.000004'], { env: env(home) });
      expect(again.code, again.stderr).toBe(5);
    }
    expect(withdrawn(mark, 2_000_004n)).toBe(0);
    // Not in the transfers: settled as not sent, the same command sends it, once.
    const id = journal(home).at(-1)?.id ?? '';
    const settled = await runPm(['--json', '--yes', 'withdraw', '--settle', id, '--as', 'not-sent'], { env: env(home) });
    expect(settled.code, settled.stderr).toBe(0);
    const sent = await runPm(['--json', '--yes', 'withdraw', '2.000004'], { env: env(home) });
    expect(sent.code, sent.stderr).toBe(0);
    expect(withdrawn(mark, 2_000_004n)).toBe(1);
  });

  it("another account's or another exchange's unknown withdrawal never blocks", async () => {
    const home = newHome();
    const mark = logMark(sb.current);
    proxy.current.reset();
    const base = {
      ts: new Date().toISOString(),
      state: 'unknown',
      amount: '2000005',
      token: null,
      destination: null,
      onBehalfOf: null,
      wallet: null,
    };
    const lines = [
      // The same exchange, another profile.
      { ...base, id: 'wd-other-profile', baseUrl: proxy.current.baseUrl, exchange: `http://loopback:${port()}`, profileId: 4242 },
      // Another exchange, this profile.
      {
        ...base,
        id: 'wd-other-exchange',
        baseUrl: 'https://api.example.org',
        exchange: 'https://api.example.org:443',
        profileId: carol().profileId,
      },
    ];
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(home, 'journal'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'journal', 'withdrawals.ndjson'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
    const r = await runPm(['--json', '--yes', 'withdraw', '2.000005'], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(withdrawn(mark, 2_000_005n)).toBe(1);
  });

  it('pm doctor reports the unknown withdrawal with its id and the settle command', async () => {
    const home = newHome();
    proxy.current.reset();
    proxy.current.set({ method: 'POST', path: '/portfolio/withdraw', fault: { kind: 'drop' } });
    expect((await runPm(['--json', '--yes', 'withdraw', '2.000006'], { env: env(home) })).code).toBe(7);
    proxy.current.reset();
    const id = journal(home).at(-1)?.id ?? '';
    const d = await runPm(['--json', 'doctor'], { env: env(home) });
    const checks = JSON.parse(d.stdout || '[]') as { name: string; status: string; detail: string; fix?: string }[];
    const j = (Array.isArray(checks) ? checks : (checks as { checks: typeof checks }).checks).find((c) => c.name === 'journal');
    expect(j?.status).toBe('fail');
    expect(j?.detail).toContain(id);
    expect(j?.fix).toContain(`pm withdraw --settle ${id}`);
  });
});
