// The compile cache of bin/pm.js (v8-compile-cache on Node 20, module.enableCompileCache from Node
// 22.1): written after a first run into $XDG_CACHE_HOME/pm/code-cache (created 0700), used by the
// next run, a damaged cache ignored, never used from a directory that others can write to, off
// with PM_CODE_CACHE=off or --verbose, and not used by help pages (reading and rewriting it costs
// them more than their compile). On Node 20 a preloaded script reports what V8 did with the
// cache of each bundle file (test/helpers/vm-cache-report.cjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
const root = mkdtempSync(join(tmpdir(), 'pm-code-cache-'));
afterAll(() => {
  cleanup();
  rmSync(root, { recursive: true, force: true });
});
const REPORT = new URL('../helpers/vm-cache-report.cjs', import.meta.url).pathname;
const node20 = !('enableCompileCache' in nodeModule);

function pm(xdg: string, env: Record<string, string>, ...argv: string[]): { stdout: string; cache: string[] } {
  const r = spawnSync(process.execPath, ['-r', REPORT, 'bin/pm.js', ...argv], {
    env: { ...process.env, PM_HOME: home, XDG_CACHE_HOME: xdg, PM_CODE_CACHE: '', ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const cache = r.stderr.split('\n').filter((l) => l.startsWith('CACHE '));
  return { stdout: r.stdout, cache };
}
// The bundle files a command loads, in order: the CLI, the one PmError class, the kernel.
const LOADED = ['run.cjs', 'errors.cjs', 'kernel.cjs'];
const files = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
    : [];

it('writes a cache after the first run, uses it on the next, and ignores a damaged one', () => {
  const xdg = join(root, 'a');
  const dir = join(xdg, 'pm', 'code-cache');
  const first = pm(xdg, {}, 'completion', 'bash');
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(files(dir).length).toBeGreaterThan(0);
  if (node20) expect(first.cache).toEqual(LOADED.map((f) => `CACHE ${f} none`));

  const second = pm(xdg, {}, 'completion', 'bash');
  expect(second.stdout).toBe(first.stdout);
  if (node20) expect(second.cache).toEqual(LOADED.map((f) => `CACHE ${f} accepted`));

  // Every cache file damaged (garbage, then cut short): same output, and a good cache again.
  for (const damage of [(f: string) => writeFileSync(f, 'not a code cache'), (f: string) => writeFileSync(f, Buffer.alloc(7))]) {
    for (const f of files(dir)) damage(f);
    expect(pm(xdg, {}, 'completion', 'bash').stdout).toBe(first.stdout);
    const again = pm(xdg, {}, 'completion', 'bash');
    expect(again.stdout).toBe(first.stdout);
    if (node20) expect(again.cache).toEqual(LOADED.map((f) => `CACHE ${f} accepted`));
  }
}, 120_000);

it('is not used from a directory others can write to, nor with PM_CODE_CACHE=off or --verbose, nor for help', () => {
  const xdg = join(root, 'shared');
  const dir = join(xdg, 'pm', 'code-cache');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  const shared = pm(xdg, {}, 'completion', 'bash');
  expect(shared.stdout).toMatch(/complete /);
  expect(shared.cache).toEqual([]);
  expect(files(dir)).toEqual([]);

  for (const [env, argv] of [
    [{ PM_CODE_CACHE: 'off' }, ['completion', 'bash']],
    [{}, ['--verbose', 'completion', 'bash']],
    [{}, ['--help']],
    [{}, ['order', 'place', '-h']],
  ] as const) {
    const xdg2 = mkdtempSync(join(root, 'x-'));
    const r = pm(xdg2, env, ...argv);
    expect(r.stdout).toMatch(/^Usage: pm |complete /);
    expect(r.cache).toEqual([]);
    expect(files(xdg2)).toEqual([]);
  }
}, 120_000);
