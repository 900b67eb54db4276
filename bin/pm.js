#!/usr/bin/env node
// Thin shim: check the Node version, answer --version without loading anything, run the CLI
// (the esbuild bundle that scripts/build.mjs writes to dist/).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`error: pm needs Node.js 20.19 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // The bundle is minified: with --verbose, stack traces go through its source maps to src/.
  if (args.includes('--verbose')) process.setSourceMapsEnabled(true);
  await import('../dist/cli/run.js');
}
