// The sandbox stays in small parts (issue 34 §4): no file under src/sandbox over 400 lines, no
// function over 120. Measured with the TypeScript compiler, so a function is whatever the
// compiler calls one (declarations, methods, arrows, function expressions), nested ones
// counted inside their parent as well.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('src/sandbox');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;
/** Generated code (the compiled test contracts), not written by hand. */
const GENERATED = new Set(['contracts.ts']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return name.endsWith('.ts') && !GENERATED.has(relative(ROOT, p)) ? [p] : [];
  });
}

/** Every function-like node of a file with its name (or where it starts) and its length in lines. */
export function functionLengths(file: string, text: string): { name: string; lines: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = 'name' in node && node.name ? node.name.getText(sf) : undefined;
      const parent = node.parent;
      const holder =
        named ??
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)
          ? parent.name.getText(sf)
          : `(line ${first + 1})`);
      out.push({ name: `${relative(ROOT, file)}:${holder}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('the sandbox in small parts', () => {
  const all = files(ROOT);

  it(`no file is over ${MAX_FILE_LINES} lines`, () => {
    const long = all
      .map((f) => ({ file: relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = all.flatMap((f) => functionLengths(f, readFileSync(f, 'utf8'))).filter((x) => x.lines > MAX_FUNCTION_LINES);
    expect(long).toEqual([]);
  });

  it('the measure sees a long function (it can fail)', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES + 1 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const lengths = functionLengths('probe.ts', `export const probe = () => {\n${body}\n};\n`);
    expect(lengths).toEqual([{ name: expect.stringMatching(/probe$/), lines: MAX_FUNCTION_LINES + 3 }]);
  });
});
