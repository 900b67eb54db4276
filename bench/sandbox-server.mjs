// A sandbox for profiling: the tsc output (dist/sandbox, unbundled, so a CPU profile names real
// functions and files) started in this process, the ready line on stdout as `pm --json sandbox
// start` prints it; SIGTERM closes it (and lets --cpu-prof write its profile).
//   node --cpu-prof --cpu-prof-dir=DIR bench/sandbox-server.mjs
const { startSandbox } = await import(new URL('../dist/sandbox/index.js', import.meta.url).href);
const sb = await startSandbox({ port: 0, dataDir: process.env.BENCH_SANDBOX_DIR || null });
process.stdout.write(`${JSON.stringify(sb.info)}\n`);
const stop = async () => {
  await sb.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
