// `npm run bench`: runs every benchmark (or those named on the command line) and rewrites the
// matching sections of bench/RESULTS.md. Each figure is measured side by side with its reference.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const all = [
  'startup',
  'package',
  'signing',
  'matching',
  'batch',
  'place',
  'agent',
  'keystore',
  'ratelimit',
  'persist',
  'watch',
  'markets',
  'http-orders',
  'replay',
];
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : all;
const file = new URL('./RESULTS.md', import.meta.url);
let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
for (const name of wanted) {
  const path = new URL(`./${name}.mjs`, import.meta.url);
  if (!existsSync(path)) continue;
  // (package imports a TypeScript helper of the tests: Node ≥ 22.18 runs it as it is.)
  if (name === 'package' && !process.features.typescript) {
    console.error('bench: package needs Node ≥ 22.18 (run it on Node 24), skipped');
    continue;
  }
  const mod = await import(path);
  console.error(`bench: ${name}…`);
  const res = await mod.run();
  // (Start-up is measured on each Node: one section each.)
  const key = name === 'startup' ? `startup-node${process.versions.node.split('.')[0]}` : name;
  const section = `<!-- ${key}:start -->\n## ${res.title}\n\n_${new Date().toISOString().slice(0, 10)}, ${machine}_\n\n${res.text}\n<!-- ${key}:end -->`;
  const re = new RegExp(`<!-- ${key}:start -->[\\s\\S]*?<!-- ${key}:end -->`);
  doc = re.test(doc) ? doc.replace(re, section) : `${doc.trimEnd()}\n\n${section}\n`;
  console.log(res.text);
}
writeFileSync(file, doc.endsWith('\n') ? doc : `${doc}\n`);
// Tables padded as Biome formats them (CI checks the file).
const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
spawnSync(process.execPath, [biome, 'format', '--write', fileURLToPath(file)], { stdio: 'ignore' });
console.error('wrote bench/RESULTS.md');
