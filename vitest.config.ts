import { defineConfig } from 'vitest/config';

// The suite talks to 127.0.0.1 only, so the CA bundle a machine may name for reaching the registry
// is of no use to its processes; on Node 20 every process (each pm, tsc and npm a test starts)
// reads it at start, ~90 ms of CPU each. Unset here, before the workers fork, it is unset for all.
// (The tests of pm doctor's note on it set it themselves.) Measured on Node 20, 2 cores: the suite
// 250.7 s with it set, 243.4 s without.
delete process.env['NODE_EXTRA_CA_CERTS'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: a test that spawns pm a dozen times takes 5 s on a quiet machine and can take
    // 30 s on a loaded one. Only a hung test waits this out; waits inside tests are conditions.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Eight files at a time on 2 cores: the suite mostly waits (the exchange's pace, sandboxes,
    // child processes, the replay e2e's 60 s recording), so fewer workers leave the CPU idle.
    // Measured on 2 cores: 270 s with 2 workers, 216 s with 3, 166 s with 4 (a smaller suite);
    // the suite of 2026-11-28 (1,092 tests): 260-277 s with 4, 195 s with 6, all green; of
    // 2026-11-29 (1,179 tests, Node 20): 240-243 s with 6 (CI), 200 s with 8; with 8 beside four
    // busy loops, shuffled (Node 24): 301 s, all green.
    maxWorkers: 8,
    // Test files share a worker's module cache (no re-import of src/ and its dependencies per
    // file: ~50 s of CPU on 2 cores). Every file starts its own sandbox and PM_HOME, and the suite
    // is checked in shuffled order, so no file may rely on module state another left behind.
    isolate: false,
    reporters: ['default'],
  },
});
