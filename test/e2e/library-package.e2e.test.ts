// pm as a library, as a bot author gets it: the packed tarball (npm pack) installed into an empty
// project with `npm install --offline` (the cache npm ci filled; no network), used from ESM and
// CommonJS against the sandbox, and a TypeScript consumer type-checked against the published types.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'pm-lib-pkg-'));
const app = join(work, 'app');
const { home, cleanup } = tempHome();
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  cleanup();
});

beforeAll(async () => {
  // The dist/ of this checkout, packed without running the build again (other tests use dist/).
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: root });
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('npm pack wrote no tarball');
  await execa('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'bot', version: '1.0.0', private: true, type: 'module' }));
  await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(work, tgz)], { cwd: app });
}, 240_000);

const env = () => {
  const a = sb.current.info.accounts.find((x) => x.name === 'alice');
  if (!a) throw new Error('no alice');
  return { PM_HOME: home, BASE: sb.current.baseUrl, KEY: a.privateKey, TOKEN_ID: a.token.tokenId, SECRET: a.token.secret };
};

describe('the packed library', () => {
  it('ESM: markets.get, place twice with one clientId, watch.orders yields it, cancel, abort ends the iteration', async () => {
    writeFileSync(
      join(app, 'bot.mjs'),
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
out.same = a.orderId === b.orderId;
out.already = [a.alreadyPlaced, b.alreadyPlaced];
try { await pm.orders.place({ ...order, price: '0.2' }); } catch (err) { out.conflict = err instanceof ConflictError && err.exitCode === 5; }
for (let i = 0; i < 300 && !out.streamed; i++) await new Promise((r) => setTimeout(r, 50));
out.canceled = (await pm.orders.cancel(a.orderId)).canceled.includes(a.orderId);
ac.abort();
out.loop = await loop;
await pm.close();
console.log(JSON.stringify(out));
`,
    );
    const r = await execa('node', ['bot.mjs'], { cwd: app, env: env(), timeout: 60_000 });
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

  it('CommonJS: require works, and loads nothing CLI-only (no commander, prompts or tables)', async () => {
    writeFileSync(
      join(app, 'probe.cjs'),
      `const { createClient } = require('pm-cli');
const pm = createClient({ home: process.env.PM_HOME, baseUrl: process.env.BASE });
pm.markets.get('btc-100k-2026').then(async (m) => {
  const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](commander|@inquirer|cli-table3|cli-progress|ora)[\\\\/]/.test(f) || /dist[\\\\/](cli|app|commands)[\\\\/]/.test(f));
  await pm.close();
  console.log(JSON.stringify({ slug: m.slug, loaded }));
});
`,
    );
    const r = await execa('node', ['probe.cjs'], { cwd: app, env: env(), timeout: 60_000 });
    expect(JSON.parse(r.stdout)).toEqual({ slug: 'btc-100k-2026', loaded: [] });
  }, 90_000);

  it('a TypeScript consumer type-checks against the published types, and a wrong call does not', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    const good = `import { createClient, PmError } from 'pm-cli';
const pm = createClient({ baseUrl: 'http://127.0.0.1:8787', token: { tokenId: 't', secret: 's' } });
export async function run(signal: AbortSignal): Promise<string> {
  const r = await pm.orders.place({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.42', size: '10', clientId: 'bot-1' }, { signal });
  const moved = await pm.orders.replace(String(r['orderId']), { price: '0.43' });
  for await (const ev of pm.watch.orders({ signal })) if (ev['event'] === 'orderEvent') break;
  try { await pm.orders.cancelAll(); } catch (e) { if (e instanceof PmError) return e.code + (e.hint ?? '') + e.exitCode; }
  return moved.replacement.clientOrderId;
}
`;
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    writeFileSync(join(app, 'consumer.ts'), good);
    const ok = await execa('node', [tsc, '-p', 'tsconfig.json'], { cwd: app, reject: false });
    expect(ok.exitCode, ok.stdout + ok.stderr).toBe(0);
    writeFileSync(join(app, 'consumer.ts'), good.replace("price: '0.43'", 'price: 0.43'));
    const bad = await execa('node', [tsc, '-p', 'tsconfig.json'], { cwd: app, reject: false });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toMatch(/consumer\.ts/);
  }, 90_000);
});
