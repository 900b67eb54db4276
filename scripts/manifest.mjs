// The published package.json: `node scripts/manifest.mjs strip` (npm's prepack, after the build)
// writes it without the scripts (a user's install runs nothing of pm's: `prepare` builds a
// checkout, and scripts/ is not shipped), the devDependencies nor allowScripts (the checkout's
// approval of esbuild's install script), keeping the checkout's manifest aside; `restore` (postpack) puts that back. npm packs the manifest as it is after prepack.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../package.json', import.meta.url));
const kept = fileURLToPath(new URL('../.package.json.checkout', import.meta.url));

const [what] = process.argv.slice(2);
if (what === 'strip') {
  if (existsSync(kept)) throw new Error(`${kept} exists: a pack did not finish; run node scripts/manifest.mjs restore first`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(kept, text);
  const { scripts: _s, devDependencies: _d, allowScripts: _a, ...published } = JSON.parse(text);
  writeFileSync(file, `${JSON.stringify(published, null, 2)}\n`);
} else if (what === 'restore') {
  if (existsSync(kept)) renameSync(kept, file);
} else {
  console.error('usage: node scripts/manifest.mjs strip|restore');
  process.exitCode = 2;
}
