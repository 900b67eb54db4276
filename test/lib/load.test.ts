// What `require('pm-cli')` loads (issue 32: it is to cost at most 1.5× `node -e 0`): the package's
// entry, dist/lib/index.cjs, is createClient, its option checks and the error classes; the client
// core (HTTP, the limiter, journals, signing, the stream: dist/lib/engine.cjs) is loaded by the
// first call that needs it. What a process loaded is reported by test/helpers/loaded-preload.cjs.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { LOADED_PRELOAD, parseLoaded } from '../helpers/loaded.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const run = promisify(execFile);
const entry = resolve('dist/lib/index.cjs');
const dist = resolve('dist');
/** The length of the longest line of a text. */
const longest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));
const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

/** Runs a CommonJS script in a new Node process; its stdout, and what it loaded. */
async function script(code: string): Promise<{ stdout: string } & ReturnType<typeof parseLoaded>> {
  const r = await run(process.execPath, ['-r', LOADED_PRELOAD, '-e', code], { env: { ...process.env, PM_HOME: home }, timeout: 60_000 });
  return { stdout: r.stdout, ...parseLoaded(r.stderr) };
}

// Built-ins that take milliseconds to load, needed only to talk to the exchange or run a process.
const HEAVY = ['node:http', 'node:https', 'node:net', 'node:tls', 'node:child_process', 'node:zlib'];

describe("require('pm-cli')", () => {
  it('loads the facade and the error classes only: no client core, no http, net or child_process', async () => {
    const r = await script(`require(${JSON.stringify(entry)});`);
    expect(r.files.sort()).toEqual(['core/errors.cjs', 'lib/index.cjs']);
    expect(r.builtins.filter((b) => HEAVY.includes(b))).toEqual([]);
    expect(r.packages).toEqual([]);
    // What V8 compiles at require (the whole client was 220 KB; 44 KB with the funds code and its
    // keccak; 36.0 KB on 2026-11-29, 36.1 KB since a profile name that looks like a key is not repeated;
    // 37.0 KB on 2026-11-30 with every call's { signal } checked and a new batch id per placeBatch).
    expect(statSync(entry).size).toBeLessThan(38 * 1024);
  });

  it("a call loads the client core, no viem; an error thrown in it is an instance of the entry's classes", async () => {
    const r = await script(`
const { createClient, NotFoundError, PmError } = require(${JSON.stringify(entry)});
const pm = createClient({ baseUrl: ${JSON.stringify(sb.current.baseUrl)} });
pm.markets.get('no-such-market').then(
  () => console.log('found'),
  async (e) => {
    const m = await pm.markets.get('btc-100k-2026');
    await pm.close();
    console.log(JSON.stringify({ notFound: e instanceof NotFoundError, pm: e instanceof PmError, slug: m.slug }));
  },
);`);
    expect(JSON.parse(r.stdout)).toEqual({ notFound: true, pm: true, slug: 'btc-100k-2026' });
    expect(r.files.sort()).toEqual(['core/errors.cjs', 'lib/engine.cjs', 'lib/index.cjs']);
  });

  it("an error a bot leaves uncaught prints Node's report of it, not a line of minified bundle 44 KB (or 1.5 KB) long", async () => {
    const code = `const { createClient } = require(${JSON.stringify(entry)});
createClient({ baseUrl: ${JSON.stringify(sb.current.baseUrl)} }).markets.get('no-such-market');`;
    const r = await run(process.execPath, ['-e', code], { env: { ...process.env, PM_HOME: home }, timeout: 60_000 }).then(
      () => ({ stderr: '' }),
      (e: { stderr: string }) => e,
    );
    expect(r.stderr).toMatch(/NotFoundError: no market "no-such-market"/);
    // (Node shows the source line the error was thrown from: the bundles were minified into lines of
    // 40 KB and more, then of up to 1.5 KB; now of about 100 characters, none over 400.)
    expect(longest(r.stderr)).toBeLessThan(400);
    for (const f of ['lib/index.cjs', 'lib/engine.cjs', 'core/errors.cjs'])
      expect(longest(readFileSync(join(dist, f), 'utf8')), f).toBeLessThan(400);
  });
});
