// The module graph of src/: no file cycles (static, type-only and dynamic imports alike), and the
// sandbox stays an independent implementation (never imports src/core or src/keystore).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// PM_IMPORTS_ROOT lets a reviewer point the check at another checkout (e.g. an older commit).
const ROOT = resolve(process.env['PM_IMPORTS_ROOT'] ?? '.', 'src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Drops comments (block, and line comments that start a line) so that examples in docs do not count. */
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

function resolveSpec(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined; // packages and node: builtins
  const base = resolve(dirname(from), spec);
  for (const c of [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return undefined;
}

/** Every file `file` imports: static, re-exports, side-effect, dynamic; a template-literal dynamic import counts as importing every file under its static prefix. */
export function importsOf(file: string, all: string[]): string[] {
  const src = stripComments(readFileSync(file, 'utf8'));
  const out = new Set<string>();
  const specs = [
    ...[...src.matchAll(/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)].map((m) => m[1]),
    ...[...src.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)].map((m) => m[1]),
    ...[...src.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*[,)]/g)].map((m) => m[1]),
  ];
  for (const spec of specs) {
    const r = spec === undefined ? undefined : resolveSpec(file, spec);
    if (r) out.add(r);
  }
  for (const m of src.matchAll(/\bimport\(\s*`([^`$]*)\$\{/g)) {
    const prefix = m[1] ?? '';
    if (!prefix.startsWith('.')) continue;
    const dir = resolve(dirname(file), prefix.slice(0, prefix.lastIndexOf('/') + 1));
    for (const f of all) if (f.startsWith(`${dir}/`) && f !== file) out.add(f);
  }
  return [...out];
}

/** The import cycles of a graph (one path per strongly connected component with more than one file, or a self-import). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const sccs: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) sccs.push(comp);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  // Turn each component into one concrete cycle path, for a readable failure.
  return sccs.map((comp) => {
    const inComp = new Set(comp);
    const start = comp[0] ?? '';
    const path = [start];
    const seen = new Set([start]);
    const dfs = (v: string): boolean => {
      for (const w of graph.get(v) ?? []) {
        if (w === start) return true;
        if (inComp.has(w) && !seen.has(w)) {
          seen.add(w);
          path.push(w);
          if (dfs(w)) return true;
          path.pop();
        }
      }
      return false;
    };
    dfs(start);
    return [...path, start];
  });
}

const files = walk(ROOT);
const graph = new Map(files.map((f) => [f, importsOf(f, files)]));
const rel = (f: string): string => relative(ROOT, f);

describe('the module graph of src/', () => {
  it('finds a cycle when there is one (the checker itself works)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(g)).toHaveLength(1);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
    expect(graph.get(join(ROOT, 'cli', 'context.ts'))).toContain(join(ROOT, 'cli', 'env.ts'));
  });

  it('has no import cycle between files (static or dynamic)', () => {
    const cycles = findCycles(graph).map((c) => c.map(rel).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('keeps the sandbox independent of src/core and src/keystore', () => {
    const bad = files
      .filter((f) => rel(f).startsWith('sandbox/'))
      .flatMap((f) => (graph.get(f) ?? []).filter((t) => /^(core|keystore)\//.test(rel(t))).map((t) => `${rel(f)} imports ${rel(t)}`));
    expect(bad).toEqual([]);
  });

  it('keeps the CLI kernel and the commands free of the app (src/app)', () => {
    // src/cli/run.ts is the process entry (docs/architecture.md: the only file that exits), not kernel: it
    // may import the app, and nothing may import it.
    expect(files.filter((f) => (graph.get(f) ?? []).some((t) => rel(t) === 'cli/run.ts')).map(rel)).toEqual([]);
    const bad = files
      .filter((f) => /^(cli|commands|core|keystore|sandbox)\//.test(rel(f)) && rel(f) !== 'cli/run.ts')
      .flatMap((f) => (graph.get(f) ?? []).filter((t) => rel(t).startsWith('app/')).map((t) => `${rel(f)} imports ${rel(t)}`));
    expect(bad).toEqual([]);
  });
});
