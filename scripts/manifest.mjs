// The published package.json: `node scripts/manifest.mjs strip` (npm's prepack, after the build)
// writes it without the scripts (a user's install runs nothing of pm's: `prepare` builds a
// checkout, and scripts/ is not shipped), the devDependencies nor allowScripts (the checkout's
// approval of esbuild's install script), keeping the checkout's manifest aside; `restore` (postpack) puts that back. npm packs the manifest as it is after prepack.
// `published` prints it without touching the checkout's (the tests pack a copy of the checkout).
// Every write replaces the file by a rename: a reader never sees it empty or cut short.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../package.json', import.meta.url));
const kept = fileURLToPath(new URL('../.package.json.checkout', import.meta.url));

/** The published manifest (text) of the checkout's (text). */
function published(text) {
  const { scripts: _s, devDependencies: _d, allowScripts: _a, ...manifest } = JSON.parse(text);
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Writes `text` to `path` whole: into a file beside it, then renamed over it. */
function replace(path, text) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

const [what] = process.argv.slice(2);
if (what === 'strip') {
  if (existsSync(kept)) throw new Error(`${kept} exists: a pack did not finish; run node scripts/manifest.mjs restore first`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(kept, text);
  replace(file, published(text));
} else if (what === 'restore') {
  if (existsSync(kept)) renameSync(kept, file);
} else if (what === 'published') {
  process.stdout.write(published(readFileSync(file, 'utf8')));
} else {
  console.error('usage: node scripts/manifest.mjs strip|restore|published');
  process.exitCode = 2;
}
