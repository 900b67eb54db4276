// The V8 code cache of bin/pm.js: written after a first run into a private directory per Node
// version and build, used by the next run (not rewritten), ignored and rewritten when damaged,
// never used from a directory that others can write to, off with PM_CODE_CACHE=off or --verbose.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const build = readFileSync(new URL('../../dist/build-id', import.meta.url), 'utf8').trim();

function pm(cache: string, ...argv: string[]) {
  const r = spawnSync(process.execPath, ['bin/pm.js', ...argv], {
    env: { ...process.env, PM_HOME: home, PM_CODE_CACHE: cache },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}
const dirOf = (cache: string): string => join(cache, `${process.version}-${process.arch}`, build);
const mtimes = (dir: string): Record<string, number> =>
  Object.fromEntries(readdirSync(dir).map((n) => [n, statSync(join(dir, n)).mtimeMs]));

it('writes a cache after the first run, uses it on the next, and replaces a damaged file', () => {
  const cache = join(root, 'a');
  const first = pm(cache, 'completion', 'bash');
  const dir = dirOf(cache);
  const files = readdirSync(dir);
  expect(files).toContain('cli~run.pack.cjs.v8c');
  expect(files).toContain('commands~completion.pack.cjs.v8c');
  expect(statSync(cache).mode & 0o777).toBe(0o700);
  expect(statSync(join(dir, 'cli~run.pack.cjs.v8c')).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);

  // Used, not rewritten: V8 accepted every file.
  const before = mtimes(dir);
  expect(pm(cache, 'completion', 'bash')).toBe(first);
  expect(mtimes(dir)).toEqual(before);

  // A damaged file (garbage, then a truncated one) is ignored and written again.
  const file = join(dir, 'cli~run.pack.cjs.v8c');
  const good = readFileSync(file);
  for (const bad of [Buffer.from('not a code cache'), good.subarray(0, good.length >> 1)]) {
    writeFileSync(file, bad);
    expect(pm(cache, 'completion', 'bash')).toBe(first);
    expect(readFileSync(file).length).toBe(good.length);
  }
});

it('is not used from a directory others can write to, nor with PM_CODE_CACHE=off or --verbose', () => {
  const shared = join(root, 'shared');
  pm(shared, '--help');
  const dir = dirOf(shared);
  rmSync(dir, { recursive: true });
  chmodSync(shared, 0o777);
  pm(shared, '--help');
  expect(existsSync(dir)).toBe(false);

  const verbose = join(root, 'verbose');
  pm(verbose, '--verbose', '--help');
  expect(existsSync(verbose)).toBe(false);
  pm('off', '--help');
  expect(existsSync(join(process.cwd(), 'off'))).toBe(false);
});
