// The packs of the bundle (scripts/build.mjs, step 5): a command runs from a few pack files, each
// module once per process whether it came from a pack or from its own file, and --verbose runs
// the split files (with their source maps) to the same result.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const meta = JSON.parse(readFileSync(`${dist}bundle-meta.json`, 'utf8')) as Record<string, string[]>;
const env = { ...process.env, PM_HOME: home };

it('--verbose (split files) and the packs print the same help', () => {
  const packed = spawnSync(process.execPath, ['bin/pm.js', '--help'], { env, encoding: 'utf8' });
  const split = spawnSync(process.execPath, ['bin/pm.js', '--verbose', '--help'], { env, encoding: 'utf8' });
  expect(packed.status).toBe(0);
  expect(split.status).toBe(0);
  expect(packed.stdout).toMatch(/Usage: pm/);
  expect(split.stdout).toBe(packed.stdout);
});

it('a module already loaded from its own file is not loaded again from a pack', () => {
  const errorsFile = Object.keys(meta).find((f) => f.startsWith('chunks/') && meta[f]?.includes('src/core/errors.ts'));
  expect(errorsFile).toBeDefined();
  const script = `
    const first = require(${JSON.stringify(`${dist}${errorsFile}`)});
    const before = require.cache[${JSON.stringify(`${dist}${errorsFile}`)}];
    process.argv = [process.argv[0], 'pm', 'markets', '--help'];
    require(${JSON.stringify(`${dist}cli/run.pack.cjs`)});
    process.on('exit', () => {
      const after = require.cache[${JSON.stringify(`${dist}${errorsFile}`)}];
      require('node:fs').writeSync(2, 'SAME ' + (after === before && after.exports === first) + ' PACKED ' + Object.keys(require.cache).filter((f) => f.endsWith('.pack.cjs')).length + '\\n');
    });`;
  const r = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  expect(r.stdout).toMatch(/Usage: pm markets/);
  expect(r.stderr).toMatch(/SAME true PACKED 1/);
});

it('every pack loads, and its modules evaluate, in one process', () => {
  const script = `
    const fs = require('node:fs'), path = require('node:path');
    const walk = (d) => fs.readdirSync(d).flatMap((n) => (fs.statSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : [path.join(d, n)]));
    process.argv = [process.argv[0], 'pm', '--no-color', '--version'];
    require(${JSON.stringify(`${dist}cli/run.pack.cjs`)});
    const packs = walk(${JSON.stringify(dist)}).filter((f) => f.endsWith('.pack.cjs') && !f.endsWith('run.pack.cjs'));
    const bad = [];
    for (const f of packs) { try { require(f); } catch (e) { bad.push(path.basename(f) + ': ' + e.message); } }
    const all = walk(${JSON.stringify(dist)}).filter((f) => f.endsWith('.cjs') && !f.endsWith('.pack.cjs'));
    // (esbuild may leave a chunk no file requires, for an import it dropped: not counted.)
    const text = all.map((f) => fs.readFileSync(f, 'utf8')).join(' ');
    const split = all.filter((f) => f.includes(path.sep + 'commands' + path.sep) || f.endsWith('run.cjs') || text.includes('/' + path.basename(f) + '"'));
    const loaded = split.filter((f) => require.cache[f]);
    require('node:fs').writeSync(2, JSON.stringify({ packs: packs.length, bad, split: split.length, loaded: loaded.length }) + '\\n');`;
  const r = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  const res = JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '{}') as { packs: number; bad: string[]; split: number; loaded: number };
  expect(res.bad).toEqual([]);
  expect(res.packs).toBeGreaterThan(60);
  // Every split file's module is in some pack (none is left to be read on its own).
  expect(res.loaded).toBe(res.split);
});
