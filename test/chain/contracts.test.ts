// The committed contract artefacts (src/sandbox/contracts.ts) are what contracts/*.sol compile
// to with the pinned solc: a fresh offline compile must give the same file.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('contract artefacts', () => {
  it('match a fresh solc compile of contracts/*.sol', async () => {
    const r = await promisify(execFile)(process.execPath, ['scripts/contracts.mjs', '--check'], { timeout: 60_000 });
    expect(r.stdout).toContain('up to date');
  }, 60_000);
});
