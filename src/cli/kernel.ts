// What running a command needs beyond reading its argv: the Context and the command modules (and
// what completing a market slug needs).
// scripts/build.mjs makes this a bundle of its own (dist/cli/kernel.cjs), required when a command
// runs, so `pm --help`, a group's help and usage errors never read or compile it.
export { Context } from './context.js';
export { guard } from './guard.js';
export { COMMAND_MODULES } from '../generated/command-modules.js';
export { ApiClient } from '../core/http.js';
export { marketIndex } from '../core/markets.js';
export { writePrivateFileAtomic } from '../core/fsutil.js';
