#!/usr/bin/env node
// Thin shim (CommonJS, see bin/package.json): check the Node version, answer --version without
// loading anything, then run the CLI: the bundle that scripts/build.mjs writes to dist/ (CommonJS:
// dist/cli/run.cjs and the command and chunk files it requires, and their packs).
//
// V8 code cache: a new process parses and compiles every bundle file it loads (~15 ms of a one-
// order command). The compiled code of each file is kept in a cache directory after a run and
// handed to V8 on the next (measured 0.88x of the wall time of `order place --dry-run`):
//  - where: $PM_CODE_CACHE, else $XDG_CACHE_HOME/pm/code, else ~/.cache/pm/code; then one
//    directory per Node version and architecture, and in it one per build of the bundle (the
//    hash of all its files, dist/build-id, written by the build), so an upgraded or rebuilt pm
//    never meets the cache of another build; the 8 most recent builds' caches are kept;
//    PM_CODE_CACHE=off disables it;
//  - files are written whole (a temporary file, then rename), and V8 checks a cache against its
//    own version, flags and the source's length, and ignores one that does not match (it is then
//    compiled as usual and the cache rewritten);
//  - the directory must be the user's own and writable by nobody else, otherwise it is not used
//    (pm creates it with mode 0700);
//  - the cache is an optimisation only: any failure to read or write it is silent;
//  - --verbose does not use it, so that stack traces go through the source maps to src/.
'use strict';
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`error: pm needs Node.js 20.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(require('node:path').join(__dirname, '../package.json'), 'utf8')).version}\n`);
} else {
  // The bundle is minified: with --verbose, stack traces go through its source maps to src/.
  // Otherwise it runs the packs (a few files holding the split files' modules: each file Node
  // loads costs ~0.3 ms; see scripts/build.mjs) with the code cache.
  try {
    if (args.includes('--verbose')) {
      process.setSourceMapsEnabled(true);
      require('../dist/cli/run.cjs');
    } else {
      if (process.env.PM_CODE_CACHE !== 'off') useCodeCache();
      require('../dist/cli/run.pack.cjs');
    }
  } catch (e) {
    // Only loading pm itself fails here (pm prints its own errors), said as pm says errors.
    const first = String(e?.message || e).split('\n')[0];
    const hint =
      e?.code === 'MODULE_NOT_FOUND'
        ? /[\\/]dist[\\/]/.test(first)
          ? `pm is not built: run npm run build (or npm ci) in ${require('node:path').join(__dirname, '..')}.`
          : "A dependency is missing: run npm ci in pm's directory, or install pm again."
        : 'Run again with --verbose, and report it.';
    process.stderr.write(`error: pm could not start: ${first}\nhint: ${hint}\n`);
    process.exitCode = 1;
  }
}

function useCodeCache() {
  const fs = require('node:fs');
  const path = require('node:path');
  const Module = require('node:module');
  const vm = require('node:vm');
  const dist = path.join(__dirname, '..', 'dist');
  let build;
  try {
    build = fs.readFileSync(path.join(dist, 'build-id'), 'utf8').trim();
  } catch {
    return;
  }
  if (!/^[0-9a-f]{16,64}$/.test(build)) return;
  const base =
    process.env.PM_CODE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(require('node:os').homedir(), '.cache'), 'pm', 'code');
  const runtime = path.join(base, `${process.version}-${process.arch}`);
  const dir = path.join(runtime, build);
  // Only a directory of the user's own that nobody else can write to (or none yet).
  const mine = (p) => {
    const st = fs.statSync(p);
    return (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o022) === 0;
  };
  try {
    if (!mine(base)) return;
  } catch {
    // None yet: created at exit.
  }
  const fresh = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (!filename.startsWith(dist + path.sep) || !filename.endsWith('.cjs')) return compile.call(this, content, filename);
    const file = path.join(dir, `${path.relative(dist, filename).replaceAll(path.sep, '~')}.v8c`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      // No cache yet.
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) fresh.push({ script, file });
    const req = (id) => this.require(id);
    req.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    req.main = require.main;
    req.cache = Module._cache;
    return script.runInThisContext({ displayErrors: true }).call(this.exports, this.exports, req, this, filename, path.dirname(filename));
  };
  // At exit, the files compiled without a cache get one (with the functions this run compiled).
  process.once('exit', () => {
    if (fresh.length === 0) return;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!mine(base)) return;
      for (const { script, file } of fresh) {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, file);
      }
      // Caches of older builds: the 8 most recently written are kept.
      const builds = fs
        .readdirSync(runtime)
        .map((n) => ({ n, t: fs.statSync(path.join(runtime, n)).mtimeMs }))
        .sort((a, b) => b.t - a.t);
      for (const { n } of builds.slice(8)) fs.rmSync(path.join(runtime, n), { recursive: true, force: true });
    } catch {
      // A cache is only an optimisation.
    }
  });
}
