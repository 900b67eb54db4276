// A sandbox in a process of its own, for tests that kill it (-9) and start it again on the same
// data dir: the built sandbox (dist/, as `pm sandbox start` runs it) on port 0. Prints the ready
// info as one JSON line; each "dump" line on stdin prints the whole state as one JSON line
// (bigints tagged, as the state files write them), so a test can compare before and after;
// "snapshot" writes a snapshot (state.json) and prints "ok".
// With a recording as second argument, it replays it at speed max (replay.ts).
// Usage: node sandbox-child.mjs <dataDir> [recording]
import { createInterface } from 'node:readline';

const dir = process.argv[2];
const recording = process.argv[3];
const { startSandbox } = await import(new URL('../../dist/sandbox/index.js', import.meta.url).href);
const { encode } = await import(new URL('../../dist/sandbox/codec.js', import.meta.url).href);
const sb = await startSandbox({
  port: 0,
  dataDir: dir,
  settlement: { minedAfterMs: 20, confirmedAfterMs: 20 },
  provisionDelayMs: 50,
  ...(recording ? { replay: { file: recording, speed: 'max' } } : {}),
});
process.stdout.write(`${JSON.stringify(sb.info)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'dump') process.stdout.write(`${encode(sb.ctx.state)}\n`);
  if (line.trim() === 'snapshot') {
    await sb.snapshot();
    process.stdout.write('"ok"\n');
  }
}
