// The process entry point: the only place that calls process.exit. It sits beside the kernel
// (src/cli) as docs/architecture.md names it, but it is not part of it: nothing imports this file, and it is
// the one file of src/cli that imports the app (src/app). A plain command line (src/app/direct.ts)
// runs without commander; any other loads src/app/main.ts, and commander with it, on the call.
import { directInvocation } from '../app/direct.js';
import { reportUncaught, runInvocation } from '../app/invoke.js';
import { InterruptedError } from '../core/errors.js';
import type { IO } from './output.js';

const controller = new AbortController();
let interrupts = 0;
const onSignal = (sig: NodeJS.Signals): void => {
  interrupts++;
  // A second Ctrl-C skips cleanup (the first waits for what is on its way, to say what was done),
  // but never silently: a request it was sending may have reached the exchange.
  if (interrupts > 1) {
    reportUncaught(
      new InterruptedError(`stopped at once by a second ${sig}, without waiting for what was on its way`, {
        hint: 'If it was placing or cancelling an order or moving money, that may or may not have reached the exchange: pm doctor lists what pm has not settled (orders, withdrawals, claims) with the command to settle each.',
      }),
      process.argv.slice(2),
      io,
    );
    process.exit(sig === 'SIGTERM' ? 143 : 130);
  }
  controller.abort(Object.assign(new Error(`interrupted by ${sig}`), { signal: sig }));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// A closed pipe (pm ... | head) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
});

const io: IO = {
  stdout: process.stdout,
  stderr: process.stderr,
  // A getter: process.stdin is a stream created on first access (~5 ms), read by few commands.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
};

// An exception or rejection that nothing caught is printed as every error is ("error: …", or the
// JSON object), not as Node's stack trace; the process state is then unknown, so it exits 1.
const fatal = (e: unknown): void => {
  reportUncaught(e, process.argv.slice(2), io);
  process.exit(1);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

const main = async (argv: string[], io: IO): Promise<number> => (await import('../app/main.js')).main(argv, io);
const argv = process.argv.slice(2);
const direct = argv[0] === '__complete' ? undefined : directInvocation(argv);
// (No top-level await: the bundle is CommonJS, see scripts/build.mjs.)
void (direct ? runInvocation(direct, argv, io, main) : main(argv, io)).then(async (code) => {
  // Let stdout drain before exiting (pipes are asynchronous).
  if (process.stdout.writableLength > 0) await new Promise<void>((r) => process.stdout.once('drain', () => r()));
  process.exit(code);
});
