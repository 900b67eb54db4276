// Every export under src/ is imported by someone (src or test): an export nobody imports is dead
// code, or a name that should be private to its file. Resolved by the TypeScript compiler, so
// re-exports, `import type`, aliases (`a as b`), dynamic `import()` and `import('x').T` types count.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const SRC = join(ROOT, 'src');

/** Exports public by design, used by no file here: `file:name`, or `file:*` for every export of a file. */
const PUBLIC = new Set([
  // The package's entry (what `import ... from 'pm-cli'` sees).
  'src/lib/index.ts:*',
]);

/** Whether an export of `file` is public by design: the allowlist, and a command module's default export. */
function isPublic(file: string, name: string): boolean {
  const rel = relative(ROOT, file);
  return PUBLIC.has(`${rel}:*`) || PUBLIC.has(`${rel}:${name}`) || (name === 'default' && rel.startsWith('src/commands/'));
}

/** The symbol an alias (import, re-export, `export { a as b }`) stands for, one step at a time, the alias included. */
function aliasChain(checker: ts.TypeChecker, s: ts.Symbol | undefined): ts.Symbol[] {
  const out: ts.Symbol[] = [];
  for (let cur = s; cur !== undefined && !out.includes(cur); ) {
    out.push(cur);
    cur = cur.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(cur) : undefined;
  }
  return out;
}

/** The exports of a module that a dynamic `import()` takes: its destructured names or the property read, else all. */
function dynamicNames(call: ts.CallExpression): string[] | 'all' {
  let e: ts.Node = call;
  while (ts.isAwaitExpression(e.parent) || ts.isParenthesizedExpression(e.parent)) e = e.parent;
  const p = e.parent;
  if (ts.isVariableDeclaration(p) && ts.isObjectBindingPattern(p.name))
    return p.name.elements.map((b) => (b.propertyName ?? b.name).getText());
  if (ts.isPropertyAccessExpression(p) && p.expression === e) return [p.name.text];
  return 'all';
}

/** Plain JavaScript outside the program (scripts, benches, child processes of tests), which imports the compiled modules. */
function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : scripts(p);
    return /\.[cm]?js$/.test(e.name) ? [p] : [];
  });
}

/** The names a script takes from dist/X.js by `import()` or `import`: each counts as an import of src/X.ts. */
function scriptImports(file: string): { source: string; names: string[] | 'all' }[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { source: string; names: string[] | 'all' }[] = [];
  const distPath = (n: ts.Node): string | undefined => {
    let found: string | undefined;
    const find = (x: ts.Node): void => {
      const m = ts.isStringLiteralLike(x) ? /(?:^|\/)dist\/(.+)\.js$/.exec(x.text) : null;
      if (m) found = join(SRC, `${m[1]}.ts`);
      else ts.forEachChild(x, find);
    };
    find(n);
    return found;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      const source = distPath(node.arguments[0]);
      if (source) out.push({ source, names: dynamicNames(node) });
    } else if (ts.isImportDeclaration(node) && node.importClause) {
      const source = distPath(node.moduleSpecifier);
      const b = node.importClause.namedBindings;
      if (source) out.push({ source, names: b && ts.isNamedImports(b) ? b.elements.map((e) => (e.propertyName ?? e.name).text) : 'all' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

// A planted module and a user of it, added to the program: the check must find exactly the dead
// exports of the probe (so it can fail), and count each kind of use.
const PROBE = join(SRC, '__dead_exports_probe__.ts');
const PLANTED = new Map([
  [
    PROBE,
    `export interface InSignature { a: number }
export interface Unused { b: number }
export type ByImportType = string;
export function imported(x: InSignature): number { return x.a; }
export const dynamic = 1;
export const aliased = 2;
export const dead = 3;
`,
  ],
  [
    join(ROOT, 'test/__dead_exports_probe__.ts'),
    `import { imported, aliased as renamed } from '../src/__dead_exports_probe__.js';
export async function f(t: import('../src/__dead_exports_probe__.js').ByImportType): Promise<number> {
  const { dynamic } = await import('../src/__dead_exports_probe__.js');
  return imported({ a: dynamic + renamed }) + t.length;
}
`,
  ],
]);

/** The dead exports under src/, as `file:line name`. */
function deadExports(): string[] {
  const configPath = join(ROOT, 'tsconfig.test.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.test.json could not be read');
  // Only our own files matter: packages are not resolved (their symbols are never ours; a few seconds saved).
  const host = ts.createCompilerHost(config.options);
  host.resolveModuleNameLiterals = (literals, containing, _ref, options) =>
    literals.map((l) => (l.text.startsWith('.') ? ts.resolveModuleName(l.text, containing, options, host) : { resolvedModule: undefined }));
  const { fileExists, getSourceFile } = host;
  host.fileExists = (f) => PLANTED.has(f) || fileExists(f);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = PLANTED.get(f);
    return text === undefined ? getSourceFile(f, lang, ...rest) : ts.createSourceFile(f, text, lang);
  };
  const rootNames = [...config.fileNames, ...PLANTED.keys()];
  const program = ts.createProgram({ rootNames, options: { ...config.options, noLib: true, types: [] }, host });
  const checker = program.getTypeChecker();
  const ours = program.getSourceFiles().filter((f) => !f.isDeclarationFile);

  const used = new Set<ts.Symbol>();
  const useAll = new Set<ts.Symbol>(); // modules taken whole (namespace import, export *, unnamed import())
  const use = (node: ts.Node): void => {
    for (const s of aliasChain(checker, checker.getSymbolAtLocation(node))) used.add(s);
  };
  const moduleOf = (spec: ts.Expression): ts.Symbol | undefined => checker.getSymbolAtLocation(spec);
  const useNamed = (mod: ts.Symbol | undefined, names: string[] | 'all'): void => {
    if (!mod) return;
    if (names === 'all') useAll.add(mod);
    else for (const n of names) for (const s of aliasChain(checker, checker.tryGetMemberInModuleExports(n, mod))) used.add(s);
  };

  for (const sf of ours) {
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const c = node.importClause;
        if (c.name) use(c.name);
        if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) useNamed(moduleOf(node.moduleSpecifier), 'all');
        else if (c.namedBindings) for (const el of c.namedBindings.elements) use(el.name);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) useNamed(moduleOf(node.moduleSpecifier), 'all');
        else
          for (const el of node.exportClause.elements) {
            // The re-export's own symbol is checked as an export of this file; what it names is used.
            const s = checker.getSymbolAtLocation(el.name);
            for (const t of s ? aliasChain(checker, checker.getImmediateAliasedSymbol(s)) : []) used.add(t);
          }
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [arg] = node.arguments;
        // The generated command map imports every command module for its default export (allowed below).
        if (arg && ts.isStringLiteral(arg) && !sf.fileName.startsWith(join(SRC, 'generated'))) useNamed(moduleOf(arg), dynamicNames(node));
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        let q: ts.EntityName = node.qualifier;
        while (ts.isQualifiedName(q)) q = q.left;
        use(q);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }

  for (const dir of ['bench', 'bin', 'examples', 'scripts', 'test'])
    for (const file of scripts(join(ROOT, dir)))
      for (const { source, names } of scriptImports(file)) {
        const sf = program.getSourceFile(source);
        useNamed(sf && checker.getSymbolAtLocation(sf), names);
      }

  // Live: imported, public, or a type in the signature of a live export of its file (declaration files
  // and callers name it there: unexported, the declaration emit of another file fails).
  const own = new Map<ts.SourceFile, Set<ts.Symbol>>();
  const pending: ts.Symbol[] = [];
  for (const sf of ours) {
    const mod = sf.fileName.startsWith(`${SRC}/`) ? checker.getSymbolAtLocation(sf) : undefined;
    if (!mod) continue;
    // `export *` brings in another file's symbols: they are checked in their own file.
    const exps = checker.getExportsOfModule(mod).filter((s) => s.declarations?.some((d) => d.getSourceFile() === sf));
    own.set(sf, new Set(exps));
    for (const s of exps) if (useAll.has(mod) || used.has(s) || isPublic(sf.fileName, s.name)) pending.push(s);
  }
  const live = new Set<ts.Symbol>();
  const TYPE = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum;
  for (let s = pending.pop(); s !== undefined; s = pending.pop()) {
    if (live.has(s)) continue;
    live.add(s);
    for (const decl of s.declarations ?? []) {
      const types = [...(own.get(decl.getSourceFile()) ?? [])].filter((t) => t.flags & TYPE);
      const names = new Set(types.map((t) => t.name));
      const visit = (n: ts.Node): void => {
        if (ts.isBlock(n) && ts.isFunctionLike(n.parent)) return; // a body is not a signature
        if (ts.isIdentifier(n) && names.has(n.text)) {
          const t = aliasChain(checker, checker.getSymbolAtLocation(n)).at(-1);
          if (t && types.includes(t)) pending.push(t);
        }
        ts.forEachChild(n, visit);
      };
      visit(decl);
    }
  }

  const dead: string[] = [];
  for (const [sf, exps] of own)
    for (const s of exps) {
      if (live.has(s)) continue;
      const line = sf.getLineAndCharacterOfPosition((s.declarations?.[0] ?? sf).getStart()).line + 1;
      dead.push(`${relative(ROOT, sf.fileName)}:${line} ${s.name}`);
    }
  return dead;
}

let found: string[] | undefined;
const dead = (): string[] => (found ??= deadExports());
const probe = relative(ROOT, PROBE);

describe('exports', () => {
  it('every export under src/ is imported by a file of src/ or test/ (or is public: the allowlist)', () => {
    expect(dead().filter((d) => !d.startsWith(probe))).toEqual([]);
  });

  it('finds the planted dead exports, and counts imports, aliases, dynamic imports, import types and signatures as uses', () => {
    expect(dead().filter((d) => d.startsWith(probe))).toEqual([`${probe}:2 Unused`, `${probe}:7 dead`]);
  });
});
