import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

// The suite talks to 127.0.0.1 only, so the CA bundle a machine may name for reaching the registry
// is of no use to its processes; on Node 20 every process (each pm, tsc and npm a test starts)
// reads it at start, ~90 ms of CPU each. Unset here, before the workers fork, it is unset for all.
// (The tests of pm doctor's note on it set it themselves.) Measured on Node 20, 2 cores: the suite
// 250.7 s with it set, 243.4 s without.
delete process.env['NODE_EXTRA_CA_CERTS'];

/**
 * The files that take longest (wall time: waits, child processes, sandboxes), longest first, as
 * measured in CI on Node 20 (2026-11-29, seconds): a clean clone has no durations of vitest's own,
 * which then starts the largest files first, and several long files are small (exactly-once-faults
 * is 5 KB for 50 s): started last, they were the end of the run.
 */
const LONG = [
  'test/e2e/install.e2e.test.ts', // 105
  'test/e2e/replay.e2e.test.ts', // 75
  'test/cli/deadline.test.ts', // 60
  'test/cli/exactly-once-property.test.ts', // 60
  'test/cli/exactly-once-faults.test.ts', // 50
  'test/e2e/examples.e2e.test.ts', // 49
  'test/cli/unknown-orders.test.ts', // 49
  'test/chain/allowances-reset-chain.test.ts', // 37
  'test/cli/tables-80.test.ts', // 34
  'test/cli/trading-safety.test.ts', // 33
  'test/cli/money-once-property.test.ts', // 33
  'test/cli/balance.test.ts', // 31
  'test/cli/agent.test.ts', // 30
  'test/cli/portfolio.test.ts', // 29
  'test/cli/batch-unknown.test.ts', // 28
  'test/cli/guard.test.ts', // 26
  'test/cli/cancel-lost-answer.test.ts', // 26
  'test/cli/journal-torn.test.ts', // 23
];

/**
 * The long files first, then vitest's own order. With --sequence.shuffle every file in an order
 * drawn from the seed (vitest shuffles only when no sequencer is configured).
 */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const { shuffle, seed } = this.ctx.config.sequence;
    if (shuffle) {
      // A small seeded generator (mulberry32): the same seed, the same order.
      let t = seed >>> 0;
      const next = (): number => {
        t = (t + 0x6d2b79f5) >>> 0;
        let r = Math.imul(t ^ (t >>> 15), 1 | t);
        r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
        return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
      };
      const out = [...sorted];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as TestSpecification, out[i] as TestSpecification];
      }
      return out;
    }
    const rank = (f: TestSpecification): number => {
      const i = LONG.indexOf(relative(this.ctx.config.root, f.moduleId));
      return i < 0 ? LONG.length : i;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: LongFirst },
  },
});
