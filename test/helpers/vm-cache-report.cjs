// Preloaded with `node -r` by test/cli/code-cache.test.ts: for each bundle file compiled through
// vm.Script (as v8-compile-cache does on Node 20), writes `CACHE <file> none|accepted|rejected`
// to stderr: whether a cache was given, and whether V8 took it.
'use strict';
const vm = require('node:vm');
const { writeSync } = require('node:fs');
const { basename } = require('node:path');

const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    if (/[\\/]dist[\\/].*\.cjs$/.test(options?.filename ?? ''))
      writeSync(
        2,
        `CACHE ${basename(options.filename)} ${options.cachedData ? (this.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}\n`,
      );
  }
};
