// The package a bot author installs: the tarball `npm pack` makes with the published manifest, its
// size packed and unpacked, then installed offline into a new project (test/helpers/pack.ts, as
// the install test does) without and with the optional chain binary: the packages and bytes of
// node_modules. And what `require('pm-cli')` (and `import 'pm-cli'`) costs a bot's start-up:
// whole-process wall time against `node -e 0`, interleaved rounds, the ratio paired per round.
// Runs the installed copy, so nothing of this checkout's node_modules is on the way. Needs a
// Node that runs TypeScript (≥ 22.18) for the helper; `npm run bench package` on Node 24.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, interleaved, pairedRatio } from './lib.mjs';

const MB = (n) => `${(n / 1e6).toFixed(2)} MB`;

export async function run() {
  if (!process.features.typescript) throw new Error('bench package: run it on Node ≥ 22.18 (it imports test/helpers/pack.ts)');
  const { footprint, installTarball, packTarball } = await import('../test/helpers/pack.ts');
  const work = mkdtempSync(join(tmpdir(), 'pm-bench-package-'));
  try {
    const tarball = await packTarball(work);
    const listed = spawnSync('tar', ['-tvzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n');
    const unpacked = listed.reduce((sum, l) => sum + Number(l.split(/\s+/)[2] ?? 0), 0);
    const lean = join(work, 'lean');
    const full = join(work, 'full');
    await installTarball(lean, tarball, { omitOptional: true });
    await installTarball(full, tarball);
    const a = footprint(lean);
    const b = footprint(full);
    writeFileSync(join(lean, 'require.cjs'), "require('pm-cli');\n");
    writeFileSync(join(lean, 'import.mjs'), "import 'pm-cli';\n");
    const node = process.execPath;
    const cases = [
      { name: 'node -e 0', cmd: node, args: ['-e', '0'] },
      { name: "require('pm-cli')", cmd: node, args: [join(lean, 'require.cjs')] },
      { name: "import 'pm-cli'", cmd: node, args: [join(lean, 'import.mjs')] },
    ];
    const t = interleaved(cases, 30);
    const base = t['node -e 0'];
    const ratio = pairedRatio(t["require('pm-cli')"], base);
    const KB = (f) => `${Math.round(statSync(join(lean, 'node_modules/pm-cli/dist', f)).size / 1024)} KB`;
    const rows = cases.map(
      (c) =>
        `| ${c.name} | ${fmt(t[c.name].median)} | ${fmt(t[c.name].min)} | ${c.name === 'node -e 0' ? '1' : `${pairedRatio(t[c.name], base).toFixed(2)}×`} |`,
    );
    const text = [
      '| | pm-cli | target |',
      '|---|---|---|',
      `| tarball (npm pack) | ${MB(statSync(tarball).size)}, ${listed.length} files | |`,
      `| unpacked | ${MB(unpacked)} | |`,
      `| installed, without the optional chain binary | ${MB(a.bytes)}, ${a.packages.length} package${a.packages.length === 1 ? '' : 's'} (${a.packages.join(', ')}) | ≤ 15 MB, ≤ 5 packages |`,
      `| installed with it (\`pm sandbox start --chain\`'s anvil) | ${MB(b.bytes)}, ${b.packages.length} packages | |`,
      '',
      `Start-up of a bot that loads the library (whole process, installed copy, no compile cache; 30 interleaved rounds; load average ${loadavg()[0].toFixed(1)}):`,
      '',
      '| | median | best | against `node -e 0` (paired per round) |',
      '|---|---|---|---|',
      ...rows,
      '',
      `Target: \`require('pm-cli')\` ≤ 1.5× \`node -e 0\`: ${ratio <= 1.5 ? 'met' : 'not met'} (${ratio.toFixed(2)}×). Nothing is loaded at require but the`,
      `library's facade (createClient and its option checks, ${KB('lib/index.cjs')}) and the error classes (${KB('core/errors.cjs')}): no Node network`,
      `module, no crypto. The client core (${KB('lib/engine.cjs')}) loads on a client's first call; viem, socket.io-client and the proxy`,
      'agents on the first call that needs them. Before (issue 32): tarball 2.1 MB, 7.3 MB unpacked, installed 99 packages and 154 MB',
      '(viem eager at require); 1.87× with the whole client core in the entry (220 KB, node:crypto, net and http at require).',
    ].join('\n');
    return { title: 'The installed package and `require` time', text };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
