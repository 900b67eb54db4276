// pm installed from its packed tarball (npm pack with the published manifest, then npm install
// --offline --omit=optional into a new project: test/helpers/pack.ts): the install is pm alone,
// small, with nothing to run at install; the demo runs from the installed package and its last
// lines say how to run pm as it was installed, never "from this checkout with npx"; a bot imports
// it as a library (ESM and CommonJS) against the sandbox; every shipped examples/*.ts compiles
// with tsc --strict and no cast, and the quoter runs against the sandbox; and a TypeScript
// consumer type-checks against its types.

import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { eventually } from '../helpers/eventually.js';
import { footprint, installTarball, packTarball } from '../helpers/pack.js';
import { howToRun } from '../../src/commands/demo.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'pm-install-'));
const prefix = join(work, 'prefix');
const pkg = join(prefix, 'node_modules', 'pm-cli');
const bin = join(prefix, 'node_modules', '.bin', 'pm');
// Node and the system tools, without the installed bin (nor this checkout's node_modules/.bin).
const basePath = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');
const sb = useSandbox();
const { home, cleanup } = tempHome();
const root = process.cwd();
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  cleanup();
});

// What the checkout's package.json read while the tarball was made (see the first test).
const manifest = readFileSync('package.json', 'utf8');
const readWhilePacking = new Set<string>();

beforeAll(async () => {
  // dist/ is built (npm test builds first): pack it as it is. (Without the optional chain binary,
  // anvil: only pm sandbox start --chain runs it, and it weighs 43 MB.)
  let packing = true;
  const watching = (async () => {
    while (packing) {
      readWhilePacking.add(readFileSync('package.json', 'utf8'));
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const tarball = await packTarball(work).finally(() => {
    packing = false;
  });
  await watching;
  await installTarball(prefix, tarball, { omitOptional: true });
  expect(realpathSync(bin)).toBe(realpathSync(join(pkg, 'bin', 'pm.js')));
}, 180_000);

describe('pm installed from the packed tarball', () => {
  it("packing leaves the checkout's package.json as it is, at every moment (the suite beside it reads it)", () => {
    // Before: the published manifest was written over the checkout's for the pack, and put back
    // after. Vite's resolver, in the same suite, once read it empty, kept that, and every later
    // import in the run failed ("JSONError … File is empty"); tests in other files read the
    // stripped manifest. The tarball is now made from a copy.
    expect(readWhilePacking.size).toBeGreaterThan(0);
    expect([...readWhilePacking]).toEqual([manifest]);
  });

  it('is one package of at most 15 MB: no dependency, no install script, examples shipped, no source maps', () => {
    const { packages, bytes } = footprint(prefix);
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(packages).toEqual([`pm-cli@${version}`]);
    expect(bytes).toBeLessThan(15 * 1024 * 1024);
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest)).not.toContain('scripts');
    expect(Object.keys(manifest)).not.toContain('dependencies');
    expect(Object.keys(manifest)).not.toContain('devDependencies');
    expect(Object.keys(manifest)).not.toContain('allowScripts');
    expect(manifest['optionalDependencies']).toEqual({ '@foundry-rs/anvil-linux-amd64': expect.any(String) });
    const shipped = readdirSync(pkg, { recursive: true, encoding: 'utf8' });
    expect(shipped.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(readdirSync(join(pkg, 'examples')).sort()).toEqual(readdirSync('examples').sort());
  });

  it('every relative link of the installed README (and of the docs it links to) names a file of the package', () => {
    // Before: docs/ was not shipped, so every docs/… link of the README an npm user reads was broken.
    const links = (file: string): string[] =>
      [...readFileSync(join(pkg, file), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1] ?? '')
        .filter((l) => !/^[a-z]+:/i.test(l))
        .map((l) => join(dirname(file), l));
    const seen = new Set<string>();
    const missing: string[] = [];
    const queue = ['README.md'];
    while (queue.length > 0) {
      const f = queue.shift() as string;
      if (seen.has(f)) continue;
      seen.add(f);
      if (!existsSync(join(pkg, f))) {
        missing.push(f);
        continue;
      }
      if (f.endsWith('.md')) queue.push(...links(f));
    }
    expect(missing).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
  });

  it('answers --help, a group help page and --version, and runs a command line that names its command', async () => {
    const env = { PATH: basePath, HOME: work, PM_HOME: join(work, 'help-home'), XDG_CACHE_HOME: join(work, 'cache') };
    const top = await run(bin, ['--help'], { encoding: 'utf8', env });
    expect(top.stdout).toMatch(/^Usage: pm \[options\] \[command\]/);
    expect(top.stderr).toBe('');
    expect((await run(bin, ['order', '--help'], { encoding: 'utf8', env })).stdout).toMatch(/^Usage: pm order /);
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect((await run(bin, ['--version'], { encoding: 'utf8', env })).stdout).toBe(`${version}\n`);
    const show = await run(bin, ['--json', 'markets', 'show', 'btc-100k-2026'], {
      encoding: 'utf8',
      env: { ...env, PM_BASE_URL: sb.current.baseUrl },
    });
    expect(JSON.parse(show.stdout)).toMatchObject({ slug: 'btc-100k-2026' });
  });

  it('runs the demo; the last lines give the installed bin, not npx in a checkout', async () => {
    const demoHome = join(work, 'home');
    const r = await run(bin, ['demo'], {
      encoding: 'utf8',
      env: { PATH: basePath, HOME: work, PM_HOME: demoHome, PM_SCRYPT_N: '1024', XDG_CACHE_HOME: join(work, 'cache') },
      maxBuffer: 64 * 1024 * 1024,
    });
    const tail = r.stdout.trimEnd().split('\n').slice(-4).join('\n');
    expect(tail).toContain(`Done. pm is installed at ${bin}, which is not on your PATH (add ${dirname(bin)} to it for plain pm).`);
    expect(tail).toMatch(new RegExp(`^ {2}${bin.replace(/[.]/g, '\\.')} sandbox start --detach +# your own sandbox`, 'm'));
    expect(tail).toMatch(new RegExp(`^ {2}${bin.replace(/[.]/g, '\\.')} doctor +#`, 'm'));
    // The words a checkout's hints use, as words: ids, hashes and temporary names in the tour are
    // random letters and may hold "npx" anywhere (a CI run printed one).
    expect(r.stdout).not.toMatch(/\bnpx |\bnpm link\b|this checkout|node bin\/pm\.js/);
  }, 180_000);

  it('says plain pm once its bin is on PATH, and (after npm link) plain pm in a git checkout', () => {
    expect(howToRun(pkg, `${dirname(bin)}:${basePath}`)).toEqual({ kind: 'path', pm: 'pm' });
    expect(howToRun(pkg, basePath)).toEqual({ kind: 'bin', pm: bin });
    expect(howToRun(process.cwd(), `${dirname(bin)}:${basePath}`)).toEqual({ kind: 'checkout', pm: 'pm' });
  });
});

const env = () => {
  const a = sb.current.info.accounts.find((x) => x.name === 'alice');
  if (!a) throw new Error('no alice');
  return { PM_HOME: home, BASE: sb.current.baseUrl, KEY: a.privateKey, TOKEN_ID: a.token.tokenId, SECRET: a.token.secret };
};

const tsc = (...args: string[]) => execa('node', [join(root, 'node_modules/typescript/bin/tsc'), ...args], { cwd: prefix, reject: false });

/**
 * Writes a tsconfig of tsc --strict into the project: `options` over strict, es2022, Node's types,
 * pm's declaration files checked too. Its lib is a Node project's, as @tsconfig/node20 sets it
 * (es2023, no DOM): pm's types must not lean on the DOM's, and checking lib.dom.d.ts cost ~3.6 s of
 * CPU a compile (10.8 → 7.2 s for one consumer file, Node 20).
 */
function writeTsconfig(name: string, options: Record<string, unknown>, files: { files: string[] } | { include: string[] }): void {
  const base = {
    strict: true,
    target: 'es2022',
    lib: ['es2023'],
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
  };
  writeFileSync(join(prefix, name), JSON.stringify({ compilerOptions: { ...base, ...options }, ...files }));
}

describe('pm installed from the packed tarball, as a library', () => {
  it('ESM: markets.get, place twice with one clientId, watch.orders yields it, cancel, abort ends the iteration', async () => {
    writeFileSync(
      join(prefix, 'bot.mjs'),
      `import { createClient, ConflictError } from 'pm-cli';
const e = process.env;
const pm = createClient({ home: e.PM_HOME, baseUrl: e.BASE, privateKey: e.KEY, token: { tokenId: e.TOKEN_ID, secret: e.SECRET } });
const out = {};
out.market = (await pm.markets.get('btc-100k-2026')).slug;
const ac = new AbortController();
const events = [];
let subscribed;
const ready = new Promise((r) => (subscribed = r));
const loop = (async () => {
  for await (const ev of pm.watch.orders({ signal: ac.signal })) {
    events.push(ev);
    if (ev.event === 'lifecycle' && ev.type === 'subscribed') subscribed();
    if (ev.event === 'orderEvent' && ev.clientOrderId === 'pkg-1') out.streamed = true;
  }
  return 'ended';
})();
await ready;
const order = { market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.1', size: '10', clientId: 'pkg-1' };
const a = await pm.orders.place(order);
const b = await pm.orders.place(order);
out.same = a.order.id === b.order.id;
out.already = [a.alreadyPlaced, b.alreadyPlaced];
try { await pm.orders.place({ ...order, price: '0.2' }); } catch (err) { out.conflict = err instanceof ConflictError && err.exitCode === 5; }
for (let i = 0; i < 300 && !out.streamed; i++) await new Promise((r) => setTimeout(r, 50));
out.canceled = (await pm.orders.cancel(a.order.id)).results.some((x) => x.order.id === a.order.id && x.status === 'CANCELLED');
ac.abort();
out.loop = await loop;
await pm.close();
console.log(JSON.stringify(out));
`,
    );
    const r = await execa('node', ['bot.mjs'], { cwd: prefix, env: env(), timeout: 60_000 });
    expect(JSON.parse(r.stdout)).toEqual({
      market: 'btc-100k-2026',
      same: true,
      already: [false, true],
      conflict: true,
      streamed: true,
      canceled: true,
      loop: 'ended',
    });
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'pkg-1')).toHaveLength(1);
  }, 90_000);

  it('CommonJS: require works, and loads nothing CLI-only (no commander, prompts or tables) nor viem', async () => {
    writeFileSync(
      join(prefix, 'probe.cjs'),
      `const { createClient } = require('pm-cli');
const pm = createClient({ home: process.env.PM_HOME, baseUrl: process.env.BASE });
pm.markets.get('btc-100k-2026').then(async (m) => {
  const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](commander|@inquirer|cli-table3|cli-progress|ora)[\\\\/]/.test(f) || /dist[\\\\/](cli|app|commands|vendor)[\\\\/]/.test(f));
  await pm.close();
  console.log(JSON.stringify({ slug: m.slug, loaded }));
});
`,
    );
    const r = await execa('node', ['probe.cjs'], { cwd: prefix, env: env(), timeout: 60_000 });
    expect(JSON.parse(r.stdout)).toEqual({ slug: 'btc-100k-2026', loaded: [] });
  }, 90_000);

  it('a TypeScript consumer (ESM, nodenext) type-checks against the published types, and a wrong call does not', async () => {
    // (Compiled in the shared build's nodenext project, pm's declaration files checked: only the
    // wrong twin, which passes a price as a number, may have an error.)
    onlyTwinWrong(await compiles(), ESM_FILES, 'consumer-wrong.mts');
  }, 180_000);

  it("the type tests of every namespace (test/lib/types.check.ts, each call's result and each refused input) compile against the installed package", async () => {
    const c = await compiles();
    expect(
      c.errors((f) => f.startsWith('typetests/')),
      c.out,
    ).toEqual([]);
  }, 180_000);

  it('a CommonJS TypeScript consumer (module node16, as @tsconfig/node20 sets it) type-checks against the published types', async () => {
    // Before: the one set of types was ESM (the package is "type": "module"), and a CommonJS file
    // under node16 could not import it at all (TS1479), however right the call. (nodenext allowed it.)
    // The package's declaration files are checked too (skipLibCheck off): the CommonJS ones must be
    // whole. One compile of the right file and the wrong one (and the bot below): only the wrong one has an error.
    onlyTwinWrong(await compiles(), NODE16_FILES, 'consumer-wrong.cts');
  }, 180_000);

  it('a CommonJS TypeScript bot (module node16), compiled, runs every documented call against the sandbox; its errors are the classes it imported, with code, hint and exitCode', async () => {
    // (Compiled with the consumer above and its wrong twin: only the twin may have an error.)
    const c = await compiles();
    expect(
      c.errors(NODE16_FILES).filter((f) => f !== 'consumer-wrong.cts'),
      c.out,
    ).toEqual([]);
    const alice = sb.current.info.accounts.find((x) => x.name === 'alice');
    const r = await execa('node', ['calls-out/calls.cjs'], { cwd: prefix, env: { ...env(), IDT: alice?.identityToken }, timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      list: true,
      search: true,
      book: 'NO',
      history: true,
      page: '/crypto',
      again: true,
      conflict: [true, 'CONFLICT', 5, 'string'],
      replaced: ['CANCELLED', '0.06'],
      batch: [true],
      open: 1,
      closed: true,
      usage: 2,
      notFound: ['NOT_FOUND', 4],
      status: [true],
      cancel: ['CANCELLED'],
      positions: true,
      pnl: '7d',
      trades: true,
      historyEntry: 'string',
      free: true,
      allowlist: true,
      watch: true,
      cancelAll: 0,
    });
    expect(sb.current.ctx.state.orders.filter((o) => o.clientOrderId === 'cts-1')).toHaveLength(1);
  }, 180_000);

  it("a CommonJS TypeScript consumer of the older kind (module commonjs, no esModuleInterop) type-checks against the package's types", async () => {
    // Before: dist/core/http.d.ts began `import http from 'node:http'`, which needs the consumer's
    // esModuleInterop: without it, and with skipLibCheck off, TS1192 in pm's file, not the bot's.
    const c = await compiles();
    expect(
      c.errors((f) => f === 'legacy.ts'),
      c.out,
    ).toEqual([]);
  }, 180_000);

  it("every code block of docs/library.md compiles as written with tsc --strict (ESM nodenext and bundler), the package's types checked too", async () => {
    // Before: the first block's token read process.env (string | undefined where the type wants
    // string: TS2322) and its second place was `{ /* the same */ clientId }` (TS2345); the partner
    // block named baseUrl, privateKey, token and identityToken without defining them (TS18004).
    const c = await compiles();
    expect(c.blocks).toBeGreaterThanOrEqual(2);
    // ESM nodenext (doc/*.mts) and bundler (doc/*.ts): two projects of the one shared build.
    expect(
      c.errors((f) => f.startsWith('doc/')),
      c.out,
    ).toEqual([]);
  }, 180_000);
});

/** An ESM consumer's file (module nodenext): the calls right; its twin passes a price as a number. */
const ESM_CONSUMER = `import { createClient, PmError } from 'pm-cli';
const pm = createClient({ baseUrl: 'http://127.0.0.1:8787', token: { tokenId: 't', secret: 's' } });
export async function run(signal: AbortSignal): Promise<string> {
  const r = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10', clientId: 'bot-1' }, { signal });
  const moved = await pm.orders.replace(r.order.id, { price: '0.43' });
  const filled: string = r.execution.filled.sharesRaw;
  for await (const ev of pm.watch.orders({ signal })) if (ev['event'] === 'orderEvent') break;
  try { await pm.orders.cancelAll(); } catch (e) { if (e instanceof PmError) return e.code + (e.hint ?? '') + e.exitCode; }
  return (moved.replacement?.clientId ?? '') + filled + String(r.alreadyPlaced);
}
`;

/** The ESM consumer and its wrong twin (in the nodenext project). */
const ESM_FILES = (f: string): boolean => ['consumer.mts', 'consumer-wrong.mts'].includes(f);

/** A consumer of the older kind (module commonjs, moduleResolution node10, no esModuleInterop). */
const LEGACY_CONSUMER = `import { createClient, PmError } from 'pm-cli';
const pm = createClient({ baseUrl: 'http://127.0.0.1:8787', token: { tokenId: 't', secret: 's' } });
export async function run(): Promise<string> {
  try { return (await pm.orders.list()).map((o) => o.id).join(); } catch (e) { return e instanceof PmError ? e.code : ''; }
}
`;

/** A CommonJS consumer's file (module node16): the calls right; its twin passes a price as a number. */
const CJS_CONSUMER = `import { createClient, PmError } from 'pm-cli';
const pm = createClient({ baseUrl: 'http://127.0.0.1:8787', token: { tokenId: 't', secret: 's' } });
export async function run(): Promise<string> {
  const r = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10', clientId: 'bot-1' });
  try { await pm.orders.cancelAll(); } catch (e) { if (e instanceof PmError) return e.code + e.exitCode; }
  return r.execution.filled.sharesRaw + String(r.alreadyPlaced);
}
`;

/** A CommonJS bot (module node16) that makes every documented call and prints what it saw as JSON. */
const CJS_BOT = `import { createClient, ConflictError, NotFoundError, PmError, UsageError } from 'pm-cli';
import type { Market, MarketPage, Order, OrderRequest, PlaceResult, BalanceJson, AllowlistEntry, WatchRecord } from 'pm-cli';

async function main(): Promise<Record<string, unknown>> {
  const e = process.env;
  const pm = createClient({ home: e['PM_HOME'], baseUrl: e['BASE'], privateKey: e['KEY'], identityToken: e['IDT'],
    token: { tokenId: e['TOKEN_ID'] ?? '', secret: e['SECRET'] ?? '' } });
  const out: Record<string, unknown> = {};
  const m: Market = await pm.markets.get('btc-100k-2026');
  out['list'] = (await pm.markets.list({ limit: 2 })).length > 0;
  out['search'] = (await pm.markets.search('bitcoin')).some((x) => x.slug === m.slug);
  out['book'] = (await pm.markets.book(m.slug, { outcome: 'no' })).outcome;
  out['history'] = (await pm.markets.history(m.slug)).length > 0;
  const page: MarketPage = await pm.markets.page('/crypto', { limit: 1 });
  out['page'] = page.page.path;
  const bid: OrderRequest = { market: m.slug, side: 'buy', outcome: 'yes', price: '0.05', size: '10', clientId: 'cts-1' };
  const r: PlaceResult = await pm.orders.place(bid);
  out['again'] = (await pm.orders.place(bid)).alreadyPlaced;
  try { await pm.orders.place({ ...bid, price: '0.06' }); } catch (err) {
    if (err instanceof ConflictError) out['conflict'] = [err instanceof PmError, err.code, err.exitCode, typeof err.hint];
  }
  const moved = await pm.orders.replace(r.order.id, { price: '0.06' });
  out['replaced'] = [moved.cancelled.status, moved.replacement?.order.price];
  out['batch'] = (await pm.orders.placeBatch([{ ...bid, clientId: 'cts-2', price: '0.04' }])).map((b) => b.ok);
  const open: Order[] = await pm.orders.list();
  out['open'] = open.filter((o) => o.clientOrderId === 'cts-2').length;
  out['closed'] = (await pm.orders.list({ market: m.slug, all: true })).some((o) => o.id === r.order.id && o.status !== 'LIVE');
  try { await pm.orders.list({ all: true }); } catch (err) { if (err instanceof UsageError) out['usage'] = err.exitCode; }
  try { await pm.markets.get('no-such-market'); } catch (err) { if (err instanceof NotFoundError) out['notFound'] = [err.code, err.exitCode]; }
  out['status'] = (await pm.orders.status({ clientIds: ['cts-1'] })).map((s) => s.found);
  out['cancel'] = (await pm.orders.cancel(moved.replacement?.order.id ?? '')).results.map((x) => x.status);
  out['positions'] = Array.isArray((await pm.portfolio.positions()).positions);
  out['pnl'] = (await pm.portfolio.pnl('7d')).timeframe;
  out['trades'] = Array.isArray(await pm.portfolio.trades());
  for await (const h of pm.portfolio.history({ max: 1 })) out['historyEntry'] = typeof h.kind;
  const balance: BalanceJson = await pm.funds.balance();
  out['free'] = /^\\d+$/.test(balance.usdc.freeRaw);
  const allowed: AllowlistEntry[] = await pm.funds.allowlist.list();
  out['allowlist'] = Array.isArray(allowed);
  const records: string[] = [];
  // (Until the stream says it is subscribed: on a loaded machine that can take more than a second.)
  for await (const ev of pm.watch.orders({ signal: AbortSignal.timeout(30_000) })) { const w: WatchRecord = ev; records.push(w.event); if (w.event === 'lifecycle') break; }
  out['watch'] = records.includes('lifecycle');
  out['cancelAll'] = (await pm.orders.cancelAll()).results.every((x) => x.status === 'CANCELLED') && (await pm.orders.list()).length;
  await pm.close();
  return out;
}
main().then((o) => console.log(JSON.stringify(o)));
`;

/**
 * The files with an error in tsc's (plain) output, each once, relative to the project; an error of
 * no file (a tsconfig's, "no inputs were found") is '(tsc)'.
 */
function errorFiles(out: string): string[] {
  return [...new Set([...out.matchAll(/^(?:(\S+?)\(\d+,\d+\): )?error TS\d+/gm)].map((m) => m[1] ?? '(tsc)'))];
}

/** Of a consumer and its wrong twin (`own`), only the twin has an error: the price it passes as a number (TS2322). */
function onlyTwinWrong(c: Compiled, own: (file: string) => boolean, twin: string): void {
  expect(c.errors(own), c.out).toEqual([twin]);
  expect(c.out).toMatch(new RegExp(`${twin.replace('.', '\\.')}.*TS2322`));
}

/** The files of the CommonJS (module node16) project: a consumer, its wrong twin, the bot. */
const NODE16_FILES = (f: string): boolean => ['consumer.cts', 'consumer-wrong.cts', 'calls.cts'].includes(f);

interface Compiled {
  shipped: string[];
  blocks: number;
  /** What tsc printed. */
  out: string;
  /**
   * The files with an error among a project's own (`own`), pm's declaration files (every project
   * checks them: an error there counts for each) and tsc's own ('(tsc)', a tsconfig's error).
   */
  errors(own: (file: string) => boolean): string[];
}
let shared: Promise<Compiled> | undefined;
/**
 * One `tsc --build` of four tsc --strict projects, pm's declaration files checked in each: what a
 * user copies (the package's examples/*.ts and every code block of docs/library.md, ESM nodenext,
 * emitted to out/, with an ESM consumer, its wrong twin and the type tests of every namespace; the
 * blocks again under moduleResolution bundler), a CommonJS consumer, its wrong twin and a bot
 * (module node16, emitted to calls-out/), and a consumer of the older kind (module commonjs, no
 * esModuleInterop). Eight tests read it, whichever asks first runs it: a compile costs seconds of
 * CPU, and one build of four projects ~40% less than four compiles (Node's types and pm's read once).
 */
function compiles(): Promise<Compiled> {
  shared ??= (async () => {
    const shipped = readdirSync(join(pkg, 'examples')).filter((f) => f.endsWith('.ts'));
    mkdirSync(join(prefix, 'examples'), { recursive: true });
    for (const f of shipped) copyFileSync(join(pkg, 'examples', f), join(prefix, 'examples', f));
    const blocks = [...readFileSync('docs/library.md', 'utf8').matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    mkdirSync(join(prefix, 'doc'), { recursive: true });
    blocks.forEach((code, i) => {
      writeFileSync(join(prefix, 'doc', `block${i}.mts`), code);
      writeFileSync(join(prefix, 'doc', `block${i}.ts`), code);
    });
    writeFileSync(join(prefix, 'consumer.mts'), ESM_CONSUMER);
    writeFileSync(join(prefix, 'consumer-wrong.mts'), ESM_CONSUMER.replace("price: '0.43'", 'price: 0.43'));
    // The type tests import vitest's expectTypeOf (types only: never run), this checkout's, found
    // beside them (the project's own node_modules stays pm's install alone).
    mkdirSync(join(prefix, 'typetests', 'node_modules'), { recursive: true });
    copyFileSync(join(root, 'test/lib/types.check.ts'), join(prefix, 'typetests', 'types.check.ts'));
    symlinkSync(join(root, 'node_modules', 'vitest'), join(prefix, 'typetests', 'node_modules', 'vitest'));
    writeTsconfig(
      'tsconfig.nodenext.json',
      { module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out', rootDir: '.' },
      {
        include: ['examples/*.ts', 'doc/*.mts', 'consumer.mts', 'consumer-wrong.mts', 'typetests/*.ts'],
      },
    );
    writeTsconfig('tsconfig.doc-bundler.json', { module: 'esnext', moduleResolution: 'bundler', noEmit: true }, { include: ['doc/*.ts'] });
    writeFileSync(join(prefix, 'consumer.cts'), CJS_CONSUMER);
    writeFileSync(join(prefix, 'consumer-wrong.cts'), CJS_CONSUMER.replace("price: '0.42'", 'price: 0.42'));
    writeFileSync(join(prefix, 'calls.cts'), CJS_BOT);
    writeTsconfig(
      'tsconfig.node16.json',
      { module: 'node16', moduleResolution: 'node16', outDir: 'calls-out' },
      { files: ['consumer.cts', 'consumer-wrong.cts', 'calls.cts'] },
    );
    writeFileSync(join(prefix, 'legacy.ts'), LEGACY_CONSUMER);
    writeTsconfig('tsconfig.commonjs.json', { module: 'commonjs', moduleResolution: 'node10', noEmit: true }, { files: ['legacy.ts'] });
    // (Each project is emitted even where another has errors, as tsc -p would: TypeScript ≥ 5.6.)
    const r = await tsc('-b', 'tsconfig.nodenext.json', 'tsconfig.doc-bundler.json', 'tsconfig.node16.json', 'tsconfig.commonjs.json');
    const out = r.stdout + r.stderr;
    const errors = (own: (file: string) => boolean) =>
      errorFiles(r.stdout).filter((f) => own(f) || f.startsWith('node_modules/') || f === '(tsc)');
    return { shipped, blocks: blocks.length, out, errors };
  })();
  return shared;
}

describe('the examples shipped in the package', () => {
  it('every examples/*.ts compiles with tsc --strict (library types checked too), with no cast', async () => {
    const c = await compiles();
    expect(c.shipped).toContain('quoter.ts');
    expect(
      c.errors((f) => f.startsWith('examples/')),
      c.out,
    ).toEqual([]);
    for (const f of c.shipped) {
      const code = readFileSync(join(prefix, 'examples', f), 'utf8')
        .split('\n')
        .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
        // A renamed import (`import { setTimeout as sleep }`) is no cast.
        .map((l) => (/^\s*import\s/.test(l) ? '' : l))
        .join('\n');
      // `x as T` and `x!` (a non-null assertion before . or [ or ) or ;), outside comments.
      expect(code, f).not.toMatch(/\sas\s+(?!const\b)[\w{[(]/);
      expect(code, f).not.toMatch(/[\w)\]]!(?=[.[);,])/);
    }
  }, 180_000);

  it('the quoter, compiled, quotes both sides against the sandbox and cancels them on SIGINT', async () => {
    const c = await compiles();
    expect(
      c.errors((f) => f.startsWith('examples/')),
      c.out,
    ).toEqual([]);
    const e = env();
    const bot = execa('node', ['out/examples/quoter.js', 'btc-100k-2026', '--spread', '0.04', '--size', '5'], {
      cwd: prefix,
      env: {
        PATH: basePath,
        PM_HOME: e.PM_HOME,
        PM_BASE_URL: e.BASE,
        PM_PRIVATE_KEY: e.KEY,
        PM_TOKEN_ID: e.TOKEN_ID,
        PM_TOKEN_SECRET: e.SECRET,
      },
      extendEnv: false,
      reject: false,
    });
    let log = '';
    bot.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    await eventually(() => /"quoting"/.test(log), { what: `the first quotes; stdout: ${log}` });
    const line = log.split('\n').find((l) => l.includes('"quoting"')) ?? '{}';
    const ids = (JSON.parse(line) as { orders: string[] }).orders;
    const live = () => sb.current.ctx.state.orders.filter((o) => ids.includes(o.id) && o.status === 'LIVE');
    expect(ids).toHaveLength(2);
    expect(live()).toHaveLength(2);
    bot.kill('SIGINT');
    const done = await bot;
    expect(done.exitCode, done.stderr + log).toBe(0);
    expect(log).toMatch(/"stopped":"btc-100k-2026","canceled":2/);
    expect(live()).toHaveLength(0);
  }, 180_000);
});
