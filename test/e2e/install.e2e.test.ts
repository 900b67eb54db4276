// pm installed from its packed tarball (npm pack, then npm install --offline --prefix <tmp> from
// it): the demo runs from the installed package and its last lines say how to run pm as it was
// installed, never "from this checkout with npx".
//
// Offline: npm ci fills the cache with the locked tarballs, not with the registry's package
// documents that npm install needs to resolve a package's dependencies by their ranges. So the
// prefix gets pm's runtime dependencies and the entries of pm's package-lock.json for them (the
// versions a user of this lockfile gets); npm then takes every tarball from the cache.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { howToRun } from '../../src/commands/demo.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'pm-install-'));
const prefix = join(work, 'prefix');
const pkg = join(prefix, 'node_modules', 'pm-cli');
const bin = join(prefix, 'node_modules', '.bin', 'pm');
// Node and the system tools, without the installed bin (nor this checkout's node_modules/.bin).
const basePath = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A prefix whose lockfile pins pm's runtime dependencies as pm's own lockfile does. */
function lockedPrefix(): void {
  interface Lock {
    packages: Record<string, { dev?: boolean; [field: string]: unknown }>;
  }
  const own = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string>>;
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
  const deps = { dependencies: own['dependencies'] ?? {}, optionalDependencies: own['optionalDependencies'] ?? {} };
  const packages: Lock['packages'] = { '': { name: 'prefix', ...deps } };
  for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev) packages[path] = entry;
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'prefix', private: true, ...deps }));
  writeFileSync(join(prefix, 'package-lock.json'), JSON.stringify({ name: 'prefix', lockfileVersion: 3, requires: true, packages }));
}

beforeAll(async () => {
  // dist/ is built (npm test builds first): pack it as it is.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { encoding: 'utf8' });
  const tarball = join(work, packed.stdout.trim().split('\n').pop() ?? '');
  lockedPrefix();
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], { encoding: 'utf8' });
  expect(realpathSync(bin)).toBe(realpathSync(join(pkg, 'bin', 'pm.js')));
}, 180_000);

describe('pm installed from the packed tarball', () => {
  it('runs the demo; the last lines give the installed bin, not npx in a checkout', async () => {
    const home = join(work, 'home');
    const r = await run(bin, ['demo'], {
      encoding: 'utf8',
      env: { PATH: basePath, HOME: work, PM_HOME: home, PM_SCRYPT_N: '1024', XDG_CACHE_HOME: join(work, 'cache') },
      maxBuffer: 64 * 1024 * 1024,
    });
    const tail = r.stdout.trimEnd().split('\n').slice(-4).join('\n');
    expect(tail).toContain(`Done. pm is installed at ${bin}, which is not on your PATH (add ${dirname(bin)} to it for plain pm).`);
    expect(tail).toMatch(new RegExp(`^ {2}${bin.replace(/[.]/g, '\\.')} sandbox start --detach +# your own sandbox`, 'm'));
    expect(tail).toMatch(new RegExp(`^ {2}${bin.replace(/[.]/g, '\\.')} doctor +#`, 'm'));
    expect(r.stdout).not.toMatch(/checkout|npx/);
  }, 180_000);

  it('says plain pm once its bin is on PATH, and npx pm in a git checkout', () => {
    expect(howToRun(pkg, `${dirname(bin)}:${basePath}`)).toEqual({ kind: 'path', pm: 'pm' });
    expect(howToRun(pkg, basePath)).toEqual({ kind: 'bin', pm: bin });
    expect(howToRun(process.cwd(), `${dirname(bin)}:${basePath}`)).toEqual({ kind: 'checkout', pm: 'npx pm' });
  });
});
