// CPU profile summaries (node --cpu-prof output): self time per function, or per group of
// functions, with positions in minified bundle files mapped back to src/ through their source
// maps (dist/**/*.js.map), so a profile of bin/pm.js names real functions and files.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map();
function mapOf(url) {
  if (!maps.has(url)) {
    let sm = null;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      if (file && existsSync(`${file}.map`)) sm = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      sm = null;
    }
    maps.set(url, sm);
  }
  return maps.get(url);
}

const short = (p) =>
  p
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^.*?\/(src|dist|bench)\//, '$1/');

/** One frame as "function file:line" (1-based), through the source map when there is one. */
export function frameName(cf) {
  const sm = cf.url ? mapOf(cf.url) : null;
  if (sm) {
    const e = sm.findEntry(cf.lineNumber, cf.columnNumber);
    if (e?.originalSource) return `${e.name ?? cf.functionName ?? '(anonymous)'} ${short(e.originalSource)}:${e.originalLine + 1}`;
  }
  const fn = cf.functionName || (cf.url ? '(anonymous)' : '');
  return cf.url ? `${fn} ${short(cf.url)}:${cf.lineNumber + 1}` : fn;
}

/**
 * Self time (ms) by key. `keyOf(frames)` gets the stack of a sample, leaf first, as
 * { name, url } and returns the bucket; the default is the leaf's name.
 */
export function selfTimes(profile, keyOf = (frames) => frames[0].name) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const names = new Map();
  const nameOf = (n) => {
    if (!names.has(n.id)) names.set(n.id, { name: frameName(n.callFrame), url: n.callFrame.url, fn: n.callFrame.functionName });
    return names.get(n.id);
  };
  const out = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const frames = [];
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) frames.push(nameOf(byId.get(id)));
    const k = keyOf(frames);
    out.set(k, (out.get(k) ?? 0) + dt);
  }
  return { total, times: [...out.entries()].sort((a, b) => b[1] - a[1]) };
}

export const readProfile = (file) => JSON.parse(readFileSync(file, 'utf8'));

// node bench/profile.mjs FILE.cpuprofile [N]: the top N functions by self time.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { total, times } = selfTimes(readProfile(process.argv[2]));
  console.log(`total ${total.toFixed(0)} ms`);
  for (const [k, v] of times.slice(0, Number(process.argv[3] ?? 30)))
    console.log(`${v.toFixed(1).padStart(9)} ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}
