// Every file in examples/ runs against a sandbox as their comments and the README say to run them: shell scripts with
// bash (pm named by $PM, credentials from the environment), batch files with pm order place
// --file. A new example without a way to run it here fails the test. Nothing but 127.0.0.1.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { countEvents, eventsOf, logMark } from '../helpers/fault-proxy.js';
import { eventually } from '../helpers/eventually.js';
import { limitOrder } from '../helpers/orders.js';
import { closedPort } from '../helpers/proxy.js';
import { KEY, runInPty } from '../helpers/pty.js';
import { tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

const EXAMPLES = resolve('examples');
const PM = `node ${resolve('bin/pm.js')}`;

const env = (extra: Record<string, string> = {}) =>
  accountEnv(sb.current, 'alice', home, { PATH: process.env['PATH'] ?? '', HOME: home, PM, ...extra });

/** The example itself where this Node runs TypeScript, else its JavaScript in a project that has pm-cli (this checkout). */
function runnable(file: string): string {
  // (process.features.typescript: Node ≥ 22.10; @types/node of Node 20 does not know it.)
  if ('typescript' in process.features && process.features.typescript) return file;
  const dir = join(home, 'ts-example');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (!existsSync(join(dir, 'node_modules', 'pm-cli'))) symlinkSync(resolve('.'), join(dir, 'node_modules', 'pm-cli'));
  const js = join(dir, basename(file).replace(/\.ts$/, '.mjs'));
  writeFileSync(js, transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm' }).code);
  return js;
}

const runners: Record<string, (file: string) => Promise<void>> = {
  'bot.sh': async (file) => {
    const bash = (e: Record<string, string>) => execa('bash', [file], { env: e, extendEnv: false, reject: false, stdin: 'ignore' });
    // The YES ask of the seeded book is below the bot's limit: it buys, once per day.
    const first = await bash(env());
    expect(first.exitCode, first.stderr).toBe(0);
    const line = /: (\{.*\})$/m.exec(first.stdout)?.[1];
    expect(line, first.stdout).toBeDefined();
    const placed = JSON.parse(line ?? '{}') as { orderId: string | null; settlementStatus: string | null; alreadyPlaced: boolean };
    expect(placed.orderId).toMatch(/\S/);
    expect(placed.settlementStatus).toMatch(/^(UNMATCHED|MATCHED|MINED|CONFIRMED)$/);
    expect(placed.alreadyPlaced).toBe(false);
    // A second run the same day finds the order by its client id and places nothing new.
    const again = await bash(env());
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/"alreadyPlaced":true/);
    const cid = /(bot-btc-100k-2026-\d{8})/.exec(first.stdout)?.[1];
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === cid)).toHaveLength(1);
    // The exchange unreachable: the log names pm's exit code (7), and the bot waits for the next run.
    const down = await bash(env({ PM_BASE_URL: `http://127.0.0.1:${await closedPort()}` }));
    expect(down.exitCode).toBe(0);
    expect(down.stderr).toMatch(/book failed \(exit 7\), trying again next run/);
  },
  'orders.ndjson': async (file) => {
    const place = () =>
      execa('node', ['bin/pm.js', '--json', 'order', 'place', '--file', file], {
        env: env(),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
    const first = await place();
    expect(first.exitCode, first.stderr).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ ok: true });
    // Run again: every line is skipped, reported as the exchange holds it.
    const again = await place();
    expect(again.exitCode, again.stderr).toBe(0);
    for (const l of again.stdout.trim().split('\n')) expect(JSON.parse(l)).toMatchObject({ ok: true, skipped: true });
  },
  'backtest.mjs': async (file) => {
    // The quoter against a replay of its own: a recorded lift to 0.47 reaches its ask (0.45).
    const rec = join(home, 'backtest.ndjson');
    const t = (ms: number): string => new Date(Date.parse('2026-11-28T09:00:00.000Z') + ms).toISOString();
    const book = (ms: number, bid: number, ask: number) => ({
      t: t(ms),
      type: 'book',
      market: 'bt-replay',
      data: { orderbook: { bids: [{ price: bid, size: 50_000_000 }], asks: [{ price: ask, size: 50_000_000 }] } },
    });
    const lines = [
      {
        format: 'pm-recording',
        version: 1,
        pm: '0.1.0',
        source: 'http://x',
        startedAt: t(0),
        markets: [{ slug: 'bt-replay', title: 'Backtest' }],
      },
      book(0, 0.4, 0.46),
      {
        t: t(5000),
        type: 'trade',
        market: 'bt-replay',
        data: { eventType: 'NEW_TRADE', data: { strategy: 'Buy', outcome: 'YES', contracts: '20', tradeAmount: '9.4' } },
      },
      book(6000, 0.4, 0.46),
    ];
    writeFileSync(rec, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const r = await execa('node', [file, rec, '--seconds', '8', '--speed', '1', '--spread', '0.04', '--size', '10'], {
      env: { ...env(), PM_QUOTER: resolve(runnable(join('examples', 'quoter.ts'))) },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      market: string;
      replay: { done: boolean };
      quoter: { quoted: number };
      fills: { outcome: string; sharesRaw: string }[];
      positions: { outcome: string; sharesRaw: string }[];
    };
    expect(out.market).toBe('bt-replay');
    expect(out.replay.done).toBe(true);
    expect(out.quoter.quoted).toBe(1);
    // Its ask (BUY NO at 0.55) was filled by the recorded trade: 10 NO shares.
    expect(out.fills).toEqual([expect.objectContaining({ outcome: 'NO', sharesRaw: '10000000' })]);
    expect(out.positions).toEqual([expect.objectContaining({ outcome: 'NO', sharesRaw: '10000000' })]);
    // A quoter that cannot start (Node strips no types under node_modules, for one) fails the
    // backtest (it printed an empty one and exited 0).
    const broken = await execa('node', [file, rec, '--seconds', '8', '--speed', 'max'], {
      env: { ...env(), PM_QUOTER: join(home, 'no-such-quoter.mjs') },
      extendEnv: false,
      reject: false,
    });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toMatch(/the quoter exited 1 before the end/);
    // A Node that runs no TypeScript (Node 20; Node 24 told not to), with no PM_QUOTER: said at
    // once (it was Node's ERR_UNKNOWN_FILE_EXTENSION, then exit 1).
    const plainNode = (process.features as { typescript?: unknown }).typescript ? ['--no-experimental-strip-types'] : [];
    const noTs = await execa('node', [...plainNode, file, rec, '--seconds', '8'], { env: env(), extendEnv: false, reject: false });
    expect(noTs.exitCode, noTs.stderr).toBe(2);
    expect(noTs.stderr).toMatch(/^error: this Node \(v[\d.]+\) does not run TypeScript[\s\S]*\nhint: .*PM_QUOTER/);
    expect(noTs.stdout).toBe('');
  },
  'quoter.ts': async (file) => {
    // The library bot: quotes both sides, requotes when the book moves, cancels all on Ctrl-C. Run
    // as its comment says (node examples/quoter.ts) where Node runs TypeScript; on Node 20 its
    // JavaScript (esbuild strips the types) in a project with pm-cli in node_modules.
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    // Only the bot's orders: the other examples leave alice's own orders in this market.
    const before = new Set(sb.current.ctx.state.orders.map((o) => o.id));
    const mine = () =>
      sb.current.ctx.state.orders.filter(
        (o) => !before.has(o.id) && o.ownerId === alice?.profileId && o.status === 'LIVE' && o.marketSlug === 'btc-100k-2026',
      );
    const bot = execa('node', [runnable(file), 'btc-100k-2026', '--spread', '0.04', '--size', '10'], {
      env: env(),
      extendEnv: false,
      reject: false,
    });
    let out = '';
    bot.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    await eventually(() => /"quoting"/.test(out), { what: `the first quotes; stdout: ${out}` });
    expect(mine()).toHaveLength(2);
    // Move the mid: bob bids halfway between the bot's YES bid and its ask (its NO bid, seen from YES).
    const [yes, no] = sb.current.ctx.state.markets.find((m) => m.slug === 'btc-100k-2026')?.positionIds ?? ['', ''];
    const priceOf = (tokenId: string): number => Number(mine().find((o) => o.tokenId === tokenId)?.price ?? 0n) / 1e6;
    const mid = ((priceOf(yes) + (1 - priceOf(no))) / 2).toFixed(3);
    // bob bids between them (post-only): the book's mid moves.
    const bobBids = async (price: string): Promise<void> => {
      const argv = ['bin/pm.js', '--json', ...limitOrder('btc-100k-2026', 'buy', 'yes', price, '10'), '--post-only'];
      const r = await execa('node', argv, { env: accountEnv(sb.current, 'bob', home), extendEnv: false, reject: false });
      expect(r.exitCode, r.stderr).toBe(0);
    };
    await bobBids(mid);
    await eventually(() => /"requoted"/.test(out), { what: `a requote; stdout: ${out}` });
    await eventually(() => mine().length === 2, { what: `two quotes after the requote; stdout: ${out}` });
    // A quote gone behind the bot's back (filled, or cancelled elsewhere): the next move quotes that side afresh.
    const gone = mine().find((o) => o.tokenId === yes)?.id ?? '';
    const cancel = await execa('node', ['bin/pm.js', 'order', 'cancel', gone], { env: env(), extendEnv: false, reject: false });
    expect(cancel.exitCode, cancel.stderr).toBe(0);
    expect(mine()).toHaveLength(1);
    const requotes = out.split('"requoted"').length;
    await bobBids((Number(mid) + 0.004).toFixed(3));
    await eventually(() => out.split('"requoted"').length > requotes && mine().length === 2, {
      what: `both sides quoted again; stdout: ${out}`,
    });
    bot.kill('SIGINT');
    const done = await bot;
    expect(done.exitCode, done.stderr + out).toBe(0);
    expect(out).toMatch(/"stopped"/);
    expect(mine()).toHaveLength(0);
  },
  'partner-backend.ts': async (file) => {
    // The library partner backend, compiled as a user's tsc would (types stripped) into the package's
    // tree, where `pm-cli` resolves to this package by its own name. The test plays the users' deposits.
    const { transform } = await import('esbuild');
    const dir = resolve('tmp', 'examples');
    mkdirSync(dir, { recursive: true });
    const js = join(dir, `partner-backend-${process.pid}.mjs`);
    writeFileSync(js, (await transform(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' })).code);
    const mark = logMark(sb.current);
    const partner = seeded(sb.current, 'partner');
    const run = execa('node', [js, 'btc-100k-2026'], {
      env: accountEnv(sb.current, 'partner', home, { PATH: process.env['PATH'] ?? '', HOME: home }),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    let out = '';
    run.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    const lines = (): { event: string; profileId?: number; mode?: string }[] =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { event: string; profileId?: number; mode?: string });
    // Each user deposits once the backend has opened their sub-account (it waits for the money).
    const deposited = new Set<number>();
    await eventually(
      async () => {
        for (const l of lines())
          if (l.event === 'created' && l.profileId !== undefined && !deposited.has(l.profileId)) {
            deposited.add(l.profileId);
            expect(await postAdmin(sb.current, 'fund', { profileId: l.profileId, amount: '5000000' })).toBe(200);
          }
        return deposited.size === 2;
      },
      { what: `two sub-accounts; stdout: ${out}` },
    );
    const done = await run;
    rmSync(js, { force: true });
    expect(done.exitCode, done.stderr + out).toBe(0);
    const ids = [...deposited];
    // Counted in the sandbox's log: two sub-accounts of the partner (a server wallet and an EOA), two
    // orders each (the bid and its replacement), the bid cancelled by the replace, the replacement on the way out.
    const made = eventsOf(sb.current, 'profile.created', (e) => e.profile.parentProfileId === partner.profileId, mark);
    expect(made.map((e) => e.profile.id).sort()).toEqual([...ids].sort());
    expect(made.filter((e) => e.profile.serverWallet === true)).toHaveLength(1);
    for (const id of ids) {
      const placed = eventsOf(sb.current, 'order.placed', (e) => e.order.ownerId === id, mark).map((e) => e.order.id);
      expect(placed, String(id)).toHaveLength(2);
      expect(
        countEvents(sb.current, 'order.cancelled', (e) => placed.includes(e.orderId), mark),
        String(id),
      ).toBe(2);
    }
    expect(lines().filter((l) => l.event === 'quoted')).toHaveLength(2);
  },
};

describe('examples/bot.sh', () => {
  it('its "Try it" line works as written, in a terminal, passphrases typed at the prompts', async () => {
    const tryIt = /^# Try it: +(.*)$/m.exec(readFileSync(join(EXAMPLES, 'bot.sh'), 'utf8'))?.[1] ?? '';
    expect(tryIt).toMatch(/^pm sandbox start --detach && /);
    // A new user: pm on PATH, an empty HOME and PM_HOME, no passphrase anywhere but the keyboard.
    const user = tempHome();
    const bin = join(user.home, 'bin');
    mkdirSync(bin);
    symlinkSync(resolve('bin/pm.js'), join(bin, 'pm'));
    const userEnv = { PATH: `${bin}:${process.env['PATH'] ?? ''}`, HOME: user.home, PM_HOME: join(user.home, 'pm'), PM_SCRYPT_N: '1024' };
    const line = tryIt.replace('pm sandbox start --detach', 'pm sandbox start --detach --port 0');
    try {
      const r = await runInPty(
        ['bash', '-c', line],
        [
          { waitFor: 'New keystore passphrase', send: `try-it-pass${KEY.enter}` },
          { waitFor: 'Repeat the passphrase', send: `try-it-pass${KEY.enter}` },
          ...(/pm unlock/.test(line) ? [{ waitFor: /passphrase/i, send: `try-it-pass${KEY.enter}` }] : []),
        ],
        { ...userEnv, PM_CODE_CACHE: 'off' },
        60_000,
      );
      expect(r.code, r.screen).toBe(0);
      expect(r.screen).toMatch(/bot-btc-100k-2026-\d{8}: \{"orderId":"[^"]+"/);
    } finally {
      await execa('node', ['bin/pm.js', 'lock'], { env: userEnv, extendEnv: false, reject: false });
      await execa('node', ['bin/pm.js', 'sandbox', 'stop'], { env: userEnv, extendEnv: false, reject: false });
      user.cleanup();
    }
  }, 90_000);
});

describe('examples/', () => {
  const files = readdirSync(EXAMPLES).sort();
  it('every example has a runner here', () => {
    expect(files.filter((f) => !(f in runners))).toEqual([]);
  });
  for (const f of files) {
    const run = runners[f];
    if (run) it(`${f} runs against a sandbox`, () => run(join(EXAMPLES, f)), 60_000);
  }
});
