// Build: compile src/ to dist/ with tsc, then generate the command manifest from the command
// definitions (dist/app/manifest.json, and src/app/manifest.json so that in-process tests read the
// same). Runs on `npm ci` (prepare) and `npm run build`.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit', cwd: root });

// The manifest: every module under commands/ whose default export is a defineCommand definition.
const walk = (dir) => readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : n.endsWith('.js') ? [join(dir, n)] : []));
const { isDefinedCommand, manifestEntry } = await import(pathToFileURL(join(root, 'dist/cli/command.js')).href);
const commandsDir = join(root, 'dist/commands');
const entries = [];
for (const file of walk(commandsDir)) {
  const mod = await import(pathToFileURL(file).href);
  if (isDefinedCommand(mod.default)) entries.push(manifestEntry(mod.default, relative(commandsDir, file).split(sep).join('/')));
}
const text = `${JSON.stringify(entries, null, 2)}\n`;
writeFileSync(join(root, 'dist/app/manifest.json'), text);
const srcManifest = join(root, 'src/app/manifest.json');
if (!existsSync(srcManifest) || readFileSync(srcManifest, 'utf8') !== text) writeFileSync(srcManifest, text);
