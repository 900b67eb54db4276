#!/usr/bin/env node
// Thin shim (CommonJS, see bin/package.json): check the Node version, read argv with the global
// flags' table, answer --version and the root help page (dist/cli/root-help.json, commander's
// page as the build printed it) without loading the CLI, turn on the compile cache, then run the
// CLI: dist/cli/run.cjs, the bundle scripts/build.mjs writes.
//
// Compile cache: V8 keeps the compiled code of the bundle files a run loads, so the next run
// skips most of the compiling. Node >= 22.1 has it (module.enableCompileCache); on Node 20 the
// v8-compile-cache package does it (bundled, dist/vendor/v8-compile-cache.cjs). Both key each file
// by its content (a rebuilt or upgraded pm never meets the code of another build) and ignore a
// cache V8 rejects (damaged, or of another Node). It lives in $XDG_CACHE_HOME/pm/code-cache (else
// ~/.cache/pm/code-cache), created 0700; one that another user owns or can write to is not used.
// PM_CODE_CACHE=off turns it off, and --verbose runs without it: stack traces then go through the
// bundle's source maps to src/ (in a checkout: the published package ships no maps).
'use strict';
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`error: pm needs Node.js 20.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
try {
  // argv as the CLI reads it: the one table of global flags (src/cli/global-flags.ts, a bundle of its own).
  const flags = require('../dist/cli/global-flags.cjs');
  const scan = flags.scanArgv(args);
  const { words, given } = scan;
  // The root help page (made by the build) when it is what commander would print here.
  const page = flags.printsRootHelp(args) ? flags.rootHelpPage(require('../dist/cli/root-help.json'), process.stdout) : undefined;
  if (args.length === 1 && given.version) {
    // --version alone: the version, without loading the CLI.
    process.stdout.write(`${require('../package.json').version}\n`);
  } else if (page !== undefined) {
    process.stdout.write(page);
  } else {
    if (given.verbose) process.setSourceMapsEnabled(true);
    // (Not for help pages: reading and rewriting the cache costs more than their compile saves.)
    else if (process.env.PM_CODE_CACHE !== 'off' && words.length > 0 && words[0] !== 'help' && !given.help) compileCache();
    require('../dist/cli/run.cjs');
  }
} catch (e) {
  // Only loading pm itself fails here (pm prints its own errors), said as pm says errors.
  const first = String(e?.message || e).split('\n')[0];
  const hint =
    e?.code !== 'MODULE_NOT_FOUND'
      ? 'Run again with --verbose, and report it.'
      : /[\\/]dist[\\/]/.test(first)
        ? `pm is not built: run npm run build (or npm ci) in ${require('node:path').join(__dirname, '..')}.`
        : "A dependency is missing: run npm ci in pm's directory, or install pm again.";
  process.stderr.write(`error: pm could not start: ${first}\nhint: ${hint}\n`);
  process.exitCode = 1;
}

function compileCache() {
  const fs = require('node:fs');
  const path = require('node:path');
  const { enableCompileCache } = require('node:module');
  try {
    const home = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || require('node:os').homedir(), '.cache');
    const dir = path.join(home, 'pm', 'code-cache');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    if ((st.mode & 0o022) !== 0 || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return;
    if (enableCompileCache) return void enableCompileCache(dir);
    // (The package reads its directory when required; both default to the temp directory.)
    process.env.V8_COMPILE_CACHE_CACHE_DIR = path.join(dir, `${process.version}-${process.arch}`);
    require('../dist/vendor/v8-compile-cache.cjs');
    delete process.env.V8_COMPILE_CACHE_CACHE_DIR;
  } catch {
    // The cache is an optimisation only.
  }
}
