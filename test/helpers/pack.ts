// pm as a user gets it: the tarball `npm pack` makes (the published manifest: no scripts, see
// scripts/manifest.mjs), installed offline into a new project.
//
// Offline: npm ci fills the cache with the locked tarballs, not with the registry's package
// documents that npm install needs to resolve a package's dependencies by their ranges. So the
// project gets pm's runtime dependencies and the entries of pm's package-lock.json for them (the
// versions a user of this lockfile gets); npm then takes every tarball from the cache.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Packs this checkout's dist/ as it is (built) into `dest`, with the published manifest; returns
 * the tarball's path. npm packs a copy (the published manifest and what "files" can name): the
 * checkout's package.json is never written, since the rest of the suite reads it meanwhile.
 */
export async function packTarball(dest: string): Promise<string> {
  const stage = join(dest, 'stage');
  mkdirSync(stage, { recursive: true });
  const manifest = await run(process.execPath, ['scripts/manifest.mjs', 'published'], { encoding: 'utf8' });
  writeFileSync(join(stage, 'package.json'), manifest.stdout);
  const own = JSON.parse(manifest.stdout) as { files: string[] };
  // The top-level names "files" starts from (bin, dist, …) and the README; npm applies the globs.
  for (const top of new Set(own.files.map((f) => f.split('/')[0] ?? f))) {
    if (existsSync(top)) cpSync(top, join(stage, top), { recursive: true });
  }
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dest], { cwd: stage, encoding: 'utf8' });
  return join(dest, packed.stdout.trim().split('\n').pop() ?? '');
}

/** A new project in `dir` (ESM, as a bot's is: top-level await) whose lockfile pins pm's runtime dependencies as pm's own lockfile does. */
export function lockedProject(dir: string): void {
  interface Lock {
    packages: Record<string, { dev?: boolean; [field: string]: unknown }>;
  }
  const own = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string>>;
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
  const deps = { dependencies: own['dependencies'] ?? {}, optionalDependencies: own['optionalDependencies'] ?? {} };
  const packages: Lock['packages'] = { '': { name: 'prefix', ...deps } };
  for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev) packages[path] = entry;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'prefix', private: true, type: 'module', ...deps }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'prefix', lockfileVersion: 3, requires: true, packages }));
}

/** Installs the tarball into the project offline (`omitOptional`: without the optional chain binary). */
export async function installTarball(dir: string, tarball: string, o: { omitOptional?: boolean } = {}): Promise<void> {
  lockedProject(dir);
  const omit = o.omitOptional ? ['--omit=optional'] : [];
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...omit, '--prefix', dir, tarball], { encoding: 'utf8' });
}

/** The packages installed in a project (name@version, nested ones included) and the bytes of its node_modules. */
export function footprint(dir: string): { packages: string[]; bytes: number } {
  const packages: string[] = [];
  const modules = (nm: string): void => {
    if (!existsSync(nm)) return;
    for (const name of readdirSync(nm)) {
      if (name.startsWith('.')) continue;
      const names = name.startsWith('@') ? readdirSync(join(nm, name)).map((n) => `${name}/${n}`) : [name];
      for (const n of names) {
        const manifest = JSON.parse(readFileSync(join(nm, n, 'package.json'), 'utf8')) as { version?: unknown };
        packages.push(`${n}@${String(manifest.version)}`);
        modules(join(nm, n, 'node_modules'));
      }
    }
  };
  modules(join(dir, 'node_modules'));
  let bytes = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else bytes += lstatSync(join(d, e.name)).size;
    }
  };
  walk(join(dir, 'node_modules'));
  return { packages: packages.sort(), bytes };
}
