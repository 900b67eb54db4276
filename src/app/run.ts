// The process entry point: the only place that calls process.exit.
import { main } from './main.js';
import type { IO } from '../cli/output.js';

const controller = new AbortController();
let interrupts = 0;
const onSignal = (sig: NodeJS.Signals): void => {
  interrupts++;
  // A second Ctrl-C skips cleanup.
  if (interrupts > 1) process.exit(130);
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
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
};

const code = await main(process.argv.slice(2), io);
// Let stdout drain before exiting (pipes are asynchronous).
if (process.stdout.writableLength > 0) await new Promise<void>((r) => process.stdout.once('drain', () => r()));
process.exit(code);
