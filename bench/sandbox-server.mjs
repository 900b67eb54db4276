// A sandbox for profiling: the tsc output (dist/sandbox, unbundled, so a CPU profile names real
// functions and files) started in this process, the ready line on stdout as `pm --json sandbox
// start` prints it; SIGTERM closes it.
//   node bench/sandbox-server.mjs PROFILE.cpuprofile
// With a file argument, SIGUSR2 starts the CPU profiler and the next SIGUSR2 stops it and writes
// the profile there (then prints "profiled" on stdout), so a bench profiles exactly its timed phase.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const { startSandbox } = await import(new URL('../dist/sandbox/index.js', import.meta.url).href);
const out = process.argv[2];
const sb = await startSandbox({ port: 0, dataDir: process.env.BENCH_SANDBOX_DIR || null });
if (out) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  let running = false;
  process.on('SIGUSR2', async () => {
    if (!running) {
      running = true;
      await session.post('Profiler.start');
      process.stdout.write('profiling\n');
    } else {
      running = false;
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(out, JSON.stringify(profile));
      process.stdout.write('profiled\n');
    }
  });
}
process.stdout.write(`${JSON.stringify(sb.info)}\n`);
const stop = async () => {
  await sb.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
