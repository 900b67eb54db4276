// The published types reach no package: the .d.ts a user's compiler reads from
// dist/lib/index.d.ts names Node's built-ins only, so a TypeScript user needs nothing installed but
// pm (not viem). The type tests of every namespace (test/lib/types.check.ts) and examples/*.ts
// compile with `tsc --strict` against the installed package: the packed-tarball e2e
// (test/e2e/install.e2e.test.ts), in its one build.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve('.');

/** Every module specifier a declaration file names: imports, re-exports, import() types, triple-slash references. */
function specifiersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\/\/\/\s*<reference\s+types\s*=\s*['"]([^'"]+)['"]/g)) out.push(m[1] ?? '');
  // (Comments out first: a doc comment's example may show an import.)
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)) out.push(m[1] ?? '');
  return out;
}

/** The declaration files reachable from `entry`, and the bare specifiers (packages) they name. */
function declarationClosure(entry: string): { files: string[]; packages: Map<string, string[]> } {
  const files: string[] = [];
  const packages = new Map<string, string[]>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop() ?? '';
    if (files.includes(f)) continue;
    files.push(f);
    for (const s of specifiersOf(readFileSync(f, 'utf8'))) {
      if (s.startsWith('.')) {
        const target = resolve(dirname(f), s).replace(/\.js$/, '.d.ts');
        if (!existsSync(target)) throw new Error(`${f} names ${s}, and ${target} does not exist`);
        todo.push(target);
      } else packages.set(s, [...(packages.get(s) ?? []), f.slice(root.length + 1)]);
    }
  }
  return { files, packages };
}

describe('the published types', () => {
  it('reach no package from dist/lib/index.d.ts (node: built-ins only): no viem for a TypeScript user', () => {
    const { files, packages } = declarationClosure(join(root, 'dist/lib/index.d.ts'));
    expect(files.length).toBeGreaterThan(3);
    const named = [...packages].filter(([p]) => !p.startsWith('node:')).map(([p, by]) => `${p} (from ${by.join(', ')})`);
    expect(named).toEqual([]);
  });

  it('the closure walk sees an import of viem (the walk itself can fail)', () => {
    expect(
      specifiersOf(
        "/** @example import { x } from 'pm-cli' */\nimport type { Hex } from 'viem';\nexport type A = import('viem/accounts').LocalAccount;",
      ),
    ).toEqual(['viem', 'viem/accounts']);
  });
});
