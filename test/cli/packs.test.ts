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
