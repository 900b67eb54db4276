// CommonJS twins of the library's declaration files, for `require('pm-cli')` in TypeScript.
// The package is "type": "module", so tsc's dist/**/*.d.ts are ESM declarations, and a CommonJS
// file under `module: node16` (what @tsconfig/node20 sets) may not import them at all (TS1479).
// Each .d.ts that dist/lib/index.d.ts reaches gets a .d.cts beside it, the same text with its
// relative specifiers './x.js' made './x.cjs' (which tsc reads as ./x.d.cts); package.json's
// "require" condition names dist/lib/index.d.cts. The text is tsc's: nothing is re-typed here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+?)\.js\2/g;

/** Writes the .d.cts twin of `entry` (an absolute .d.ts path) and of every .d.ts it reaches. */
export function writeCjsTypes(entry) {
  const done = new Set();
  const twin = (file) => {
    if (done.has(file)) return;
    done.add(file);
    const text = readFileSync(file, 'utf8').replace(SPECIFIER, (_m, lead, q, spec) => {
      const target = resolve(dirname(file), `${spec}.d.ts`);
      if (!existsSync(target)) throw new Error(`cjs-types: ${file} imports ${spec}.js, which has no declaration file`);
      twin(target);
      return `${lead}${q}${spec}.cjs${q}`;
    });
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text);
  };
  twin(entry);
}
