import { defineConfig } from 'vitest/config';

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
