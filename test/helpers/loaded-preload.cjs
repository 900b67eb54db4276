// Preloaded with `node -r` into a pm process by test/helpers/loaded.ts: when the process exits,
// writes to stderr one line `LOADED <path>` for every bundle module it loaded (dist/**/*.cjs), one
// `LOADED pack:<path>` for every pack file it read, and
// `LOADED node:<name>` for every public Node built-in it loaded (pm's bundle is CommonJS, so an
// ESM loader hook would not see its files).
'use strict';
const { writeSync } = require('node:fs');
process.once('exit', () => {
  const lines = [];
  // A pack (*.pack.cjs) holds modules, each in the cache under its own file's path: `LOADED pack:…`.
  for (const file of Object.keys(require.cache))
    if (/[\\/]dist[\\/].*\.cjs$/.test(file)) lines.push(file.endsWith('.pack.cjs') ? `LOADED pack:${file}` : `LOADED ${file}`);
  for (const m of process.moduleLoadList) {
    const name = /^NativeModule (.+)$/.exec(m)?.[1];
    if (name !== undefined && !name.startsWith('internal/')) lines.push(`LOADED node:${name}`);
  }
  writeSync(2, `${lines.join('\n')}\n`);
});
