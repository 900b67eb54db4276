// Reads the official SDK's published type declarations (dist/index.d.ts) to list the fields an
// interface declares as required, so a test can hold a real sandbox response to exactly what
// the SDK promises its users (and notice when a new SDK version promises more).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let source: string | undefined;

function declarations(): string {
  if (source === undefined) {
    // The package's exports map hides package.json; resolve its main entry and read the d.ts beside it.
    const main = require.resolve('@limitless-exchange/sdk');
    source = readFileSync(join(dirname(main), 'index.d.ts'), 'utf8');
  }
  return source;
}

/** The required (non-optional) top-level fields of an SDK interface, including those it extends. */
export function requiredFields(name: string): string[] {
  const text = declarations();
  const escaped = name.replace(/[$]/g, '\\$');
  const head = new RegExp(`^interface ${escaped}(?: extends ([\\w$, ]+))? \\{$`, 'm').exec(text);
  if (!head) throw new Error(`interface ${name} not found in the SDK's declarations`);
  const fields: string[] = [];
  let depth = 0;
  for (const line of text.slice(head.index + head[0].length + 1).split('\n')) {
    const trimmed = line.trim();
    if (depth === 0 && trimmed.startsWith('}')) break;
    const m = depth === 0 ? /^([A-Za-z_$][\w$]*)(\??):/.exec(trimmed) : null;
    if (m?.[1] && m[2] === '') fields.push(m[1]);
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
  }
  const parents = (head[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [...parents.flatMap((p) => requiredFields(p)), ...fields];
}

/** The required fields of `name` that `value` lacks (an empty list when it conforms). */
export function missingFields(name: string, value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return requiredFields(name);
  return requiredFields(name).filter((k) => !(k in value));
}
