// Preloaded with `node -r` into a pm process by test/helpers/loaded.ts: when the process exits,
// writes to stderr one line `LOADED <path>` for every bundle file it loaded (dist/**/*.cjs), one
// `LOADED src:<path>` for every source module (src/…, node_modules/…) whose code ran, and one
// `LOADED node:<name>` for every public Node built-in it loaded, and one `LOADED pkg:<name>` for
// every package of node_modules that was require()d at run time (outside the bundle).
//
// A bundle file holds many modules, and one is evaluated only when imported: what ran comes from
// V8's precise coverage (the functions called) and the bundle's source map, which names the
// source of the first token of each such function. (Code that esbuild generates, such as a
// module's lazy-init wrapper, maps to no token of its own and is skipped.)
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { Session } = require('node:inspector');
const { SourceMap } = require('node:module');
const path = require('node:path');

// The cache compiles a file wrapped in a function, which shifts coverage offsets.
process.env.PM_CODE_CACHE = 'off';
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

function ranModules(url, functions, out) {
  const file = url.startsWith('file:') ? require('node:url').fileURLToPath(url) : url;
  const text = readFileSync(file, 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const at = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo, offset - lineStarts[lo]];
  };
  for (const fn of functions) {
    const { startOffset, count } = fn.ranges[0];
    if (count === 0 || startOffset === 0) continue;
    const [line, column] = at(startOffset);
    const e = map.findEntry(line, column);
    if (e.originalSource === undefined || e.generatedLine !== line || e.generatedColumn !== column) continue;
    const src = e.originalSource.startsWith('file:') ? require('node:url').fileURLToPath(e.originalSource) : e.originalSource;
    out.add(path.relative(path.join(__dirname, '..', '..'), path.resolve(path.dirname(file), src)).replaceAll('\\', '/'));
  }
}

process.once('exit', () => {
  const lines = [];
  const modules = new Set();
  session.post('Profiler.takePreciseCoverage', (err, res) => {
    if (err) throw err;
    for (const s of res.result) if (/[\\/]dist[\\/].*\.cjs$/.test(s.url)) ranModules(s.url, s.functions, modules);
  });
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    if (/[\\/]dist[\\/].*\.cjs$/.test(file)) lines.push(`LOADED ${file}`);
    const pkg = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file)?.[1];
    if (pkg !== undefined) packages.add(pkg.replaceAll('\\', '/'));
  }
  for (const p of packages) lines.push(`LOADED pkg:${p}`);
  for (const m of modules) lines.push(`LOADED src:${m}`);
  for (const m of process.moduleLoadList) {
    const name = /^NativeModule (.+)$/.exec(m)?.[1];
    if (name !== undefined && !name.startsWith('internal/')) lines.push(`LOADED node:${name}`);
  }
  writeSync(2, `${lines.join('\n')}\n`);
});
